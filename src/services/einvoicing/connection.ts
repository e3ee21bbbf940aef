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
import { buildClient, type MyinvoisDeps } from './build-client';
import { einvoiceView, findEinvoiceRow } from './settings';

export type { MyinvoisDeps } from './build-client';

export interface Connection {
  client: MyInvoisClient;
  version: '1.0' | '1.1';
  portalBaseUrl: string;
  /** The signing credentials (version 1.1), unsealed. */
  signing: () => SigningCredentials;
}

/** Why the organization cannot reach MyInvois now, or its connection. */
/** `now`: the job's clock, which the token cache measures expiry against. */
export async function connectionFor(db: Database, organizationId: string, deps: MyinvoisDeps, now: Date): Promise<Connection | { missing: string }> {
  // Not `enabled`: that governs new issues; documents already handed over are followed to the end.
  const row = await findEinvoiceRow(db, organizationId);
  if (!row) return { missing: 'e-invoicing was never set up' };
  const view = einvoiceView(row);
  if (!row.clientId || !row.clientSecretSealed) return { missing: 'the MyInvois client id and secret are not set (settings.einvoicing)' };
  const clientSecret = open(deps.key, row.clientSecretSealed, organizationId);
  const client = buildClient(organizationId, { apiBaseUrl: view.api_base_url, clientId: row.clientId, clientSecret }, deps, () => now);
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
