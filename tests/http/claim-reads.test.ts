import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { queryRows, sql } from '../../src/db/client';
import { listClaimSignoffs } from '../../src/db/queries/claims';
import { insertDelegation, signSignoffRow, submitForSignoff } from '../factories/claim-access';
import { addClaimLine, createClaimReferenceData, uploadClaimDocument } from '../factories/claims';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';
import { expectProblem } from '../helpers/problem';

/** GET /v1/expenses/claims/{id}: the claim answer with its ETag, and who may read a claim (the read rule). */
const t = useTestApp();
const { post, get } = httpHelpers(t);
const URL = '/v1/expenses/claims';
const NOW = new Date('2026-05-10T04:00:00Z');

async function world() {
  const org = await createTestOrganization(t.db);
  const employee = await createTestMember(t.db, org.id, { role: 'employee', name: 'Devi' });
  const colleague = await createTestMember(t.db, org.id, { role: 'employee', name: 'Chong' });
  const accountant = await createTestMember(t.db, org.id, { role: 'accountant', name: 'Ben' });
  // Finance approvers hold no claim permission at all: the read rule alone lets them read.
  const approver = await createTestMember(t.db, org.id, { role: 'viewer', name: 'Aminah' });
  const delegate = await createTestMember(t.db, org.id, { role: 'viewer', name: 'Farid' });
  const ref = await createClaimReferenceData(t.db, org.id);
  const res = await post(URL, { title: 'Penang roadshow' }, employee.apiKey);
  expect(res.statusCode, res.body).toBe(201);
  const claimId = res.json().claim.id as string;
  return { org, employee, colleague, accountant, approver, delegate, ref, claimId, filed: res.json() };
}

/** The claim in `submitted` with a sign-off on Zeta (the approver eligible) and one on Sales (nobody). */
async function submitted(w: Awaited<ReturnType<typeof world>>) {
  return submitForSignoff(t.db, {
    organizationId: w.org.id,
    claimId: w.claimId,
    categoryId: w.ref.meals.id,
    amount: '120.00',
    shares: [
      { analyticAccountId: w.ref.zeta.id, percentage: '100' },
      { analyticAccountId: w.ref.sales.id, percentage: '100' },
    ],
    eligible: (account) => (account === w.ref.zeta.id ? [w.approver.id] : []),
    now: NOW,
  });
}

const status = async (id: string, token: string) => (await get(`${URL}/${id}`, token)).statusCode;

describe('GET /v1/expenses/claims/{id}', () => {
  it('answers the claim answer with the quoted revision as ETag, the same JSON as the filing and the tRPC read', async () => {
    const w = await world();
    const res = await get(`${URL}/${w.claimId}`, w.employee.apiKey);
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toBe('"1"');
    expect(res.json()).toEqual(w.filed);
    const trpc = await get(`/trpc/expenses.claims.get?input=${encodeURIComponent(JSON.stringify({ id: w.claimId }))}`, w.employee.session);
    expect(trpc.json().result.data).toEqual(w.filed);
    await addClaimLine(t.db, { organizationId: w.org.id, claimId: w.claimId, now: NOW, type: 'receipt', expenseDate: '2026-05-01', categoryId: w.ref.meals.id, description: 'Lunch', amount: '12.50' });
    const after = await get(`${URL}/${w.claimId}`, w.employee.session);
    expect(after.headers.etag).toBe('"2"');
    expect(after.json().claim).toMatchObject({ revision: 2, total: '12.50' });
    expect(after.json().lines).toHaveLength(1);
  });

  it("another organization's claim, a colleague's claim and a claim that does not exist are all 404", async () => {
    const w = await world();
    const other = await createTestOrganization(t.db);
    for (const token of [other.owner.apiKey, w.colleague.apiKey, w.approver.apiKey, w.delegate.apiKey]) {
      expectProblem(await get(`${URL}/${w.claimId}`, token), 404, 'not_found');
    }
    expectProblem(await get(`${URL}/${randomUUID()}`, w.employee.apiKey), 404, 'not_found');
    // The other organization's owner reads everything of their own, nothing of this one.
    const theirs = (await post(URL, { title: 'Theirs' }, other.owner.apiKey)).json().claim.id as string;
    expectProblem(await get(`${URL}/${theirs}`, w.accountant.apiKey), 404, 'not_found');
  });

  it('approvers and payers read every claim; nobody needs expenses.claim.create to read', async () => {
    const w = await world();
    expect(await status(w.claimId, w.accountant.apiKey)).toBe(200);
    const approveOnly = await createTestMember(t.db, w.org.id, { role: 'accountant', keyPermissions: ['expenses.claim.approve'] });
    const payOnly = await createTestMember(t.db, w.org.id, { role: 'accountant', keyPermissions: ['expenses.claim.pay'] });
    expect(await status(w.claimId, approveOnly.apiKey)).toBe(200);
    expect(await status(w.claimId, payOnly.apiKey)).toBe(200);
    // A key with no permission at all still reads its owner's own claim.
    const bare = await createTestMember(t.db, w.org.id, { role: 'employee', keyPermissions: [] });
    const own = (await post(URL, { title: 'Mine' }, bare.session)).json().claim.id as string;
    expect(await status(own, bare.apiKey)).toBe(200);
  });

  it('a member eligible on a sign-off reads it, and so does one who signed it; others still do not', async () => {
    const w = await world();
    await submitted(w);
    t.setNow(NOW);
    try {
      const res = await get(`${URL}/${w.claimId}`, w.approver.apiKey);
      expect(res.statusCode).toBe(200);
      // The read rule reads the stored `eligible`: the approver is named on Zeta, nobody on Sales.
      const stored = await listClaimSignoffs(t.db, { organizationId: w.org.id, claimId: w.claimId });
      expect(stored.map((s) => [s.accountCode, s.eligible]).sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
        ['D-SALES', []],
        ['P-ZETA', [w.approver.id]],
      ]);
      // The answer's `eligible` is the authority in force today (weighed at signing): the staged
      // sign-offs name a stand-in grant, which is no grant of the organization, so nobody signs them.
      expect(res.json().signoffs.map((s: any) => [s.account_code, s.eligible])).toEqual([
        ['D-SALES', []],
        ['P-ZETA', []],
      ]);
      expect(await status(w.claimId, w.colleague.apiKey)).toBe(404);
      // An escalation hop is added to `eligible` by the engine: from then on the hop reads it.
      const hop = await createTestMember(t.db, w.org.id, { role: 'viewer' });
      expect(await status(w.claimId, hop.apiKey)).toBe(404);
      const sales = (await listClaimSignoffs(t.db, { organizationId: w.org.id, claimId: w.claimId })).find((s) => s.accountCode === 'D-SALES')!;
      await queryRows(t.db, sql`update claim_signoffs set eligible = array[${hop.id}] where organization_id = ${w.org.id} and id = ${sales.id}`);
      expect(await status(w.claimId, hop.apiKey)).toBe(200);
      // Someone who signed (here on a delegation that has since ended) keeps reading what they signed.
      const signer = await createTestMember(t.db, w.org.id, { role: 'viewer' });
      await signSignoffRow(t.db, { organizationId: w.org.id, signoffId: sales.id, actorMemberId: signer.id, authorityMemberId: hop.id, via: 'delegation', now: NOW });
      expect(await status(w.claimId, signer.apiKey)).toBe(200);
    } finally {
      t.setNow(undefined);
    }
  });

  it('a delegate of an eligible member reads it while the delegation runs, within its scope', async () => {
    const w = await world();
    await submitted(w);
    const base = { organizationId: w.org.id, delegatorMemberId: w.approver.id, delegateMemberId: w.delegate.id };
    t.setNow(NOW);
    try {
      expect(await status(w.claimId, w.delegate.apiKey)).toBe(404);
      // Not yet, no longer, switched off, another account's: none of these lends the sign-off.
      await insertDelegation(t.db, { ...base, validFrom: '2026-05-12', validTo: '2026-06-01' });
      await insertDelegation(t.db, { ...base, validFrom: '2026-04-01', validTo: '2026-05-09' });
      await insertDelegation(t.db, { ...base, validFrom: '2026-05-01', validTo: '2026-05-31', active: false });
      await insertDelegation(t.db, { ...base, validFrom: '2026-05-01', validTo: '2026-05-31', scope: 'analytic_account', analyticAccountId: w.ref.alpha.id });
      await insertDelegation(t.db, { ...base, validFrom: '2026-05-01', validTo: '2026-05-31', scope: 'axis', axisId: w.ref.departments.id });
      // A delegation from someone who is not eligible lends nothing either.
      await insertDelegation(t.db, { organizationId: w.org.id, delegatorMemberId: w.colleague.id, delegateMemberId: w.delegate.id, validFrom: '2026-05-01', validTo: '2026-05-31' });
      expect(await status(w.claimId, w.delegate.apiKey)).toBe(404);
      // The Zeta account's (and the project axis') delegation does, on its first and last day too.
      await insertDelegation(t.db, { ...base, validFrom: '2026-05-10', validTo: '2026-05-10', scope: 'analytic_account', analyticAccountId: w.ref.zeta.id });
      expect(await status(w.claimId, w.delegate.apiKey)).toBe(200);
      t.setNow(new Date('2026-05-10T16:30:00Z')); // 00:30 on 11 May in Kuala Lumpur: the delegation has ended.
      expect(await status(w.claimId, w.delegate.apiKey)).toBe(404);
      await insertDelegation(t.db, { ...base, validFrom: '2026-05-11', validTo: '2026-05-20', scope: 'axis', axisId: w.ref.projects.id });
      expect(await status(w.claimId, w.delegate.apiKey)).toBe(200);
    } finally {
      t.setNow(undefined);
    }
  });

  it("one hop only: a delegate's own delegate reads nothing; a delegate reads the claim's documents too", async () => {
    const w = await world();
    const doc = await uploadClaimDocument(t.db, w.org.id, w.employee.id, `taxi ${randomUUID()}`);
    await addClaimLine(t.db, { organizationId: w.org.id, claimId: w.claimId, now: NOW, type: 'receipt', expenseDate: '2026-05-01', categoryId: w.ref.meals.id, description: 'Lunch', amount: '10.00', documentIds: [doc.id] });
    await submitted(w);
    const second = await createTestMember(t.db, w.org.id, { role: 'viewer' });
    await insertDelegation(t.db, { organizationId: w.org.id, delegatorMemberId: w.approver.id, delegateMemberId: w.delegate.id, validFrom: '2026-05-01', validTo: '2026-05-31' });
    await insertDelegation(t.db, { organizationId: w.org.id, delegatorMemberId: w.delegate.id, delegateMemberId: second.id, validFrom: '2026-05-01', validTo: '2026-05-31' });
    t.setNow(NOW);
    try {
      expect(await status(w.claimId, w.delegate.apiKey)).toBe(200);
      expect(await status(w.claimId, second.apiKey)).toBe(404);
      expect((await get(`/v1/documents/${doc.id}`, w.delegate.apiKey)).statusCode).toBe(200);
      expect((await get(`/v1/documents/${doc.id}`, second.apiKey)).statusCode).toBe(404);
    } finally {
      t.setNow(undefined);
    }
  });

  it('refuses a malformed id (400), an unknown query parameter (400) and a missing credential (401)', async () => {
    const w = await world();
    const p = expectProblem(await get(`${URL}/not-a-uuid`, w.employee.apiKey), 400, 'invalid_request');
    expect(p.errors?.[0]?.pointer).toBe('/path/id');
    const q = expectProblem(await get(`${URL}/${w.claimId}?expand=lines`, w.employee.apiKey), 400, 'invalid_request');
    expect(q.errors?.map((e) => e.pointer)).toContain('/query/expand');
    expectProblem(await get(`${URL}/${w.claimId}`), 401, 'unauthenticated');
  });
});
