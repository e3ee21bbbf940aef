/**
 * How the MyInvois jobs reach LHDN for one organization: its settings (environment, URLs, client
 * credentials unsealed with the server's key, the signing certificate for version 1.1) turned into a
 * client of src/integrations/myinvois/client.ts. Tokens are cached per organization and secret across
 * jobs; requests go through the outbound guard (deps.outbound).
 */
import type { MyInvoisClient } from '../../integrations/myinvois/client';
import { credentialsFromPem, type SigningCredentials } from '../../integrations/myinvois/signature';
import { open } from '../../lib/secret-box';
import type { Database } from '../../db/client';
import { tinEinvoicedElsewhere } from '../../db/queries/einvoicing-settings';
import { findOrganization } from '../../db/queries/organizations';
import { buildClient, type MyinvoisDeps } from './build-client';
import { einvoiceView, findEinvoiceRow, type EinvoiceRow } from './settings';

export type { MyinvoisDeps } from './build-client';

export interface Connection {
  client: MyInvoisClient;
  version: '1.0' | '1.1';
  portalBaseUrl: string;
  /** The signing credentials (version 1.1), unsealed. */
  signing: () => SigningCredentials;
}

/** How the organization logs in to MyInvois with its saved settings: the client to build, or what is missing. */
export type Login =
  | { missing: string }
  | {
      clientId: string;
      /** Logging in as the operator's intermediary system on behalf of the organization's TIN. */
      intermediary: boolean;
      client(deps: Omit<MyinvoisDeps, 'key'>, now: () => Date): MyInvoisClient;
    };

/**
 * The one place the credentials of a MyInvois login are chosen: the organization's own client id and
 * secret (unsealed with the server's key), or, with `login: intermediary`, the operator's
 * intermediary system (deps.intermediary) with `onbehalfof` the organization's TIN. The token cache
 * keys every token by tenant, address, client id, on-behalf-of TIN and the secret's hash
 * (client-tokens.ts), so a changed secret or TIN never meets a token of the old one, and one
 * organization's intermediary token never serves another's.
 */
export function loginFor(row: EinvoiceRow | undefined, organizationId: string, tin: string, deps: Pick<MyinvoisDeps, 'key' | 'intermediary'>): Login {
  if (!row) return { missing: 'E-invoicing was never set up: save the MyInvois client id and secret in the e-invoicing settings.' };
  const view = einvoiceView(row);
  if (row.login === 'intermediary') {
    const operator = deps.intermediary;
    if (!operator) return { missing: "The operator's MyInvois intermediary system is not configured (MYINVOIS_INTERMEDIARY_CLIENT_ID and _SECRET): log in with the organization's own client id and secret (login: own)." };
    if (!tin) return { missing: "Save the organization's TIN in the profile: the intermediary logs in on behalf of it." };
    return {
      clientId: operator.clientId,
      intermediary: true,
      client: (d, now) => buildClient(organizationId, { apiBaseUrl: view.api_base_url, clientId: operator.clientId, clientSecret: operator.clientSecret, onBehalfOf: tin }, d, now),
    };
  }
  const clientId = row.clientId;
  const sealed = row.clientSecretSealed;
  if (!clientId || !sealed) return { missing: 'The MyInvois client id and secret are not saved: save them in the e-invoicing settings (settings.einvoicing).' };
  return {
    clientId,
    intermediary: false,
    client: (d, now) => buildClient(organizationId, { apiBaseUrl: view.api_base_url, clientId, clientSecret: open(deps.key, sealed, organizationId) }, d, now),
  };
}

/**
 * An intermediary login on behalf of the organization's current TIN: refused while another
 * organization e-invoices under that TIN (the seller TIN may have changed since the settings were saved).
 */
export async function intermediaryTinProblem(db: Database, row: EinvoiceRow, tin: string): Promise<string | undefined> {
  if (row.login !== 'intermediary' || !tin) return undefined;
  if (await tinEinvoicedElsewhere(db, { organizationId: row.organizationId, tin, environment: row.environment })) {
    return `The intermediary cannot act for TIN ${tin}: another organization e-invoices under it. Log in with this organization's own MyInvois client id and secret.`;
  }
  return undefined;
}

/** Why the organization cannot reach MyInvois now, or its connection. */
/** `now`: the job's clock, which the token cache measures expiry against. */
export async function connectionFor(db: Database, organizationId: string, deps: MyinvoisDeps, now: Date): Promise<Connection | { missing: string }> {
  // Not `enabled`: that governs new issues; documents already handed over are followed to the end.
  const row = await findEinvoiceRow(db, organizationId);
  if (!row) return { missing: 'e-invoicing was never set up' };
  const view = einvoiceView(row);
  const tin = row.login === 'intermediary' ? ((await findOrganization(db, { organizationId }))?.seller?.tin?.trim() ?? '') : '';
  const login = loginFor(row, organizationId, tin, deps);
  if ('missing' in login) return { missing: row.login === 'intermediary' ? login.missing : 'the MyInvois client id and secret are not set (settings.einvoicing)' };
  const elsewhere = await intermediaryTinProblem(db, row, tin);
  if (elsewhere) return { missing: elsewhere };
  const client = login.client(deps, () => now);
  const sealedCertificate = row.certificateSealed;
  return {
    client,
    version: row.version,
    portalBaseUrl: view.portal_base_url,
    signing: () => {
      if (!sealedCertificate) throw new Error('version 1.1 needs a signing certificate (settings.einvoicing)');
      const upload = JSON.parse(open(deps.key, sealedCertificate, organizationId)) as { pem: string; private_key: string; passphrase?: string };
      return credentialsFromPem(upload.pem, upload.private_key, upload.passphrase);
    },
  };
}
