/**
 * The approval engine through the claim's decisions (docs/design.md §11 and §17): the superior signs in
 * review, each project's approver signs its share in finance, a share over the approver's band goes
 * to the fallback, the claim moves once the last share is signed and is paid; what each person is
 * shown (available_transitions, signoffs) is what each act does.
 */
import { describe, expect, it } from 'vitest';
import { assignPosition, createOrgUnit, createPosition } from '../factories/setup';
import { createAnalyticAccount } from '../factories/setup';
import { fileTestClaim } from '../factories/claim-filing';
import { addClaimLine, createClaimReferenceData, createTestPayoutChannel } from '../factories/claims';
import { decide, insertAssignment, insertGrant, pay, readClaim, retireGrants } from '../factories/approvals';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { expectRefused, refusal } from '../helpers/settings';

const t = useTestApp();

async function world() {
  const org = await createTestOrganization(t.db);
  const ref = await createClaimReferenceData(t.db, org.id);
  const member = (role: 'employee' | 'accountant' = 'employee') => createTestMember(t.db, org.id, { role });
  const [employee, head, pm1, pm2, controller, payer] = [await member(), await member(), await member(), await member(), await member('accountant'), await member('accountant')];
  const division = await createOrgUnit(t.db, { organizationId: org.id, code: 'DIV', name: 'Engineering Division' });
  const dept = await createOrgUnit(t.db, { organizationId: org.id, code: 'DEPT-A', name: 'Structures', parentId: division.id });
  const headPos = await createPosition(t.db, { organizationId: org.id, orgUnitId: dept.id, title: 'Head of Structures', isUnitHead: true });
  const engineer = await createPosition(t.db, { organizationId: org.id, orgUnitId: dept.id, title: 'Engineer' });
  await assignPosition(t.db, { organizationId: org.id, memberId: head.id, positionId: headPos.id, validFrom: '2020-01-01' });
  await assignPosition(t.db, { organizationId: org.id, memberId: employee.id, positionId: engineer.id, validFrom: '2020-01-01' });

  await retireGrants(t.db, org.id);
  const fc = await insertGrant(t.db, org.id, { name: 'Finance controller', kind: 'default', step: 'finance', holderMemberId: controller.id });
  await insertGrant(t.db, org.id, { name: 'Line manager', kind: 'superior', step: 'review' });
  await insertGrant(t.db, org.id, { name: 'Project approvers', kind: 'account_approver', step: 'finance', fallbackGrantId: fc.id });
  const a1 = await insertAssignment(t.db, org.id, { analyticAccountId: ref.zeta.id, memberId: pm1.id, maxAmount: '1000' });
  const a2 = await insertAssignment(t.db, org.id, { analyticAccountId: ref.alpha.id, memberId: pm2.id });
  const channel = await createTestPayoutChannel(t.db, org.id, employee.id);
  return { org, ref, employee, head, pm1, pm2, controller, payer, fc, a1, a2, channel, dept };
}

describe('a claim through review, finance and payout', () => {
  it('the superior signs, each project approver signs their share, the share over a band goes to the fallback', async () => {
    const w = await world();
    const claim = await fileTestClaim(t, w.employee, { title: 'Site visits', payout_channel_id: w.channel.id });
    const now = new Date();
    await addClaimLine(t.db, { organizationId: w.org.id, claimId: claim.id, now, type: 'receipt', expenseDate: '2026-01-10', categoryId: w.ref.meals.id, description: 'Lunch', amount: '300.00', documentBasis: 'relaxation_receipt', relaxationReason: 'Stall', shares: [{ analyticAccountId: w.ref.zeta.id, percentage: '100' }] });
    await addClaimLine(t.db, { organizationId: w.org.id, claimId: claim.id, now, type: 'receipt', expenseDate: '2026-01-11', categoryId: w.ref.travel.id, description: 'Flight', amount: '1500.01', documentBasis: 'relaxation_receipt', relaxationReason: 'Airline', shares: [{ analyticAccountId: w.ref.zeta.id, percentage: '50' }, { analyticAccountId: w.ref.alpha.id, percentage: '50' }] });

    const review = await decide(t, w.employee.session, claim.id, 'submit');
    expect(review.claim).toMatchObject({ state: 'review', semantic: 'pending', total: '1800.01', claimant_unit_name: 'Structures' });
    expect(review.signoffs.map((s: any) => [s.account_code, s.amount, s.eligible, s.state])).toEqual([
      ['P-ALPHA', '750.00', [w.head.id], 'review'],
      ['P-ZETA', '1050.01', [w.head.id], 'review'],
    ]);
    // The claimant is shown approve refused as self-approval, and the act says the same.
    expect(review.available_transitions.find((d: any) => d.action_key === 'approve')).toMatchObject({ allowed: false, refusal: { code: 'self_approval' } });
    expectRefused(await refusal(decide(t, w.employee.session, claim.id, 'approve')), 403, 'transition_refused');

    const asHead = await readClaim(t, w.head.session, claim.id);
    const approve = asHead.available_transitions.find((d: any) => d.action_key === 'approve');
    expect(approve).toMatchObject({ allowed: true, to: 'finance' });
    expect(approve.signs.map((s: any) => [s.account_code, s.amount])).toEqual([['P-ALPHA', '750.00'], ['P-ZETA', '1050.01']]);
    const finance = await decide(t, w.head.session, claim.id, 'approve');
    expect(finance.claim.state).toBe('finance');
    expect(finance.signoffs.map((s: any) => [s.account_code, s.amount, s.eligible, s.gap?.reason])).toEqual([
      ['P-ALPHA', '750.00', [w.pm2.id], undefined],
      ['P-ZETA', '1050.01', [w.controller.id], 'no_band_covers_amount'],
    ]);

    const asPm1 = await readClaim(t, w.pm1.session, claim.id);
    expect(asPm1.available_transitions.find((d: any) => d.action_key === 'approve')).toMatchObject({ allowed: false, refusal: { code: 'not_in_band' } });
    expectRefused(await refusal(decide(t, w.pm1.session, claim.id, 'approve')), 403, 'transition_refused');

    const afterPm2 = await decide(t, w.pm2.session, claim.id, 'approve');
    expect(afterPm2.claim.state).toBe('finance');
    expect(afterPm2.decisions.at(-1)).toMatchObject({ from: 'finance', to: 'finance', via: 'grant', actor_member_id: w.pm2.id });
    const again = await readClaim(t, w.pm2.session, claim.id);
    expect(again.available_transitions.find((d: any) => d.action_key === 'approve')).toMatchObject({ allowed: false, refusal: { code: 'already_signed' } });

    const approved = await decide(t, w.controller.session, claim.id, 'approve');
    expect(approved.claim.state).toBe('approved');
    expect(approved.decisions.at(-1)).toMatchObject({ from: 'finance', to: 'approved', via: 'escalation', actor_member_id: w.controller.id, authority_member_id: w.controller.id });

    const paid = await pay(t, w.payer.session, claim.id);
    expect(paid.claim.state).toBe('paid');
    expect(paid.settlements.map((s: any) => [s.amount, s.channel_id])).toEqual([['1800.01', w.channel.id]]);
  });

  it('money to the sen: original_total in one foreign currency, shares by largest remainder, a bank-charged line paid at the bank figure', async () => {
    const w = await world();
    const third = await createAnalyticAccount(t.db, w.org.id, { axisId: w.ref.projects.id, code: 'P-OMEGA', name: 'Omega Depot' });
    const claim = await fileTestClaim(t, w.employee, { title: 'Singapore trip', payout_channel_id: w.channel.id });
    const now = new Date();
    const thirds = [
      { analyticAccountId: w.ref.alpha.id, percentage: '33.3333333333' },
      { analyticAccountId: third.id, percentage: '33.3333333333' },
      { analyticAccountId: w.ref.zeta.id, percentage: '33.3333333334' },
    ];
    // 100.00 SGD at 3.4567 = 345.67; 200.00 SGD charged by the bank as 693.18 MYR.
    await addClaimLine(t.db, { organizationId: w.org.id, claimId: claim.id, now, type: 'receipt', expenseDate: '2026-01-12', categoryId: w.ref.meals.id, description: 'Dinner', currency: 'SGD', amount: '100.00', fxRate: '3.4567', documentBasis: 'foreign_supplier', supplierCountry: 'SG', shares: thirds });
    const bankLine = await addClaimLine(t.db, { organizationId: w.org.id, claimId: claim.id, now, type: 'receipt', expenseDate: '2026-01-13', categoryId: w.ref.travel.id, description: 'Hotel', currency: 'SGD', amount: '200.00', bankChargedAmount: '693.18', documentBasis: 'foreign_supplier', supplierCountry: 'SG', shares: [{ analyticAccountId: w.ref.zeta.id, percentage: '100' }] });
    expect(bankLine).toMatchObject({ base_amount: '693.18', fx_rate: '3.4659', fx_rate_source: 'bank_statement', reimbursement_basis: 'bank_charged' });

    const review = await decide(t, w.employee.session, claim.id, 'submit');
    expect(review.claim).toMatchObject({ total: '1038.85', original_currency: 'SGD', original_total: '300.00', multiple_currencies: false });
    // 345.67 in thirds: 115.22333… each; the sen left over goes to the largest remainder (Zeta's 0.3333334).
    expect(review.signoffs.map((s: any) => [s.account_code, s.amount])).toEqual([
      ['P-ALPHA', '115.22'],
      ['P-OMEGA', '115.22'],
      ['P-ZETA', '808.41'],
    ]);
    expect(review.signoffs.reduce((sum: number, s: any) => sum + Math.round(Number(s.amount) * 100), 0)).toBe(103885);

    await decide(t, w.head.session, claim.id, 'approve');
    await insertAssignment(t.db, w.org.id, { analyticAccountId: third.id, memberId: w.pm2.id });
    // Omega's assignment came after finance opened: the fallback (the controller) holds that share.
    let finance = await readClaim(t, w.controller.session, claim.id);
    expect(finance.signoffs.map((s: any) => [s.account_code, s.amount, s.gap?.reason])).toEqual([
      ['P-ALPHA', '115.22', undefined],
      ['P-OMEGA', '115.22', 'no_account_approver'],
      ['P-ZETA', '808.41', undefined],
    ]);
    expect(finance.available_transitions.find((d: any) => d.action_key === 'approve').signs.map((s: any) => [s.account_code, s.amount])).toEqual([['P-OMEGA', '115.22']]);
    await decide(t, w.pm2.session, claim.id, 'approve');
    await decide(t, w.pm1.session, claim.id, 'approve');
    finance = await decide(t, w.controller.session, claim.id, 'approve');
    expect(finance.claim.state).toBe('approved');

    // The bank's statement came in at 694.02 for the hotel: the settlement pays that figure for it.
    const paid = await pay(t, w.payer.session, claim.id, { bank_charged_amounts: [{ line_id: bankLine.id, amount: '694.02' }] });
    expect(paid.settlements.map((s: any) => [s.amount, s.currency])).toEqual([['1039.69', 'MYR']]);
    expect(paid.claim).toMatchObject({ state: 'paid', total: '1038.85' });
  });
});
