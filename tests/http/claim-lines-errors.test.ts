import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { claimLines, claims } from '../../src/db/schema';
import { createApiKey } from '../../src/services/access/admin';
import { createExpenseCategory } from '../factories/setup';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { expectProblem } from '../helpers/problem';
import { claimLinesKit, receipt } from './claim-lines-kit';

const t = useTestApp();
const { add, patch, withdraw, fileClaim, setup, transition } = claimLinesKit(t);

const linesOf = async (organizationId: string, claimId: string) =>
  t.db.select().from(claimLines).where(and(eq(claimLines.organizationId, organizationId), eq(claimLines.claimId, claimId)));
const revisionOf = async (claimId: string) => (await t.db.select({ revision: claims.revision }).from(claims).where(eq(claims.id, claimId)))[0]?.revision;

/** A claim of the employee with one receipt line (revision 2). */
async function claimWithLine() {
  const kit = await setup();
  const filed = await fileClaim(kit.employee.apiKey);
  const res = await add(kit.employee.apiKey, filed.claim.id, 1, receipt(kit.ref.meals.id));
  const lineId = res.json().lines[0].id as string;
  return { ...kit, claimId: filed.claim.id, lineId };
}

describe('400: not of the operation’s shape', () => {
  it.each([
    ['amount as a JSON number', { amount: 108 }, '/amount'],
    ['type not a line type', { type: 'hotel' }, '/type'],
    ['expense_date malformed', { expense_date: '08/04/2026' }, '/expense_date'],
    ['category_id not a uuid', { category_id: 'meals' }, '/category_id'],
    ['amount not a decimal', { amount: '1e3' }, '/amount'],
    ['shares not an array', { shares: { analytic_account_id: randomUUID(), percentage: '100' } }, '/shares'],
    ['an unknown field', { claimant_member_id: randomUUID() }, '/claimant_member_id'],
    ['base_amount is computed, never sent', { base_amount: '1.00' }, '/base_amount'],
  ] as [string, Record<string, unknown>, string][])('add: %s', async (_name, extra, pointer) => {
    const { org, employee, ref } = await setup();
    const filed = await fileClaim(employee.apiKey);
    const body = expectProblem(await add(employee.apiKey, filed.claim.id, 1, receipt(ref.meals.id, extra)), 400, 'invalid_request');
    expect(body.errors?.[0]?.pointer).toBe(pointer);
    expect(await linesOf(org.id, filed.claim.id)).toEqual([]);
    expect(await revisionOf(filed.claim.id)).toBe(1);
  });

  it('PATCH: type cannot change (400); an unknown field is 400; a malformed line id is 400', async () => {
    const { employee, claimId, lineId } = await claimWithLine();
    const type = expectProblem(await patch(employee.apiKey, claimId, lineId, 2, { type: 'mileage' }), 400, 'invalid_request');
    expect(type.errors).toEqual([{ pointer: '/type', detail: 'is not a field this operation accepts' }]);
    expectProblem(await patch(employee.apiKey, claimId, lineId, 2, { colour: 'red' }), 400, 'invalid_request');
    expectProblem(await patch(employee.apiKey, claimId, 'not-a-line', 2, { amount: '1.00' }), 400, 'invalid_request');
    expect(await revisionOf(claimId)).toBe(2);
  });
});

describe('422: every failing field at once', () => {
  it('blank and over-long text, a date after today and before 1900, an inactive category: one 422 naming each', async () => {
    const { org, employee, ref } = await setup();
    const retired = await createExpenseCategory(t.db, { organizationId: org.id, code: 'OLD', name: 'Old', active: false });
    const filed = await fileClaim(employee.apiKey);
    const body = expectProblem(
      await add(employee.apiKey, filed.claim.id, 1, receipt(retired.id, { description: '   ', supplier_name: 's'.repeat(201), supplier_tin: 'T'.repeat(21), expense_date: '2999-01-01', amount: '0' })),
      422,
      'validation',
    );
    expect(body.errors).toEqual([
      { pointer: '/category_id', detail: 'is not an active expense category of this organization' },
      { pointer: '/description', detail: 'must not be blank' },
      { pointer: '/supplier_name', detail: 'must be at most 200 characters' },
      { pointer: '/supplier_tin', detail: 'must be at most 20 characters' },
      { pointer: '/expense_date', detail: expect.stringMatching(/^must not be after today \(\d{4}-\d{2}-\d{2}\)$/) },
    ]);
    const old = expectProblem(await add(employee.apiKey, filed.claim.id, 1, receipt(ref.meals.id, { description: 'd'.repeat(501), expense_date: '1899-12-31', supplier_name: ' ' })), 422);
    expect(old.errors).toEqual([
      { pointer: '/description', detail: 'must be at most 500 characters' },
      { pointer: '/supplier_name', detail: 'must not be blank' },
      { pointer: '/expense_date', detail: 'must not be before 1900-01-01' },
    ]);
    const amounts = expectProblem(await add(employee.apiKey, filed.claim.id, 1, receipt(ref.meals.id, { amount: '10.005', tax_amount: '1', tax_code_id: randomUUID() })), 422);
    expect(amounts.errors).toEqual([
      { pointer: '/amount', detail: 'must have at most 2 decimal places for MYR' },
      { pointer: '/tax_code_id', detail: 'is not an active tax code of this organization' },
    ]);
    const tax = expectProblem(await add(employee.apiKey, filed.claim.id, 1, receipt(ref.meals.id, { amount: '10.00', tax_amount: '10.01' })), 422);
    expect(tax.errors).toEqual([{ pointer: '/tax_amount', detail: 'must be an amount from 0 up to the line amount' }]);
    const foreignShare = expectProblem(await add(employee.apiKey, filed.claim.id, 1, receipt(ref.meals.id, { shares: [{ analytic_account_id: ref.zeta.id, percentage: '60' }] })), 422);
    expect(foreignShare.errors).toEqual([{ pointer: '/shares', detail: `the shares on axis ${ref.projects.id} sum to 60, not 100` }]);
    const typed = expectProblem(await add(employee.apiKey, filed.claim.id, 1, { type: 'advance_offset', expense_date: '2026-04-01', category_id: ref.advance.id, description: 'x', amount: '5', tax_amount: '1', rate_id: ref.mileage.id, currency: 'USD' }), 422);
    expect(typed.errors).toEqual([
      { pointer: '/currency', detail: 'must be the base currency MYR: advance_offset lines are in the base currency' },
      { pointer: '/rate_id', detail: 'applies only to mileage and per-diem lines' },
      { pointer: '/tax_amount', detail: 'applies only to a receipt line (SST borne on a purchase)' },
    ]);
    expect(await linesOf(org.id, filed.claim.id)).toEqual([]);
    expect(await revisionOf(filed.claim.id)).toBe(1);
  });

  it('a PATCH is checked with the same rules', async () => {
    const { employee, claimId, lineId } = await claimWithLine();
    const body = expectProblem(await patch(employee.apiKey, claimId, lineId, 2, { description: '', amount: '-1' }), 422, 'validation');
    expect(body.errors).toEqual([
      { pointer: '/description', detail: 'must not be blank' },
      { pointer: '/amount', detail: 'must be greater than 0' },
    ]);
    expect(await revisionOf(claimId)).toBe(2);
  });
});

describe('who may write a claim’s lines', () => {
  it('another organization’s claim, an unknown claim or line: 404, the same answer', async () => {
    const { employee, claimId, lineId, ref } = await claimWithLine();
    const other = await createTestOrganization(t.db);
    const a = expectProblem(await add(other.owner.apiKey, claimId, 2, receipt(ref.meals.id)), 404, 'not_found');
    const b = expectProblem(await add(other.owner.apiKey, randomUUID(), 2, receipt(ref.meals.id)), 404, 'not_found');
    expect(a.detail).toBe(b.detail);
    expectProblem(await patch(other.owner.apiKey, claimId, lineId, 2, { amount: '1.00' }), 404, 'not_found');
    expectProblem(await withdraw(other.owner.apiKey, claimId, lineId, 2), 404, 'not_found');
    expectProblem(await patch(employee.apiKey, claimId, randomUUID(), 2, { amount: '1.00' }), 404, 'not_found');
    expectProblem(await withdraw(employee.apiKey, claimId, randomUUID(), 2), 404, 'not_found');
    expect(await revisionOf(claimId)).toBe(2);
  });

  it('another member’s claim: 404 to a colleague who may not read it, 403 forbidden to an approver who reads it', async () => {
    const { org, employee, claimId, lineId, ref } = await claimWithLine();
    const colleague = await createTestMember(t.db, org.id, { role: 'employee' });
    expectProblem(await add(colleague.apiKey, claimId, 2, receipt(ref.meals.id)), 404, 'not_found');
    expectProblem(await patch(colleague.apiKey, claimId, lineId, 2, { amount: '1.00' }), 404, 'not_found');
    const accountant = await createTestMember(t.db, org.id, { role: 'accountant' });
    const body = expectProblem(await add(accountant.apiKey, claimId, 2, receipt(ref.meals.id)), 403, 'forbidden');
    expect(body.detail).toBe("Only the claimant adds, changes or withdraws a claim's lines");
    expectProblem(await withdraw(org.owner.session, claimId, lineId, 2), 403, 'forbidden');
    expect(await revisionOf(claimId)).toBe(2);
    expect(employee.id).not.toBe(accountant.id);
  });

  it('without expenses.claim.create (by role or by key): 403', async () => {
    const { org, employee, claimId, lineId, ref } = await claimWithLine();
    const viewer = await createTestMember(t.db, org.id, { role: 'viewer' });
    const body = expectProblem(await add(viewer.apiKey, claimId, 2, receipt(ref.meals.id)), 403, 'forbidden');
    expect(body.detail).toContain('expenses.claim.create');
    const narrow = await createApiKey(t.db, { organizationId: org.id, ownerMemberId: employee.id, permissions: ['documents.create'] });
    expectProblem(await patch(narrow.token, claimId, lineId, 2, { amount: '1.00' }), 403, 'forbidden');
    expect(await revisionOf(claimId)).toBe(2);
  });

  it('data entry, not a decision: an API key and a session both work', async () => {
    const { employee, claimId, ref } = await claimWithLine();
    const bySession = await add(employee.session, claimId, 2, receipt(ref.meals.id, { amount: '5.00' }));
    expect(bySession.statusCode, bySession.body).toBe(201);
    const byKey = await add(employee.apiKey, claimId, 3, receipt(ref.meals.id, { amount: '6.00' }));
    expect(byKey.statusCode).toBe(201);
    expect(byKey.json().claim).toMatchObject({ revision: 4, total: '119.00' });
  });
});

describe('If-Match, the claim’s state and idempotency', () => {
  it('missing If-Match: 428 revision_required; stale: 409 revision_mismatch; nothing written', async () => {
    const { org, employee, claimId, lineId, ref } = await claimWithLine();
    const missing = expectProblem(await add(employee.apiKey, claimId, undefined, receipt(ref.meals.id)), 428, 'revision_required');
    expect(missing.errors).toEqual([{ pointer: '/headers/if-match', detail: 'is required' }]);
    expectProblem(await patch(employee.apiKey, claimId, lineId, undefined, { amount: '1.00' }), 428, 'revision_required');
    expectProblem(await withdraw(employee.apiKey, claimId, lineId, undefined), 428, 'revision_required');
    const stale = expectProblem(await add(employee.apiKey, claimId, 1, receipt(ref.meals.id)), 409, 'revision_mismatch');
    expect(stale.errors).toEqual([{ pointer: '/headers/if-match', detail: 'is stale (current revision is 2)' }]);
    expectProblem(await patch(employee.apiKey, claimId, lineId, 3, { amount: '1.00' }), 409, 'revision_mismatch');
    expectProblem(await withdraw(employee.apiKey, claimId, lineId, 1), 409, 'revision_mismatch');
    expect(await linesOf(org.id, claimId)).toHaveLength(1);
    expect(await revisionOf(claimId)).toBe(2);
  });

  it('a claim that is no longer a draft: 409 conflict', async () => {
    const { employee, claimId, lineId, ref } = await claimWithLine();
    await transition(employee.session, claimId, 2, 'cancel');
    const rev = (await revisionOf(claimId))!;
    const body = expectProblem(await add(employee.apiKey, claimId, rev, receipt(ref.meals.id)), 409, 'conflict');
    expect(body.detail).toBe('Lines can only change while the claim is a draft; it is cancelled');
    expectProblem(await patch(employee.apiKey, claimId, lineId, rev, { amount: '1.00' }), 409, 'conflict');
    expectProblem(await withdraw(employee.apiKey, claimId, lineId, rev), 409, 'conflict');
    expect(await revisionOf(claimId)).toBe(rev);
  });

  it('a replayed Idempotency-Key answers the same (Idempotent-Replayed: true) and writes once; another body with it is 409', async () => {
    const { org, employee, claimId, ref } = await claimWithLine();
    const key = randomUUID();
    const first = await add(employee.apiKey, claimId, 2, receipt(ref.meals.id, { amount: '9.90' }), { 'idempotency-key': key });
    expect(first.statusCode).toBe(201);
    const again = await add(employee.apiKey, claimId, 2, receipt(ref.meals.id, { amount: '9.90' }), { 'idempotency-key': key });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers.etag).toBe('"3"');
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.json()).toEqual(first.json());
    expect(await linesOf(org.id, claimId)).toHaveLength(2);
    expect(await revisionOf(claimId)).toBe(3);
    expectProblem(await add(employee.apiKey, claimId, 3, receipt(ref.meals.id, { amount: '1.00' }), { 'idempotency-key': key }), 409, 'idempotency_key_reused');
    expectProblem(await add(employee.apiKey, claimId, 3, receipt(ref.meals.id), { 'idempotency-key': '' }), 422, 'idempotency_key_required');
  });
});
