/**
 * settings.einvoicing.testConnection: asks MyInvois, with the settings as saved, for a token (a fresh
 * request, never a cached token: a secret changed a moment ago is the one tried) and then whether it
 * knows the organization's TIN with its BRN (taxpayer TIN validation, with that token), and says
 * exactly which step failed and what to do: credentials not saved, an address this service may not
 * reach or that does not answer, a client id or secret MyInvois refuses, an intermediary not appointed
 * by the taxpayer, a TIN MyInvois does not know with this BRN. Steps after a failed one are not tried.
 * Reads and writes nothing in the database but the settings it reads.
 */
import { MyInvoisError } from '../../integrations/myinvois/client';
import type { ServiceContext } from '../context';
import type { MyinvoisDeps } from './build-client';
import { intermediaryTinProblem, loginFor } from './connection';
import { einvoiceView, findEinvoiceRow } from './settings';

export interface ConnectionStep {
  key: 'credentials' | 'token' | 'taxpayer';
  ok: boolean;
  detail: string;
}

export interface ConnectionTest {
  ok: boolean;
  steps: ConnectionStep[];
}

/** A test waits at most this long for each answer (a person is waiting). */
const TEST_TIMEOUT_MS = 10_000;

function unreachable(error: MyInvoisError, apiBaseUrl: string): string {
  return `MyInvois could not be reached at ${apiBaseUrl}: ${error.message}. Check the environment and API address in the e-invoicing settings.`;
}

function tokenRefused(error: MyInvoisError, clientId: string, intermediary: boolean, tin: string): string {
  if (error.status === null) return error.message;
  if (error.code === 'invalid_client') {
    return intermediary
      ? `MyInvois refused the operator's intermediary client id or secret (invalid_client): the operator must check MYINVOIS_INTERMEDIARY_CLIENT_ID and _SECRET.`
      : `MyInvois refused client id ${clientId} with the saved secret (invalid_client): copy the client id and secret again from the MyInvois portal and save them.`;
  }
  if (error.code === 'unauthorized_client' || error.code === 'unauthorised_client') {
    return `MyInvois refused to let the operator's intermediary system act for TIN ${tin} (${error.code}): appoint the operator as intermediary in MyTax, or log in with the organization's own client id and secret.`;
  }
  if (error.status === 429) return `MyInvois is limiting token requests (429)${error.retryAfterSeconds !== null ? `: try again in ${error.retryAfterSeconds} s` : ': try again in a minute'}.`;
  return `MyInvois refused the token request: ${error.message}.`;
}

export async function testEinvoicingConnection(ctx: ServiceContext, deps: MyinvoisDeps): Promise<ConnectionTest> {
  const steps: ConnectionStep[] = [];
  const answer = (): ConnectionTest => ({ ok: steps.every((s) => s.ok), steps });
  const row = await findEinvoiceRow(ctx.db, ctx.org.id);
  const view = einvoiceView(row);
  const seller = ctx.org.seller ?? {};
  const tin = seller.tin?.trim() ?? '';
  const brn = seller.registration_no?.trim() ?? '';
  const login = loginFor(row, ctx.org.id, tin, deps);
  const elsewhere = row ? await intermediaryTinProblem(ctx.db, row, tin) : undefined;
  if ('missing' in login || !tin || !brn || elsewhere) {
    const why = 'missing' in login ? login.missing : (elsewhere ?? `Save the organization's TIN and BRN in the profile: the test checks them at MyInvois.`);
    steps.push({ key: 'credentials', ok: false, detail: why });
    return answer();
  }
  steps.push({
    key: 'credentials',
    ok: true,
    detail: login.intermediary ? `Logging in as the operator's intermediary system on behalf of TIN ${tin}.` : `Logging in with client id ${login.clientId}.`,
  });
  const client = login.client({ ...deps, timeoutMs: Math.min(deps.timeoutMs ?? TEST_TIMEOUT_MS, TEST_TIMEOUT_MS) }, () => ctx.now);
  try {
    await client.checkCredentials();
    steps.push({ key: 'token', ok: true, detail: `MyInvois at ${view.api_base_url} gave a token.` });
  } catch (error) {
    if (!(error instanceof MyInvoisError)) throw error;
    steps.push({ key: 'token', ok: false, detail: error.status === null ? unreachable(error, view.api_base_url) : tokenRefused(error, login.clientId, login.intermediary, tin) });
    return answer();
  }
  try {
    const known = await client.validateTin(tin, 'BRN', brn);
    steps.push({
      key: 'taxpayer',
      ok: known,
      detail: known
        ? `MyInvois knows TIN ${tin} with BRN ${brn}.`
        : `MyInvois does not know TIN ${tin} with BRN ${brn}: check both in the organization's profile against the MyInvois portal.`,
    });
  } catch (error) {
    if (!(error instanceof MyInvoisError)) throw error;
    steps.push({
      key: 'taxpayer',
      ok: false,
      detail: error.status === null ? unreachable(error, view.api_base_url) : `MyInvois refused the TIN check: ${error.message}. Check the TIN and BRN in the organization's profile.`,
    });
  }
  return answer();
}
