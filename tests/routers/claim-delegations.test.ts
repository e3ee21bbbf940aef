/**
 * Delegation and the sole-owner rule on claims (docs/design.md §11 and §17): a delegate signs on the
 * delegator's authority (`via: delegation`, `authority_member_id` the delegator) only within the
 * dated period and the delegated scope; a delegate who is the claimant may not; no re-delegation.
 * A sole owner has no exception on their own claim unless the organization turns it on.
 */
import { describe, expect, it } from 'vitest';
import { assignPosition, createOrgUnit, createPosition } from '../factories/setup';
import { decide, insertAssignment, insertDelegation, insertGrant, readClaim, retireGrants, setClaimPolicy } from '../factories/approvals';
import { fileTestClaim } from '../factories/claim-filing';
import { addClaimLine, createClaimReferenceData } from '../factories/claims';
import { createTestMember, createTestOrganization, type TestMember } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { refusal } from '../helpers/settings';
import { todayIn } from '../../src/lib/dates';

const t = useTestApp();

async function world() {
  const org = await createTestOrganization(t.db);
  const ref = await createClaimReferenceData(t.db, org.id);
  const m = () => createTestMember(t.db, org.id, { role: 'employee' });
  const [employee, head, pm, delegate, second] = [await m(), await m(), await m(), await m(), await m()];
  const dept = await createOrgUnit(t.db, { organizationId: org.id, code: 'OPS', name: 'Operations' });
  const headPos = await createPosition(t.db, { organizationId: org.id, orgUnitId: dept.id, title: 'Head', isUnitHead: true });
  const clerk = await createPosition(t.db, { organizationId: org.id, orgUnitId: dept.id, title: 'Clerk' });
  await assignPosition(t.db, { organizationId: org.id, memberId: head.id, positionId: headPos.id, validFrom: '2020-01-01' });
  await assignPosition(t.db, { organizationId: org.id, memberId: employee.id, positionId: clerk.id, validFrom: '2020-01-01' });
  await retireGrants(t.db, org.id);
  const superior = await insertGrant(t.db, org.id, { kind: 'superior', step: 'review' });
  await insertGrant(t.db, org.id, { kind: 'account_approver', step: 'finance' });
  await insertAssignment(t.db, org.id, { analyticAccountId: ref.zeta.id, memberId: pm.id });
  return { org, ref, employee, head, pm, delegate, second, superior };
}
type World = Awaited<ReturnType<typeof world>>;

async function submitted(w: World, claimant: TestMember, amount = '120.00') {
  const claim = await fileTestClaim(t, claimant);
  await addClaimLine(t.db, { organizationId: w.org.id, claimId: claim.id, now: new Date(), type: 'receipt', expenseDate: '2026-01-10', categoryId: w.ref.meals.id, description: 'Taxi', amount, documentBasis: 'relaxation_receipt', relaxationReason: 'Meter', shares: [{ analyticAccountId: w.ref.zeta.id, percentage: '100' }] });
  return decide(t, claimant.session, claim.id, 'submit');
}

/** The organization's today and the day `days` from it (Asia/Kuala_Lumpur, the default time zone). */
const shift = (days: number) => todayIn('Asia/Kuala_Lumpur', new Date(Date.now() + days * 86_400_000));
const today = () => shift(0);
const approveOf = (answer: any) => answer.available_transitions.find((d: any) => d.action_key === 'approve');

describe('delegation', () => {
  it('the delegate signs on the delegator’s authority, logged via delegation', async () => {
    const w = await world();
    await insertDelegation(t.db, w.org.id, { delegatorMemberId: w.head.id, delegateMemberId: w.delegate.id, validFrom: shift(-1), validTo: shift(10) });
    const answer = await submitted(w, w.employee);
    // eligible names the delegate beside the delegator; the delegate may read the claim and sign it.
    expect(answer.signoffs[0].eligible).toEqual([w.head.id, w.delegate.id]);
    expect(approveOf(await readClaim(t, w.delegate.session, answer.claim.id))).toMatchObject({ allowed: true, signs: [{ amount: '120.00', authority_member_id: w.head.id, via: 'delegation' }] });
    // The delegator's own descriptor names their own authority.
    expect(approveOf(await readClaim(t, w.head.session, answer.claim.id))).toMatchObject({ allowed: true, signs: [{ amount: '120.00', authority_member_id: w.head.id, via: 'grant' }] });
    const signed = await decide(t, w.delegate.session, answer.claim.id, 'approve');
    expect(signed.claim.state).toBe('finance');
    expect(signed.decisions.at(-1)).toMatchObject({ actor_member_id: w.delegate.id, authority_member_id: w.head.id, via: 'delegation', from: 'review', to: 'finance' });
    // The review sign-off kept its signature (finance shows its own step now): read it from the decision log above.
  });

  it('outside the dated period the delegate may not sign', async () => {
    const w = await world();
    await insertDelegation(t.db, w.org.id, { delegatorMemberId: w.head.id, delegateMemberId: w.delegate.id, validFrom: shift(5), validTo: shift(20) });
    const answer = await submitted(w, w.employee);
    expect(answer.signoffs[0].eligible).toEqual([w.head.id]);
    expect((await refusal(decide(t, w.delegate.session, answer.claim.id, 'approve'))).status).toBe(404);
  });

  it('a delegate who is the claimant may not sign their own claim: self_approval', async () => {
    const w = await world();
    await insertDelegation(t.db, w.org.id, { delegatorMemberId: w.head.id, delegateMemberId: w.employee.id, validFrom: today(), validTo: shift(3) });
    const answer = await submitted(w, w.employee);
    expect(approveOf(answer)).toMatchObject({ allowed: false, refusal: { code: 'self_approval' } });
    const e: any = await refusal(decide(t, w.employee.session, answer.claim.id, 'approve'));
    expect({ status: e.status, code: e.extensions?.refusal?.code }).toEqual({ status: 403, code: 'self_approval' });
  });

  it('no re-delegation: the delegate’s own delegate gets nothing', async () => {
    const w = await world();
    await insertDelegation(t.db, w.org.id, { delegatorMemberId: w.head.id, delegateMemberId: w.delegate.id, validFrom: today(), validTo: shift(3) });
    await insertDelegation(t.db, w.org.id, { delegatorMemberId: w.delegate.id, delegateMemberId: w.second.id, validFrom: today(), validTo: shift(3) });
    const answer = await submitted(w, w.employee);
    expect(answer.signoffs[0].eligible).toEqual([w.head.id, w.delegate.id]);
    expect((await refusal(decide(t, w.second.session, answer.claim.id, 'approve'))).status).toBe(404);
  });

  it('a delegation of one analytic account covers only that account’s shares', async () => {
    const w = await world();
    const answer = await submitted(w, w.employee);
    const finance = await decide(t, w.head.session, answer.claim.id, 'approve');
    await insertDelegation(t.db, w.org.id, { delegatorMemberId: w.pm.id, delegateMemberId: w.delegate.id, validFrom: today(), validTo: shift(3), scope: 'analytic_account', analyticAccountId: w.ref.alpha.id });
    expect((await refusal(decide(t, w.delegate.session, finance.claim.id, 'approve'))).status).toBe(404);
    await insertDelegation(t.db, w.org.id, { delegatorMemberId: w.pm.id, delegateMemberId: w.second.id, validFrom: today(), validTo: shift(3), scope: 'analytic_account', analyticAccountId: w.ref.zeta.id });
    const approved = await decide(t, w.second.session, finance.claim.id, 'approve');
    expect(approved.claim.state).toBe('approved');
    expect(approved.decisions.at(-1)).toMatchObject({ via: 'delegation', authority_member_id: w.pm.id, actor_member_id: w.second.id });
  });
});

describe('the sole owner on their own claim', () => {
  async function soleOwnerClaim() {
    const org = await createTestOrganization(t.db);
    const ref = await createClaimReferenceData(t.db, org.id);
    const claim = await fileTestClaim(t, org.owner);
    await addClaimLine(t.db, { organizationId: org.id, claimId: claim.id, now: new Date(), type: 'receipt', expenseDate: '2026-01-10', categoryId: ref.meals.id, description: 'Parking', amount: '8.00', documentBasis: 'relaxation_receipt', relaxationReason: 'Machine', shares: [{ analyticAccountId: ref.zeta.id, percentage: '100' }] });
    return { org, claim: await decide(t, org.owner.session, claim.id, 'submit') };
  }

  it('has no exception by default: approve is self_approval, without requires_reason', async () => {
    const { claim } = await soleOwnerClaim();
    const approve = approveOf(claim);
    expect(approve).toMatchObject({ allowed: false, requires_reason: false, refusal: { code: 'self_approval' } });
    expect(approve.sole_owner_exception).toBeUndefined();
  });

  it('with the exception turned on: allowed with a reason, logged via sole_owner_exception', async () => {
    const { org, claim } = await soleOwnerClaim();
    await setClaimPolicy(t.db, org.id, { soleOwnerException: true });
    const approve = approveOf(await readClaim(t, org.owner.session, claim.claim.id));
    expect(approve).toMatchObject({ allowed: true, requires_reason: true, sole_owner_exception: true });
    const e: any = await refusal(decide(t, org.owner.session, claim.claim.id, 'approve', ' '));
    expect(e.appCode).toBe('sole_owner_reason_required');
    const signed = await decide(t, org.owner.session, claim.claim.id, 'approve', 'Sole director; no one else can approve');
    expect(signed.decisions.at(-1)).toMatchObject({ via: 'sole_owner_exception', from: 'review', to: 'finance', reason: 'Sole director; no one else can approve' });
  });
});
