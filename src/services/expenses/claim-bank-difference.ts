/**
 * A bank figure beyond the payout tolerance, referred for approval of its difference. On an approved
 * claim the payer (who may pay it, never its claimant) gives the bank's figures for bank-charged
 * lines with a reason (`refer_difference`); each figure must be above the line's approved base amount
 * and at least one beyond the organization's payout tolerance (within it, the payer simply pays). The
 * figures are kept on the lines, the claim starts a new approval round in `difference`, and the
 * approval engine opens one sign-off per analytic account on the difference (each referred line's
 * figure minus its approved base amount, split by its shares): the account's approvers whose band
 * covers that part sign it, under the same rules as any sign-off (no self-approval, authority checked
 * at signing, delegation and escalation). When the last is signed the claim is `approved` again and
 * each referred line's base amount becomes its bank figure (its rate the figure over its amount), so
 * the claim's total and what `pay` settles are the approved bank figure; declined, the figures are
 * dropped and the claim is `approved` at what was approved before.
 */
import { listClaimLines, listLineShares, updateClaimLineRow, type ClaimRow } from '../../db/queries/claims';
import { Dec, formatAmount, formatRate } from '../../lib/money';
import { amountInCurrency, Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import type { AmountLine } from '../workflow/approvals/amounts';
import { DIFFERENCE_STATE, openSignoffs } from '../workflow/approvals/claim-step';
import { payoutTolerancePercent, toleranceAllowance } from './claim-settlements';

export interface ReferDifferenceInput {
  bank_charged_amounts?: { line_id: string; amount: string }[];
}

/**
 * Records the referred figures on their lines and opens the difference's sign-offs in a new round;
 * answers the claim fields to store. Refuses (422, nothing written) figures that are missing, for a
 * line that is not an active bank-charged line of the claim, not above its approved base amount, or
 * all within the payout tolerance.
 */
export async function referBankDifference(ctx: ServiceContext, claim: ClaimRow, input: ReferDifferenceInput): Promise<{ round: number }> {
  const organizationId = ctx.org.id;
  const base = ctx.org.baseCurrency;
  const r = new Refusals();
  const figures = input.bank_charged_amounts ?? [];
  if (figures.length === 0) {
    r.add('/bank_charged_amounts', 'is required: the bank’s figure for each bank-charged line whose difference needs approval (expenses.claims.referDifference)');
    r.throwIfAny();
  }
  const lines = (await listClaimLines(ctx.db, { organizationId, claimId: claim.id })).filter((l) => !l.withdrawn);
  const tolerance = await payoutTolerancePercent(ctx);
  const referred = new Map<string, { line: (typeof lines)[number]; figure: string; difference: string }>();
  let beyond = false;
  figures.forEach((b, i) => {
    const at = `/bank_charged_amounts/${i}`;
    const line = lines.find((l) => l.id === b.line_id);
    if (!r.check(Boolean(line && line.reimbursementBasis === 'bank_charged'), `${at}/line_id`, 'is not an active bank-charged line of the claim')) return;
    if (!r.check(!referred.has(b.line_id), `${at}/line_id`, 'is given twice')) return;
    if (!amountInCurrency(r, b.amount, base, `${at}/amount`, { positive: true })) return;
    const approved = line!.baseAmount;
    const difference = new Dec(b.amount).minus(approved);
    if (!r.check(difference.gt(0), `${at}/amount`, `is not above the approved ${formatAmount(approved, base)} ${base}: there is no difference to approve`)) return;
    if (difference.gt(toleranceAllowance(approved, tolerance, base))) beyond = true;
    referred.set(b.line_id, { line: line!, figure: formatAmount(b.amount, base), difference: formatAmount(difference, base) });
  });
  r.throwIfAny();
  if (!beyond) {
    r.add('/bank_charged_amounts', `every figure is within the payout tolerance of ${formatRate(tolerance)}% of the approved amount: nothing needs approval, pay the claim with these figures`);
    r.throwIfAny();
  }

  const shares = await listLineShares(ctx.db, { organizationId, lineIds: [...referred.keys()] });
  const differenceLines: AmountLine[] = [];
  for (const { line, figure, difference } of referred.values()) {
    await updateClaimLineRow(ctx.db, { organizationId, lineId: line.id, set: { referredBankAmount: figure } });
    differenceLines.push({
      base_amount: difference,
      shares: shares
        .filter((s) => s.lineId === line.id)
        .map((s) => ({ analytic_account_id: s.analyticAccountId, axis_id: s.axisId, percentage: s.percentage, account_code: s.accountCode, account_name: s.accountName })),
    });
  }
  const round = claim.round + 1;
  await openSignoffs(ctx, { ...claim, round }, DIFFERENCE_STATE, differenceLines);
  return { round };
}

/**
 * Ends a referral: approved, each referred line is reimbursed at its bank figure (base amount, and
 * the rate the figure over the amount, as a bank-charged line's always is); declined, the figures are
 * dropped. Either way no line keeps a referred figure.
 */
export async function closeBankDifference(ctx: ServiceContext, claim: Pick<ClaimRow, 'id'>, approved: boolean): Promise<void> {
  const organizationId = ctx.org.id;
  const lines = (await listClaimLines(ctx.db, { organizationId, claimId: claim.id })).filter((l) => l.referredBankAmount !== null);
  for (const l of lines) {
    const figure = l.referredBankAmount!;
    const set = approved
      ? { baseAmount: figure, fxRate: formatRate(new Dec(figure).div(l.amount).toDecimalPlaces(10)), referredBankAmount: null }
      : { referredBankAmount: null };
    await updateClaimLineRow(ctx.db, { organizationId, lineId: l.id, set });
  }
}
