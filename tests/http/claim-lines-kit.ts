/**
 * What the claim line HTTP tests share: an organization with an employee and the claim reference
 * data, filing a claim over REST, and the three line calls with If-Match and an Idempotency-Key.
 */
import { randomUUID } from 'node:crypto';
import { insertExchangeRate } from '../../src/db/queries/exchange-rates';
import { createInProcessClient } from '../../src/client';
import { createClaimReferenceData } from '../factories/claims';
import { bearer, createTestMember, createTestOrganization } from '../factories/organization';
import type { TestApp } from '../helpers/app';

type Method = 'POST' | 'PATCH';

export function claimLinesKit(t: TestApp) {
  const send = (method: Method, url: string, token: string, body: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method,
      url,
      headers: { ...bearer(token), 'content-type': 'application/json', 'idempotency-key': randomUUID(), ...headers },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const ifMatch = (revision: number | undefined): Record<string, string> => (revision === undefined ? {} : { 'if-match': `"${revision}"` });

  /** POST /v1/expenses/claims/{id}/lines at `revision` (no If-Match when undefined). */
  const add = (token: string, claimId: string, revision: number | undefined, body: unknown, headers: Record<string, string> = {}) =>
    send('POST', `/v1/expenses/claims/${claimId}/lines`, token, body, { ...ifMatch(revision), ...headers });
  const patch = (token: string, claimId: string, lineId: string, revision: number | undefined, body: unknown, headers: Record<string, string> = {}) =>
    send('PATCH', `/v1/expenses/claims/${claimId}/lines/${lineId}`, token, body, { ...ifMatch(revision), ...headers });
  const withdraw = (token: string, claimId: string, lineId: string, revision: number | undefined, headers: Record<string, string> = {}) =>
    send('POST', `/v1/expenses/claims/${claimId}/lines/${lineId}/withdraw`, token, {}, { ...ifMatch(revision), ...headers });

  /** Files a draft claim over REST; answers the claim answer. */
  async function fileClaim(token: string, title = 'Client visit') {
    const res = await send('POST', '/v1/expenses/claims', token, { title });
    if (res.statusCode !== 201) throw new Error(res.body);
    return res.json() as { claim: { id: string; revision: number } };
  }

  /** An organization, an employee (the claimant) and the claim reference data. */
  async function setup() {
    const org = await createTestOrganization(t.db);
    const employee = await createTestMember(t.db, org.id, { role: 'employee' });
    const ref = await createClaimReferenceData(t.db, org.id);
    return { org, employee, ref };
  }

  /** A reference exchange rate of the organization (base units per unit of `currency`) from `day`. */
  const referenceRate = (organizationId: string, currency: string, day: string, rate: string) =>
    insertExchangeRate(t.db, { organizationId, currency, rateDate: day, rate });

  /** Takes a claim workflow edge as a person (a session), at the claim's revision. */
  const transition = (session: string, id: string, revision: number, action_key: string) =>
    createInProcessClient(t.deps, { token: session, ifMatch: `"${revision}"` }).expenses.claims.transition({ id, action_key });

  return { send, add, patch, withdraw, fileClaim, setup, referenceRate, transition };
}

/** A receipt in the base currency with a relaxation basis: the smallest valid receipt line. */
export const receipt = (categoryId: string, extra: Record<string, unknown> = {}) => ({
  type: 'receipt',
  expense_date: '2026-04-08',
  category_id: categoryId,
  description: 'Lunch with the client',
  amount: '108.00',
  document_basis: 'relaxation_receipt',
  relaxation_reason: 'Hawker stall, no e-invoice',
  ...extra,
});

export const EINVOICE_UUID = 'F9D425P6DS7D8IU9K2M1QX4T7B';
