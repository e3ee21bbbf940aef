/**
 * settings.einvoicing: the organization's LHDN MyInvois settings (docs/myinvois.md point 1), one record.
 * Without a row it answers the defaults at revision 1. The client secret and the certificate (with
 * its key and passphrase) are sealed under the payout-channel key and never answered: the answer
 * says `client_secret_set` and gives the certificate's public facts. Turning e-invoicing on needs
 * the seller identity complete (422 listing what is missing). Changes are kept in the settings history.
 * Where the secret goes is a person's decision: changing the environment or the API address needs a
 * session (an API key: 403 person_required), clears the stored secret unless the same request gives
 * it again, and the new address must pass the outbound guard (422 at /api_base_url). A seller TIN
 * another organization already e-invoices under is claimed only with credentials MyInvois accepts.
 */
import type { Database } from '../../db/client';
import { findEinvoicingSettings, tinEinvoicedElsewhere, upsertEinvoicingSettings, type EinvoicingSettingsRow } from '../../db/queries/einvoicing-settings';
import { lockSetupScope } from '../../db/queries/keyset';
import { MyInvoisError } from '../../integrations/myinvois/client';
import { checkBaseUrl } from '../../integrations/outbound';
import { AppError } from '../../lib/errors';
import { Refusals } from '../../lib/refusals';
import { open, seal } from '../../lib/secret-box';
import { isPerson } from '../access/principal';
import type { ServiceContext } from '../context';
import { checkRevision } from '../revision';
import { recordSettingsChange } from '../settings/history';
import { leavesUnchanged, written } from '../settings/setup';
import { buildClient, type MyinvoisDeps } from './build-client';
import { checkCertificate, type CertificateUpload } from './certificate';
import { sellerPreflight } from './preflight';

export type EinvoiceRow = EinvoicingSettingsRow;
export type Environment = EinvoiceRow['environment'];

export const DEFAULT_URLS: Record<Environment, { api_base_url: string; portal_base_url: string }> = {
  simulator: { api_base_url: 'http://127.0.0.1:8765', portal_base_url: 'http://127.0.0.1:8765' },
  sandbox: { api_base_url: 'https://preprod-api.myinvois.hasil.gov.my', portal_base_url: 'https://preprod.myinvois.hasil.gov.my' },
  production: { api_base_url: 'https://api.myinvois.hasil.gov.my', portal_base_url: 'https://myinvois.hasil.gov.my' },
};

export function findEinvoiceRow(db: Database, organizationId: string, forUpdate = false): Promise<EinvoiceRow | undefined> {
  return findEinvoicingSettings(db, { organizationId, forUpdate });
}

export function einvoiceView(row: EinvoiceRow | undefined) {
  const environment: Environment = row?.environment ?? 'sandbox';
  const urls = { ...DEFAULT_URLS[environment], ...(row?.urls[environment] ?? {}) };
  return {
    enabled: row?.enabled ?? false,
    login: row?.login ?? 'own',
    environment,
    api_base_url: urls.api_base_url,
    portal_base_url: urls.portal_base_url,
    client_id: row?.clientId ?? null,
    client_secret_set: Boolean(row?.clientSecretSealed),
    certificate: row?.certificate ?? null,
    version: row?.version ?? '1.0',
    revision: row?.revision ?? 1,
  };
}
export type EinvoiceSettingsAnswer = ReturnType<typeof einvoiceView>;

export async function getEinvoiceSettings(ctx: ServiceContext): Promise<EinvoiceSettingsAnswer> {
  return einvoiceView(await findEinvoiceRow(ctx.db, ctx.org.id));
}

export interface UpdateEinvoiceSettingsInput {
  expected_revision: number;
  enabled?: boolean;
  login?: EinvoiceRow['login'];
  environment?: Environment;
  api_base_url?: string | null;
  portal_base_url?: string | null;
  client_id?: string | null;
  client_secret?: string | null;
  certificate?: CertificateUpload | null;
  version?: '1.0' | '1.1';
}

/** LHDN's own hosts (sandbox and production defaults): the service's constants, not a tenant's choice. */
const LHDN_API_URLS = new Set([DEFAULT_URLS.sandbox.api_base_url, DEFAULT_URLS.production.api_base_url]);

/** The credential check's own time limit: a save waits for it. */
const CREDENTIAL_CHECK_TIMEOUT_MS = 10_000;

function checkUrl(r: Refusals, value: string | null | undefined, pointer: string) {
  if (value === undefined || value === null) return;
  if (!r.check(value.length <= 500, pointer, 'must be at most 500 characters')) return;
  let ok = false;
  try {
    const u = new URL(value);
    ok = (u.protocol === 'https:' || u.protocol === 'http:') && !u.search && !u.hash;
  } catch {
    ok = false;
  }
  r.check(ok, pointer, 'must be an http(s) URL without query or fragment');
}

function checkText(r: Refusals, value: string | null | undefined, pointer: string, max: number) {
  if (value === undefined || value === null) return;
  if (r.check(value.trim() !== '', pointer, 'must not be blank')) r.check(value.length <= max, pointer, `must be at most ${max} characters`);
}

/**
 * `deps`: the key secrets are sealed under, and how MyInvois is reached (the outbound policy the
 * new address is checked against; the client the credential check uses).
 */
export async function updateEinvoiceSettings(ctx: ServiceContext, input: UpdateEinvoiceSettingsInput, deps: MyinvoisDeps): Promise<EinvoiceSettingsAnswer> {
  const r = new Refusals();
  checkUrl(r, input.api_base_url, '/api_base_url');
  checkUrl(r, input.portal_base_url, '/portal_base_url');
  checkText(r, input.client_id, '/client_id', 200);
  checkText(r, input.client_secret, '/client_secret', 500);
  const seller = ctx.org.seller ?? {};
  const checked = input.certificate ? await checkCertificate(r, input.certificate, { tin: seller.tin, brn: seller.registration_no }) : undefined;
  const facts = checked?.facts;

  await lockSetupScope(ctx.db, ctx.org.id, 'einvoicing');
  const current = await findEinvoiceRow(ctx.db, ctx.org.id, true);
  const before = einvoiceView(current);
  checkRevision(before.revision, input.expected_revision);

  const environment = input.environment ?? before.environment;
  const urls = { ...(current?.urls ?? {}) };
  const override = { ...(urls[environment] ?? {}) };
  if (input.api_base_url !== undefined) override.api_base_url = input.api_base_url ?? undefined;
  if (input.portal_base_url !== undefined) override.portal_base_url = input.portal_base_url ?? undefined;
  urls[environment] = JSON.parse(JSON.stringify(override)) as typeof override;
  const apiBaseUrl = override.api_base_url ?? DEFAULT_URLS[environment].api_base_url;
  // Where the client secret is posted: a person decides, the old secret does not follow, and the
  // address must be one this service may reach.
  const addressChanged = environment !== before.environment || apiBaseUrl !== before.api_base_url;
  if (addressChanged && !isPerson(ctx.principal)) {
    throw new AppError('person_required', { detail: "Changing the MyInvois environment or API address decides where the client secret is sent: it takes a person's session, not an API key" });
  }
  const login = input.login ?? before.login;
  if (login !== before.login && !isPerson(ctx.principal)) {
    throw new AppError('person_required', { detail: "Changing how the service logs in to MyInvois (own credentials or the operator's intermediary system) takes a person's session, not an API key" });
  }
  if (input.login === 'intermediary' && !deps.intermediary) {
    r.add('/login', "is not available: the operator has configured no MyInvois intermediary system (MYINVOIS_INTERMEDIARY_CLIENT_ID and MYINVOIS_INTERMEDIARY_CLIENT_SECRET); log in with the organization's own client id and secret");
  }
  if (addressChanged && r.empty && !LHDN_API_URLS.has(apiBaseUrl)) {
    const problem = await checkBaseUrl(apiBaseUrl, deps.outbound);
    if (problem) r.add(input.api_base_url ? '/api_base_url' : '/environment', `the MyInvois API address ${apiBaseUrl} ${problem}`);
  }
  // The stored secret was given for the old address: it is kept only when the request gives one.
  const clientSecretInput = input.client_secret !== undefined ? input.client_secret : addressChanged ? null : undefined;

  const certificateSealed =
    input.certificate === undefined ? (current?.certificateSealed ?? null) : input.certificate === null ? null : checked ? seal(deps.key, JSON.stringify({ pem: checked.pem, private_key: checked.private_key }), ctx.org.id) : null;
  const certificate = input.certificate === undefined ? (current?.certificate ?? null) : (facts ?? null);
  const version = input.version ?? before.version;
  if (version === '1.1' && !certificate && r.empty) r.add(input.version ? '/version' : '/certificate', 'version 1.1 (signed) needs a certificate');
  const enabled = input.enabled ?? before.enabled;
  if (input.enabled === true) for (const p of sellerPreflight(seller)) r.add(p.pointer, p.detail);
  // Issuing with e-invoicing on hands documents to LHDN: without the client credentials they would
  // wait in `submitted` for ever, so e-invoicing is on only with both set.
  const clientId = input.client_id === undefined ? (current?.clientId ?? null) : input.client_id === null ? null : input.client_id.trim();
  if (enabled && r.empty && login === 'own') {
    const secretSet = clientSecretInput === undefined ? Boolean(current?.clientSecretSealed) : clientSecretInput !== null;
    if (!clientId) r.add('/client_id', 'is needed while e-invoicing is on');
    if (!secretSet) r.add('/client_secret', addressChanged && input.client_secret === undefined ? 'is needed again with a new MyInvois environment or API address' : 'is needed while e-invoicing is on');
  }
  if (enabled && r.empty && login === 'intermediary' && !deps.intermediary) {
    r.add(input.login ? '/login' : '/enabled', "needs the operator's MyInvois intermediary system, which is not configured (MYINVOIS_INTERMEDIARY_CLIENT_ID and _SECRET): log in with the organization's own client id and secret (login: own)");
  }
  r.throwIfAny();
  // A change that changes nothing (no secret, no certificate sent; every other field as it stands) writes nothing and records no history.
  if (
    current &&
    input.client_secret === undefined &&
    input.certificate === undefined &&
    leavesUnchanged(current, { enabled, login, environment, clientId, version, urls })
  ) {
    return before;
  }

  const credentialsChanged = input.client_id !== undefined || input.client_secret !== undefined || addressChanged || !before.enabled || login !== before.login;
  if (enabled && login === 'intermediary' && credentialsChanged && seller.tin && (await tinEinvoicedElsewhere(ctx.db, { organizationId: ctx.org.id, tin: seller.tin, environment }))) {
    // The intermediary acts for whichever TIN it is told: a TIN another organization e-invoices under
    // is never taken this way (only with that TIN's own credentials, below).
    r.add('/login', `cannot act for TIN ${seller.tin}: it is already e-invoiced by another organization; log in with this organization's own MyInvois client id and secret`);
    r.throwIfAny();
  }
  if (enabled && login === 'own' && clientId && credentialsChanged && seller.tin && (await tinEinvoicedElsewhere(ctx.db, { organizationId: ctx.org.id, tin: seller.tin, environment }))) {
    const clientSecret = clientSecretInput ?? (current?.clientSecretSealed ? open(deps.key, current.clientSecretSealed, ctx.org.id) : null);
    await checkOwnCredentials(ctx, deps, { apiBaseUrl, clientId, clientSecret, tin: seller.tin });
  }

  const clientSecretSealed =
    clientSecretInput === undefined ? (current?.clientSecretSealed ?? null) : clientSecretInput === null ? null : seal(deps.key, clientSecretInput, ctx.org.id);
  const values = {
    organizationId: ctx.org.id,
    enabled,
    login,
    environment,
    urls,
    clientId,
    clientSecretSealed,
    certificateSealed,
    certificate,
    version,
    revision: before.revision + 1,
    updatedAt: ctx.now,
  };
  const row = await upsertEinvoicingSettings(ctx.db, values);
  const after = einvoiceView(written(row));
  await recordSettingsChange(ctx, { entity: 'einvoicing', record_id: ctx.org.id, action: 'update', before, after });
  return after;
}

/**
 * A seller TIN another organization already e-invoices under: this organization claims it only if
 * MyInvois accepts this organization's own client id and secret now (a fresh token request, never a
 * cached token). Refused: 422 at /client_secret.
 */
async function checkOwnCredentials(ctx: ServiceContext, deps: MyinvoisDeps, c: { apiBaseUrl: string; clientId: string; clientSecret: string | null; tin: string }): Promise<void> {
  const refuse = (why: string) => {
    const r = new Refusals();
    r.add('/client_secret', `TIN ${c.tin} is already e-invoiced by another organization: it can be used here only with this organization's own MyInvois credentials (${why})`);
    r.throwIfAny();
  };
  if (!c.clientSecret) return refuse('no client secret is set');
  const client = buildClient(ctx.org.id, { apiBaseUrl: c.apiBaseUrl, clientId: c.clientId, clientSecret: c.clientSecret }, { ...deps, timeoutMs: Math.min(deps.timeoutMs ?? CREDENTIAL_CHECK_TIMEOUT_MS, CREDENTIAL_CHECK_TIMEOUT_MS) }, () => ctx.now);
  try {
    await client.checkCredentials();
  } catch (error) {
    if (!(error instanceof MyInvoisError)) throw error;
    refuse(error.status === null ? `MyInvois could not be asked: ${error.message}` : `MyInvois refused them: ${error.message}`);
  }
}

/**
 * Why the saved settings cannot log in to MyInvois (what turning e-invoicing on refuses), as a
 * sentence saying what to do; undefined when the credentials are in place.
 */
export function einvoicingCredentialsProblem(row: EinvoiceRow | undefined, deps: Pick<MyinvoisDeps, 'intermediary'>): string | undefined {
  if (row?.login === 'intermediary') {
    return deps.intermediary
      ? undefined
      : "The operator's MyInvois intermediary system is not configured: log in with the organization's own client id and secret (login: own) in the e-invoicing settings.";
  }
  if (!row?.clientId) return 'Save the MyInvois client id and client secret of the organization (from the MyInvois portal) in the e-invoicing settings.';
  if (!row.clientSecretSealed) return 'Save the MyInvois client secret in the e-invoicing settings (it is cleared when the environment or API address changes).';
  return undefined;
}

/** Whether e-invoicing is on for the organization (issuing then needs a clean preflight). */
export async function einvoicingEnabled(db: Database, organizationId: string): Promise<boolean> {
  return (await findEinvoiceRow(db, organizationId))?.enabled ?? false;
}
