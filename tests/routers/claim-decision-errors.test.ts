/**
 * Every error a person can cause on a claim's decisions (expenses.claims.transition and pay): wrong
 * type, unknown field, missing or stale If-Match, an API key taking a person's decision, another
 * organization's claim, an action that is not an exit, a missing or over-long reason, the wrong
 * channel or bank figure when paying, and a missing permission. Also: the claimant's unit is frozen
 * at submission, and a returned claim's earlier signatures no longer count in the next round.
 */
import { describe, expect, it } from 'vitest';
import { createInProcessClient } from '../../src/client';
import { assignPosition, createOrgUnit, createPosition } from '../factories/setup';
import { decide, insertAssignment, insertGrant, readClaim, retireGrants } from '../factories/approvals';
import { fileTestClaim } from '../factories/claim-filing';
import { addClaimLine, createClaimReferenceData, createTestPayoutChannel } from '../factories/claims';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { callerFor, expectRefused, refusal } from '../helpers/settings';

const t = useTestApp();

async function world() {
  const org = await createTestOrganization(t.db);
  const ref = await createClaimReferenceData(t.db, org.id);
  const m = (role: 'employee' | 'accountant' = 'employee') => createTestMember(t.db, org.id, { role });
  const [employee, head, pm, payer] = [await m(), await m(), await m(), await m('accountant')];
  const unit = await createOrgUnit(t.db, { organizationId: org.id, code: 'SALES', name: 'Sales' });
  const other = await createOrgUnit(t.db, { organizationId: org.id, code: 'MKT', name: 'Marketing' });
  const headPos = await createPosition(t.db, { organizationId: org.id, orgUnitId: unit.id, title: 'Head', isUnitHead: true });
  const staff = await createPosition(t.db, { organizationId: org.id, orgUnitId: unit.id, title: 'Executive' });
  const marketer = await createPosition(t.db, { organizationId: org.id, orgUnitId: other.id, title: 'Marketer' });
  await assignPosition(t.db, { organizationId: org.id, memberId: head.id, positionId: headPos.id, validFrom: '2020-01-01' });
  await assignPosition(t.db, { organizationId: org.id, memberId: employee.id, positionId: staff.id, validFrom: '2020-01-01' });
  await retireGrants(t.db, org.id);
  await insertGrant(t.db, org.id, { kind: 'superior', step: 'review' });
  await insertGrant(t.db, org.id, { kind: 'account_approver', step: 'finance' });
  await insertAssignment(t.db, org.id, { analyticAccountId: ref.zeta.id, memberId: pm.id });
  const channel = await createTestPayoutChannel(t.db, org.id, employee.id);
  const claim = await fileTestClaim(t, employee, { payout_channel_id: channel.id });
  await addClaimLine(t.db, { organizationId: org.id, claimId: claim.id, now: new Date(), type: 'receipt', expenseDate: '2026-01-10', categoryId: ref.meals.id, description: 'Lunch', amount: '25.50', documentBasis: 'relaxation_receipt', relaxationReason: 'Stall', shares: [{ analyticAccountId: ref.zeta.id, percentage: '100' }] });
  return { org, ref, employee, head, pm, payer, channel, claimId: claim.id, marketer };
}

const revisionOf = async (session: string, id: string) => (await readClaim(t, session, id)).claim.revision as number;
const transition = (session: string, revision: number | undefined, input: object) => callerFor(t, session, revision).expenses.claims.transition(input);

describe('expenses.claims.transition refusals', () => {
  it('shape errors are 400: wrong type, unknown field, malformed id', async () => {
    const w = await world();
    const rev = await revisionOf(w.employee.session, w.claimId);
    expectRefused(await refusal(transition(w.employee.session, rev, { id: w.claimId, action_key: 7 })), 400, 'invalid_request');
    expectRefused(await refusal(transition(w.employee.session, rev, { id: w.claimId, action_key: 'submit', actor: w.head.id })), 400, 'invalid_request');
    expectRefused(await refusal(transition(w.employee.session, rev, { id: 'nope', action_key: 'submit' })), 400, 'invalid_request');
    // A length is a rule: 422 naming the field.
    const long = expectRefused(await refusal(transition(w.employee.session, rev, { id: w.claimId, action_key: 'submit', reason: 'x'.repeat(501) })), 422, 'validation', '/reason');
    expect(long.fieldErrors).toEqual([{ pointer: '/reason', detail: 'must be at most 500 characters' }]);
  });

  it('If-Match: missing is 428, stale is 409 revision_mismatch; nothing changes', async () => {
    const w = await world();
    const rev = await revisionOf(w.employee.session, w.claimId);
    expectRefused(await refusal(transition(w.employee.session, undefined, { id: w.claimId, action_key: 'submit' })), 428, 'revision_required');
    expectRefused(await refusal(transition(w.employee.session, rev - 1, { id: w.claimId, action_key: 'submit' })), 409, 'revision_mismatch');
    expect((await readClaim(t, w.employee.session, w.claimId)).claim).toMatchObject({ state: 'draft', revision: rev });
  });

  it('an API key is 403 person_required, whatever its permissions', async () => {
    const w = await world();
    const rev = await revisionOf(w.employee.session, w.claimId);
    const byKey = createInProcessClient(t.deps, { token: w.employee.apiKey, idempotencyKey: 'k1', ifMatch: `"${rev}"` });
    expectRefused(await refusal(byKey.expenses.claims.transition({ id: w.claimId, action_key: 'submit' })), 403, 'person_required');
  });

  it('another organization’s claim, or one the caller may not read, is 404', async () => {
    const w = await world();
    const stranger = await createTestOrganization(t.db);
    expectRefused(await refusal(transition(stranger.owner.session, 1, { id: w.claimId, action_key: 'submit' })), 404, 'not_found');
    expectRefused(await refusal(transition(w.pm.session, 1, { id: w.claimId, action_key: 'submit' })), 404, 'not_found');
  });

  it('an action that is not an exit of the state is 409 conflict; return needs a reason (422 at /reason)', async () => {
    const w = await world();
    expectRefused(await refusal(transition(w.employee.session, await revisionOf(w.employee.session, w.claimId), { id: w.claimId, action_key: 'approve' })), 409, 'conflict');
    await decide(t, w.employee.session, w.claimId, 'submit');
    expectRefused(await refusal(transition(w.head.session, await revisionOf(w.head.session, w.claimId), { id: w.claimId, action_key: 'return' })), 422, 'validation', '/reason');
    expectRefused(await refusal(transition(w.head.session, await revisionOf(w.head.session, w.claimId), { id: w.claimId, action_key: 'return', reason: '   ' })), 422, 'validation', '/reason');
  });

  it('a claim with no active line cannot be submitted (409, and the descriptor says so)', async () => {
    const w = await world();
    const empty = await fileTestClaim(t, w.employee);
    const shown = (await readClaim(t, w.employee.session, empty.id)).available_transitions.find((d: any) => d.action_key === 'submit');
    expect(shown.allowed).toBe(false);
    const e = expectRefused(await refusal(transition(w.employee.session, 1, { id: empty.id, action_key: 'submit' })), 409, 'conflict');
    expect(e.detail).toContain('no active line');
  });
});

describe('rounds and the frozen unit', () => {
  it('the unit is frozen at submission; returning ends the round and its signatures no longer count', async () => {
    const w = await world();
    const review = await decide(t, w.employee.session, w.claimId, 'submit');
    expect(review.claim.claimant_unit_name).toBe('Sales');
    // She moves to Marketing the next day: the submitted claim keeps Sales.
    await assignPosition(t.db, { organizationId: w.org.id, memberId: w.employee.id, positionId: w.marketer.id, validFrom: '2026-01-01' });
    expect((await readClaim(t, w.employee.session, w.claimId)).claim.claimant_unit_name).toBe('Sales');

    const finance = await decide(t, w.head.session, w.claimId, 'approve');
    expect(finance.claim.state).toBe('finance');
    const returned = await decide(t, w.pm.session, w.claimId, 'return', 'Attach the receipt, please');
    expect(returned.claim.state).toBe('draft');
    expect(returned.decisions.at(-1)).toMatchObject({ actor_member_id: w.pm.id, from: 'finance', to: 'draft', reason: 'Attach the receipt, please', via: 'grant' });
    // Resubmitted: a new round from review; the head's earlier signature does not carry over, and the
    // unit is now Marketing's (whose unit has no head: the review has nobody and says why).
    const again = await decide(t, w.employee.session, w.claimId, 'submit');
    expect(again.claim).toMatchObject({ state: 'review', claimant_unit_name: 'Marketing' });
    expect(again.signoffs.map((s: any) => [s.signed, s.gap?.reason])).toEqual([[undefined, 'no_unit_head']]);
  });
});

describe('expenses.claims.pay refusals', () => {
  async function approved() {
    const w = await world();
    await decide(t, w.employee.session, w.claimId, 'submit');
    await decide(t, w.head.session, w.claimId, 'approve');
    await decide(t, w.pm.session, w.claimId, 'approve');
    return w;
  }
  const payAs = (session: string, revision: number | undefined, input: object) => callerFor(t, session, revision).expenses.claims.pay(input);

  it('needs expenses.claim.pay (403), a person (403 person_required) and If-Match (428)', async () => {
    const w = await approved();
    const rev = await revisionOf(w.payer.session, w.claimId);
    expectRefused(await refusal(payAs(w.head.session, rev, { id: w.claimId })), 403, 'forbidden');
    const byKey = createInProcessClient(t.deps, { token: w.payer.apiKey, idempotencyKey: 'p1', ifMatch: `"${rev}"` });
    expectRefused(await refusal(byKey.expenses.claims.pay({ id: w.claimId })), 403, 'person_required');
    expectRefused(await refusal(payAs(w.payer.session, undefined, { id: w.claimId })), 428, 'revision_required');
  });

  it('refuses a channel that is not the claimant’s and a bank figure for a line that is not bank-charged (422), leaving the claim approved', async () => {
    const w = await approved();
    const rev = await revisionOf(w.payer.session, w.claimId);
    const payersOwn = await createTestPayoutChannel(t.db, w.org.id, w.payer.id);
    expectRefused(await refusal(payAs(w.payer.session, rev, { id: w.claimId, channel_id: payersOwn.id })), 422, 'validation', '/channel_id');
    const lineId = (await readClaim(t, w.payer.session, w.claimId)).lines[0].id;
    expectRefused(await refusal(payAs(w.payer.session, rev, { id: w.claimId, bank_charged_amounts: [{ line_id: lineId, amount: '25.00' }] })), 422, 'validation', '/bank_charged_amounts/0/line_id');
    expectRefused(await refusal(payAs(w.payer.session, rev, { id: w.claimId, bank_charged_amounts: [{ line_id: lineId, amount: 'abc' }] })), 400, 'invalid_request');
    const after = await readClaim(t, w.payer.session, w.claimId);
    expect(after.claim).toMatchObject({ state: 'approved', revision: rev });
    expect(after.settlements).toEqual([]);
    // The claimant may not pay their own claim (segregation of duties).
    const paid = await payAs(w.payer.session, rev, { id: w.claimId });
    expect(paid.settlements.map((s: any) => s.amount)).toEqual(['25.50']);
  });
});
