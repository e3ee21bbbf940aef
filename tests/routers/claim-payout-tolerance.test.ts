/**
 * Paying a bank-charged line at the bank's figure (DESIGN section 17): the figure must be within the
 * organization's payout tolerance of the approved base amount (claim policy payout_tolerance_percent,
 * default 5), never above or below it by more; beyond it the pay is refused (422 naming the amount)
 * and nothing is paid. Money as exact decimal strings.
 */
import { describe, expect, it } from 'vitest';
import { assignPosition, createOrgUnit, createPosition } from '../../src/services/people/org-chart';
import { fileTestClaim } from '../factories/claim-filing';
import { addClaimLine, createClaimReferenceData, createTestPayoutChannel } from '../factories/claims';
import { decide, insertAssignment, insertGrant, pay, readClaim, retireGrants } from '../factories/approvals';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { callerFor, expectRefused } from '../helpers/settings-calls';

const t = useTestApp();

async function approvedBankChargedClaim() {
  const org = await createTestOrganization(t.db);
  const ref = await createClaimReferenceData(t.db, org.id);
  const member = (role: 'employee' | 'accountant' = 'employee') => createTestMember(t.db, org.id, { role });
  const [employee, head, pm, payer] = [await member(), await member(), await member(), await member('accountant')];
  const dept = await createOrgUnit(t.db, { organizationId: org.id, code: 'DEPT', name: 'Structures' });
  const headPos = await createPosition(t.db, { organizationId: org.id, orgUnitId: dept.id, title: 'Head', isUnitHead: true });
  const engineer = await createPosition(t.db, { organizationId: org.id, orgUnitId: dept.id, title: 'Engineer' });
  await assignPosition(t.db, { organizationId: org.id, memberId: head.id, positionId: headPos.id, validFrom: '2020-01-01' });
  await assignPosition(t.db, { organizationId: org.id, memberId: employee.id, positionId: engineer.id, validFrom: '2020-01-01' });
  await retireGrants(t.db, org.id);
  await insertGrant(t.db, org.id, { kind: 'superior', step: 'review' });
  await insertGrant(t.db, org.id, { kind: 'account_approver', step: 'finance' });
  await insertAssignment(t.db, org.id, { analyticAccountId: ref.zeta.id, memberId: pm.id });
  const channel = await createTestPayoutChannel(t.db, org.id, employee.id);
  const claim = await fileTestClaim(t, employee, { title: 'Parking abroad', payout_channel_id: channel.id });
  // 13.00 SGD, charged by the bank as 45.00 MYR: the approved base amount is 45.00.
  const line = await addClaimLine(t.db, { organizationId: org.id, claimId: claim.id, now: new Date(), type: 'receipt', expenseDate: '2026-01-13', categoryId: ref.travel.id, description: 'Parking', currency: 'SGD', amount: '13.00', bankChargedAmount: '45.00', documentBasis: 'foreign_supplier', supplierCountry: 'SG', shares: [{ analyticAccountId: ref.zeta.id, percentage: '100' }] });
  await decide(t, employee.session, claim.id, 'submit');
  await decide(t, head.session, claim.id, 'approve');
  expect((await decide(t, pm.session, claim.id, 'approve')).claim).toMatchObject({ state: 'approved', total: '45.00' });
  return { org, claim, line, payer };
}

describe('payout tolerance on a bank-charged line', () => {
  it('refuses 45000.00 paid on an approved 45.00 (422 naming the figure), and a figure just beyond 5%; pays one within it', async () => {
    const w = await approvedBankChargedClaim();
    const figure = (amount: string) => ({ bank_charged_amounts: [{ line_id: w.line.id, amount }] });
    const e = await expectRefused(pay(t, w.payer.session, w.claim.id, figure('45000.00')), 422, 'validation', '/bank_charged_amounts/0/amount');
    expect(e.fieldErrors?.[0]?.detail).toContain('payout tolerance of 5%');
    // 5% of 45.00 is 2.25: 47.26 and 42.74 are beyond it, above and below.
    await expectRefused(pay(t, w.payer.session, w.claim.id, figure('47.26')), 422, 'validation', '/bank_charged_amounts/0/amount');
    await expectRefused(pay(t, w.payer.session, w.claim.id, figure('42.74')), 422, 'validation', '/bank_charged_amounts/0/amount');
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
    await expectRefused(policy(1).update({ payout_tolerance_percent: '100.01' }), 422, 'validation', '/payout_tolerance_percent');
    await expectRefused(policy(1).update({ payout_tolerance_percent: '1.234' }), 422, 'validation', '/payout_tolerance_percent');
    await expectRefused(policy(1).update({ payout_tolerance_percent: '-1' }), 422, 'validation', '/payout_tolerance_percent');
    expect(await policy(1).update({ payout_tolerance_percent: '2.50' })).toMatchObject({ payout_tolerance_percent: '2.5', revision: 2 });
    expect(await policy(2).update({ payout_tolerance_percent: '0' })).toMatchObject({ payout_tolerance_percent: '0', revision: 3 });
    await expectRefused(pay(t, w.payer.session, w.claim.id, { bank_charged_amounts: [{ line_id: w.line.id, amount: '45.01' }] }), 422, 'validation', '/bank_charged_amounts/0/amount');
    const paid = await pay(t, w.payer.session, w.claim.id, { bank_charged_amounts: [{ line_id: w.line.id, amount: '45.00' }] });
    expect(paid.settlements.map((s: any) => s.amount)).toEqual(['45.00']);
  });
});
