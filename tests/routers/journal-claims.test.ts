/**
 * The journal entries of a claim: approved, each line's expense account debited per analytic share
 * (largest remainder to the sen, SST borne included) against claims payable; paid, claims payable
 * settled through the payout channel's clearing account, a bank figure's difference to bank charges.
 */
import { describe, expect, it } from 'vitest';
import { fileTestClaim } from '../factories/claim-filing';
import { approveTestClaim, createClaimApprovalWorld, payTestClaim } from '../factories/claim-world';
import { addClaimLine } from '../factories/claims';
import { contextFor } from '../factories/context';
import { useTestApp } from '../helpers/app';
import { compactJournal, expectBalanced, journalOf } from '../helpers/journal';
import { setJournalAccount } from '../../src/services/journal/accounts';
import { splitByShares } from '../../src/services/journal/build-entries';
import { chartAccounts } from '../../src/db/queries/journal';

const t = useTestApp();

describe('journal entries of claims', () => {
  it('splits by largest remainder to the sen', () => {
    const third = ['33.3333333333', '33.3333333333', '33.3333333334'];
    expect(splitByShares('100.00', third, 'MYR').map((d) => d.toFixed(2))).toEqual(['33.33', '33.33', '33.34']);
    expect(splitByShares('0.02', third, 'MYR').map((d) => d.toFixed(2))).toEqual(['0.01', '0.00', '0.01']);
    expect(splitByShares('-10.00', third, 'MYR').map((d) => d.toFixed(2))).toEqual(['-3.33', '-3.33', '-3.34']);
    expect(splitByShares('10.01', ['50', '50'], 'MYR').map((d) => d.toFixed(2))).toEqual(['5.01', '5.00']);
  });

  it('a claim with three analytic shares approved, and a bank-charged line paid at the bank figure (1.00 of bank charges)', async () => {
    const w = await createClaimApprovalWorld(t);
    const chart = await chartAccounts(t.db, { organizationId: w.org.id });
    const meals = chart.find((a) => a.code === '6080')!;
    await setJournalAccount(await contextFor(t.db, w.org.id, w.org.owner.id), { role: 'claim_expense', key: w.ref.meals.id, account_id: meals.id });

    const claim = await fileTestClaim(t, w.employee, { title: 'Site visit', payout_channel_id: w.channel.id });
    const base = { organizationId: w.org.id, claimId: claim.id, now: new Date(), type: 'receipt' as const, expenseDate: '2026-01-13' };
    // 100.00 MYR with 6.00 of SST borne, on three projects in thirds.
    await addClaimLine(t.db, {
      ...base,
      categoryId: w.ref.meals.id,
      description: 'Team lunch',
      currency: 'MYR',
      amount: '100.00',
      taxAmount: '6.00',
      taxCodeId: w.ref.serviceTax.id,
      supplierName: 'Kedai Makan Sdn Bhd',
      supplierTin: 'C20880050010',
      documentBasis: 'einvoice_company',
      einvoiceUuid: 'F9D425P6DS7D8IU2WK1N5ZQH10',
      einvoiceValidatedAt: new Date(),
      shares: [
        { analyticAccountId: w.ref.alpha.id, percentage: '33.3333333333' },
        { analyticAccountId: w.omega.id, percentage: '33.3333333333' },
        { analyticAccountId: w.ref.zeta.id, percentage: '33.3333333334' },
      ],
    });
    // 13.00 SGD charged by the bank as 45.00 MYR.
    const parking = await addClaimLine(t.db, {
      ...base,
      categoryId: w.ref.travel.id,
      description: 'Parking',
      currency: 'SGD',
      amount: '13.00',
      bankChargedAmount: '45.00',
      documentBasis: 'foreign_supplier',
      supplierCountry: 'SG',
      shares: [{ analyticAccountId: w.ref.zeta.id, percentage: '100' }],
    });
    expect((await approveTestClaim(t, w, claim.id)).claim).toMatchObject({ state: 'approved', total: '145.00' });
    const paid = await payTestClaim(t, w, claim.id, [{ line_id: parking.id, amount: '46.00' }]);
    expect(paid.claim.state).toBe('paid');

    expect(await compactJournal(t.db, w.org.id)).toEqual([
      [
        'claim_approved',
        [
          ['6080', '33.33', '', 'MYR', '33.33'],
          ['6080', '33.33', '', 'MYR', '33.33'],
          ['6080', '33.34', '', 'MYR', '33.34'],
          ['6990', '45.00', '', 'SGD', '13.00'],
          ['2030', '', '145.00', 'MYR', '145.00'],
        ],
      ],
      ['claim_paid', [['2030', '145.00', '', 'MYR', '145.00'], ['1020', '', '146.00', 'MYR', '146.00'], ['6140', '1.00', '', 'MYR', '1.00']]],
    ]);
    const [approved] = await journalOf(t.db, w.org.id);
    expect(approved!.lines.slice(0, 4).map((l) => l.analyticAccountId)).toEqual([w.ref.alpha.id, w.omega.id, w.ref.zeta.id, w.ref.zeta.id]);
    await expectBalanced(t.db, w.org.id);
  });
});
