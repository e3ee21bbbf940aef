/**
 * Paying a bank-charged line at the bank's figure: the figure must be within the organization's
 * payout tolerance of the approved base amount (claim policy payout_tolerance_percent, default 5),
 * never above or below it by more; beyond it the pay is refused (422 naming the amount and pointing
 * to refer_difference) and nothing is paid. Above it, the payer refers the figure for approval of the
 * difference: the claim waits in `difference` for each account's approvers whose band covers their
 * part of the difference, then is approved again at the bank figure and paid at it; declined, it is
 * approved at the amount approved before. Money as exact decimal strings.
 */
import { describe, expect, it } from 'vitest';
import { assignPosition, createOrgUnit, createPosition } from '../factories/setup';
import { fileTestClaim } from '../factories/claim-filing';
import { addClaimLine, createClaimReferenceData, createTestPayoutChannel } from '../factories/claims';
import { decide, insertAssignment, insertGrant, pay, readClaim, referDifference, retireGrants } from '../factories/approvals';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { callerFor, expectRefused, refusal } from '../helpers/settings';

const t = useTestApp();

async function approvedBankChargedClaim() {
  const org = await createTestOrganization(t.db);
  const ref = await createClaimReferenceData(t.db, org.id);
  const member = (role: 'employee' | 'accountant' = 'employee') => createTestMember(t.db, org.id, { role });
  const [employee, head, pm, cfo, payer] = [await member(), await member(), await member(), await member(), await member('accountant')];
  const dept = await createOrgUnit(t.db, { organizationId: org.id, code: 'DEPT', name: 'Structures' });
  const headPos = await createPosition(t.db, { organizationId: org.id, orgUnitId: dept.id, title: 'Head', isUnitHead: true });
  const engineer = await createPosition(t.db, { organizationId: org.id, orgUnitId: dept.id, title: 'Engineer' });
  await assignPosition(t.db, { organizationId: org.id, memberId: head.id, positionId: headPos.id, validFrom: '2020-01-01' });
  await assignPosition(t.db, { organizationId: org.id, memberId: employee.id, positionId: engineer.id, validFrom: '2020-01-01' });
  await retireGrants(t.db, org.id);
  await insertGrant(t.db, org.id, { kind: 'superior', step: 'review' });
  await insertGrant(t.db, org.id, { kind: 'account_approver', step: 'finance' });
  // The project manager approves up to 1,000.00 on the project, the CFO any amount; the claimant is an approver there too.
  await insertAssignment(t.db, org.id, { analyticAccountId: ref.zeta.id, memberId: pm.id, maxAmount: '1000.00' });
  await insertAssignment(t.db, org.id, { analyticAccountId: ref.zeta.id, memberId: cfo.id });
  await insertAssignment(t.db, org.id, { analyticAccountId: ref.zeta.id, memberId: employee.id });
  const channel = await createTestPayoutChannel(t.db, org.id, employee.id);
  const claim = await fileTestClaim(t, employee, { title: 'Parking abroad', payout_channel_id: channel.id });
  // 13.00 SGD, charged by the bank as 45.00 MYR: the approved base amount is 45.00.
  const line = await addClaimLine(t.db, { organizationId: org.id, claimId: claim.id, now: new Date(), type: 'receipt', expenseDate: '2026-01-13', categoryId: ref.travel.id, description: 'Parking', currency: 'SGD', amount: '13.00', bankChargedAmount: '45.00', documentBasis: 'foreign_supplier', supplierCountry: 'SG', shares: [{ analyticAccountId: ref.zeta.id, percentage: '100' }] });
  await decide(t, employee.session, claim.id, 'submit');
  await decide(t, head.session, claim.id, 'approve');
  expect((await decide(t, pm.session, claim.id, 'approve')).claim).toMatchObject({ state: 'approved', total: '45.00' });
  return { org, ref, claim, line, employee, pm, cfo, payer, channel };
}

describe('payout tolerance on a bank-charged line', () => {
  it('refuses 45000.00 paid on an approved 45.00 (422 naming the figure), and a figure just beyond 5%; pays one within it', async () => {
    const w = await approvedBankChargedClaim();
    const figure = (amount: string) => ({ bank_charged_amounts: [{ line_id: w.line.id, amount }] });
    const e = expectRefused(await refusal(pay(t, w.payer.session, w.claim.id, figure('45000.00'))), 422, 'validation', '/bank_charged_amounts/0/amount');
    expect(e.fieldErrors?.[0]?.detail).toContain('payout tolerance of 5%');
    expect(e.fieldErrors?.[0]?.detail).toContain('refer it with the action refer_difference (expenses.claims.referDifference)');
    // 5% of 45.00 is 2.25: 47.26 and 42.74 are beyond it, above and below.
    expectRefused(await refusal(pay(t, w.payer.session, w.claim.id, figure('47.26'))), 422, 'validation', '/bank_charged_amounts/0/amount');
    expectRefused(await refusal(pay(t, w.payer.session, w.claim.id, figure('42.74'))), 422, 'validation', '/bank_charged_amounts/0/amount');
    const still = await readClaim(t, w.payer.session, w.claim.id);
    expect(still.claim.state).toBe('approved');
    expect(still.settlements).toEqual([]);
    const paid = await pay(t, w.payer.session, w.claim.id, figure('47.25'));
    expect(paid.claim.state).toBe('paid');
    expect(paid.settlements.map((s: any) => s.amount)).toEqual(['47.25']);
  });

  it('the organization sets the tolerance (claim policy, 0 to 100 with 2 places); at 0 only the approved figure is paid', async () => {
    const w = await approvedBankChargedClaim();
    const policy = (rev: number) => callerFor(t, w.org.owner.session, rev).settings.claimPolicy;
    expect((await policy(1).get()).payout_tolerance_percent).toBe('5');
    expectRefused(await refusal(policy(1).update({ payout_tolerance_percent: '100.01' })), 422, 'validation', '/payout_tolerance_percent');
    expectRefused(await refusal(policy(1).update({ payout_tolerance_percent: '1.234' })), 422, 'validation', '/payout_tolerance_percent');
    expectRefused(await refusal(policy(1).update({ payout_tolerance_percent: '-1' })), 422, 'validation', '/payout_tolerance_percent');
    expect(await policy(1).update({ payout_tolerance_percent: '2.50' })).toMatchObject({ payout_tolerance_percent: '2.5', revision: 2 });
    expect(await policy(2).update({ payout_tolerance_percent: '0' })).toMatchObject({ payout_tolerance_percent: '0', revision: 3 });
    expectRefused(await refusal(pay(t, w.payer.session, w.claim.id, { bank_charged_amounts: [{ line_id: w.line.id, amount: '45.01' }] })), 422, 'validation', '/bank_charged_amounts/0/amount');
    const paid = await pay(t, w.payer.session, w.claim.id, { bank_charged_amounts: [{ line_id: w.line.id, amount: '45.00' }] });
    expect(paid.settlements.map((s: any) => s.amount)).toEqual(['45.00']);
  });
});

describe('a bank difference beyond the tolerance, referred for approval', () => {
  const figure = (w: { line: { id: string } }, amount: string) => ({ bank_charged_amounts: [{ line_id: w.line.id, amount }] });
  const refer = (w: Awaited<ReturnType<typeof approvedBankChargedClaim>>, amount: string, session = w.payer.session) =>
    referDifference(t, session, w.claim.id, { reason: 'The bank statement shows 45,000.00', ...figure(w, amount) });
  const edge = (answer: any, key: string) => answer.available_transitions.find((d: any) => d.action_key === key);

  it('is offered to the payer only: the claimant and an approver without pay permission cannot refer', async () => {
    const w = await approvedBankChargedClaim();
    expect(edge(await readClaim(t, w.payer.session, w.claim.id), 'refer_difference')).toMatchObject({ allowed: true, requires_reason: true, to: 'difference', gate: 'source' });
    expect(edge(await readClaim(t, w.employee.session, w.claim.id), 'refer_difference')).toMatchObject({ allowed: false });
    expect(edge(await readClaim(t, w.cfo.session, w.claim.id), 'refer_difference')).toMatchObject({ allowed: false });
    expectRefused(await refusal(refer(w, '45000.00', w.cfo.session)), 403, 'forbidden');
    expectRefused(await refusal(refer(w, '45000.00', w.employee.session)), 403, 'forbidden');
    expectRefused(await refusal(decide(t, w.cfo.session, w.claim.id, 'refer_difference', 'Bank figure')), 403, 'forbidden');
    expect((await readClaim(t, w.payer.session, w.claim.id)).claim).toMatchObject({ state: 'approved', total: '45.00' });
  });

  it('is not offered on an approved claim without a bank-charged line (409 when taken)', async () => {
    const org = await createTestOrganization(t.db);
    const ref = await createClaimReferenceData(t.db, org.id);
    const [employee, approver, payer] = [await createTestMember(t.db, org.id, { role: 'employee' }), await createTestMember(t.db, org.id, { role: 'employee' }), await createTestMember(t.db, org.id, { role: 'accountant' })];
    await retireGrants(t.db, org.id);
    await insertGrant(t.db, org.id, { kind: 'default', step: 'review', holderMemberId: approver.id });
    await insertGrant(t.db, org.id, { kind: 'account_approver', step: 'finance' });
    await insertAssignment(t.db, org.id, { analyticAccountId: ref.zeta.id, memberId: approver.id });
    const channel = await createTestPayoutChannel(t.db, org.id, employee.id);
    const claim = await fileTestClaim(t, employee, { title: 'Taxi', payout_channel_id: channel.id });
    const line = await addClaimLine(t.db, { organizationId: org.id, claimId: claim.id, now: new Date(), type: 'receipt', expenseDate: '2026-01-13', categoryId: ref.travel.id, description: 'Taxi', currency: 'MYR', amount: '45.00', documentBasis: 'relaxation_receipt', relaxationReason: 'Street taxi', shares: [{ analyticAccountId: ref.zeta.id, percentage: '100' }] });
    await decide(t, employee.session, claim.id, 'submit');
    await decide(t, approver.session, claim.id, 'approve');
    expect((await decide(t, approver.session, claim.id, 'approve')).claim.state).toBe('approved');
    expect(edge(await readClaim(t, payer.session, claim.id), 'refer_difference')).toMatchObject({ allowed: false });
    const e = expectRefused(await refusal(referDifference(t, payer.session, claim.id, { reason: 'Bank', bank_charged_amounts: [{ line_id: line.id, amount: '90.00' }] })), 409, 'conflict');
    expect(e.detail).toContain('no active bank-charged line');
  });

  it('refuses what there is nothing to approve for: no figures, no reason, a figure not above the approved amount, figures all within the tolerance', async () => {
    const w = await approvedBankChargedClaim();
    expectRefused(await refusal(referDifference(t, w.payer.session, w.claim.id, { reason: 'Bank' })), 422, 'validation', '/bank_charged_amounts');
    expectRefused(await refusal(decide(t, w.payer.session, w.claim.id, 'refer_difference', 'Bank')), 422, 'validation', '/bank_charged_amounts');
    expectRefused(await refusal(referDifference(t, w.payer.session, w.claim.id, figure(w, '45000.00'))), 422, 'validation', '/reason');
    expectRefused(await refusal(refer(w, '45.00')), 422, 'validation', '/bank_charged_amounts/0/amount');
    expectRefused(await refusal(refer(w, '40.00')), 422, 'validation', '/bank_charged_amounts/0/amount');
    const within = expectRefused(await refusal(refer(w, '47.25')), 422, 'validation', '/bank_charged_amounts');
    expect(within.fieldErrors?.[0]?.detail).toContain('within the payout tolerance of 5%');
    const still = await readClaim(t, w.payer.session, w.claim.id);
    expect(still.claim).toMatchObject({ state: 'approved', revision: 5 });
    expect(still.signoffs).toEqual([]);
  });

  it('asks the approvers whose band covers the difference; the claimant and a narrower band cannot sign; signed, the claim is approved at the bank figure and pays it', async () => {
    const w = await approvedBankChargedClaim();
    const referred = await refer(w, '45000.00');
    expect(referred.claim).toMatchObject({ state: 'difference', semantic: 'pending', total: '45.00' });
    // One sign-off on the project for the difference 45,000.00 − 45.00; only the CFO's band covers it.
    expect(referred.signoffs).toEqual([
      expect.objectContaining({ state: 'difference', account_code: 'P-ZETA', amount: '44955.00', currency: 'MYR', eligible: [w.cfo.id] }),
    ]);
    expect(referred.signoffs[0].signed).toBeUndefined();
    expect(referred.decisions.at(-1)).toMatchObject({ from: 'approved', to: 'difference', reason: 'The bank statement shows 45,000.00', actor_member_id: w.payer.id });
    expect(edge(referred, 'pay')).toBeUndefined();
    expectRefused(await refusal(pay(t, w.payer.session, w.claim.id, figure(w, '45000.00'))), 409, 'conflict');

    const asPm = await readClaim(t, w.pm.session, w.claim.id);
    expect(edge(asPm, 'approve')).toMatchObject({ allowed: false, refusal: { code: 'not_in_band' } });
    expectRefused(await refusal(decide(t, w.pm.session, w.claim.id, 'approve')), 403, 'transition_refused');
    const asClaimant = await readClaim(t, w.employee.session, w.claim.id);
    expect(edge(asClaimant, 'approve')).toMatchObject({ allowed: false, refusal: { code: 'self_approval' } });
    expectRefused(await refusal(decide(t, w.employee.session, w.claim.id, 'approve')), 403, 'transition_refused');
    expectRefused(await refusal(decide(t, w.employee.session, w.claim.id, 'decline_difference', 'No')), 403, 'forbidden');
    // The difference is the CFO's to act on (their share: the difference), not the project manager's.
    const toAct = async (session: string) => (await callerFor(t, session).expenses.claims.list({ scope: 'to_act' })).claims.map((c: any) => [c.id, c.your_share]);
    expect(await toAct(w.cfo.session)).toEqual([[w.claim.id, '44955.00']]);
    expect(await toAct(w.pm.session)).toEqual([]);
    const asCfo = await readClaim(t, w.cfo.session, w.claim.id);
    expect(edge(asCfo, 'approve')).toMatchObject({ allowed: true, to: 'approved', signs: [expect.objectContaining({ amount: '44955.00', account_code: 'P-ZETA' })] });
    expect(edge(asCfo, 'decline_difference')).toMatchObject({ allowed: true, requires_reason: true });

    const approved = await decide(t, w.cfo.session, w.claim.id, 'approve');
    expect(approved.claim).toMatchObject({ state: 'approved', total: '45000.00' });
    expect(approved.lines[0]).toMatchObject({ base_amount: '45000.00', amount: '13.00', reimbursement_basis: 'bank_charged' });
    expect(approved.decisions.at(-1)).toMatchObject({ from: 'difference', to: 'approved', actor_member_id: w.cfo.id, via: 'grant' });
    expect(approved.signoffs).toEqual([]);

    // Paid at the approved bank figure, within the tolerance of it now; 5% of 45,000.00 is 2,250.00.
    expectRefused(await refusal(pay(t, w.payer.session, w.claim.id, figure(w, '47250.01'))), 422, 'validation', '/bank_charged_amounts/0/amount');
    const paid = await pay(t, w.payer.session, w.claim.id, figure(w, '45000.00'));
    expect(paid.claim.state).toBe('paid');
    expect(paid.settlements.map((s: any) => [s.amount, s.currency, s.settled_by])).toEqual([['45000.00', 'MYR', w.payer.id]]);
  });

  it('declined, the claim is approved at the amount approved before and the bank figure is refused again', async () => {
    const w = await approvedBankChargedClaim();
    await refer(w, '45000.00');
    expectRefused(await refusal(decide(t, w.cfo.session, w.claim.id, 'decline_difference')), 422, 'validation', '/reason');
    const declined = await decide(t, w.cfo.session, w.claim.id, 'decline_difference', 'The statement is for another card');
    expect(declined.claim).toMatchObject({ state: 'approved', total: '45.00' });
    expect(declined.lines[0]).toMatchObject({ base_amount: '45.00' });
    expect(declined.decisions.at(-1)).toMatchObject({ from: 'difference', to: 'approved', reason: 'The statement is for another card', actor_member_id: w.cfo.id });
    expectRefused(await refusal(pay(t, w.payer.session, w.claim.id, figure(w, '45000.00'))), 422, 'validation', '/bank_charged_amounts/0/amount');
    // Referred again, it is a new round with a new sign-off.
    const again = await refer(w, '900.00');
    // (Both approvers' bands cover it; the list's order is not part of the answer.)
    expect(again.signoffs).toEqual([expect.objectContaining({ amount: '855.00' })]);
    expect([...again.signoffs[0].eligible].sort()).toEqual([w.pm.id, w.cfo.id].sort());
    expect((await decide(t, w.pm.session, w.claim.id, 'approve')).claim).toMatchObject({ state: 'approved', total: '900.00' });
    const paid = await pay(t, w.payer.session, w.claim.id);
    expect(paid.settlements.map((s: any) => s.amount)).toEqual(['900.00']);
  });

  it('two referrals on the same revision at once: one is taken, the other refused as stale; one round of sign-offs', async () => {
    const w = await approvedBankChargedClaim();
    const revision = (await readClaim(t, w.payer.session, w.claim.id)).claim.revision;
    const body = { id: w.claim.id, reason: 'Bank statement', ...figure(w, '45000.00') };
    const results = await Promise.allSettled([0, 1].map(() => callerFor(t, w.payer.session, revision).expenses.claims.referDifference(body)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expectRefused(await refusal(Promise.reject(failed.reason)), 409, 'revision_mismatch');
    const now = await readClaim(t, w.cfo.session, w.claim.id);
    expect(now.claim).toMatchObject({ state: 'difference', revision: revision + 1 });
    expect(now.signoffs.map((s: any) => s.amount)).toEqual(['44955.00']);
  });
});
