/**
 * Recording a payout of a claim, as the payer (the caller), through one of the claimant's payout
 * channels (the payer may choose another than the preferred one). The channel's encrypted values are
 * copied as they are now, so a later change of the channel never rewrites what was paid to; only the
 * masked form is ever answered. A proof of payment is an uploaded document the payer uploaded, bound
 * to the settlement (record_type 'expense_claim_settlement') by the shared binding rules, so it can
 * back no other record.
 */
import { bumpClaimRevision, insertClaimSettlement, listClaimLines, lockClaim, type ClaimRow } from '../../db/queries/claims';
import { findPayoutChannel } from '../../db/queries/people';
import { AppError, validationError } from '../../lib/errors';
import { findClaimPolicy } from '../../db/queries/approvals';
import { Dec, formatAmount, formatRate, roundAmount } from '../../lib/money';
import { CLAIM_POLICY_DEFAULTS } from '../approvals-setup/claim-policy';
import { amountInCurrency, Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { bindDocuments } from '../documents/bind-documents';
import { journalClaimPaid } from '../journal/record-events';

export interface PayClaimInput {
  /** One of the claimant's active channels; the claim's preferred channel when absent. */
  channel_id?: string | null;
  proof_document_id?: string | null;
  /**
   * The bank's figure for bank-charged lines when it differs from what the line was entered with
   * (the statement arrived later): the settlement pays it instead of the line's base amount.
   */
  bank_charged_amounts?: { line_id: string; amount: string }[];
}

/**
 * What paying the claim settles: the active lines' base amounts, a bank-charged line at the bank's
 * figure when the payer gives one. Refuses (422) a channel that is not the claimant's active one and
 * a bank figure for a line that is not an active bank-charged line of the claim.
 */
export async function writeSettlement(
  ctx: ServiceContext,
  claim: Pick<ClaimRow, 'id' | 'reference' | 'claimantMemberId' | 'payoutChannelId'>,
  input: PayClaimInput,
  /** An amount given outside the workflow (a partial payout recorded by a factory); checked here. */
  given?: string,
) {
  const { db } = ctx;
  const organizationId = ctx.org.id;
  const base = ctx.org.baseCurrency;
  const r = new Refusals();
  const channelId = input.channel_id ?? claim.payoutChannelId;
  const channel = channelId ? await findPayoutChannel(db, { organizationId, id: channelId }) : undefined;
  if (!channelId) r.add('/channel_id', 'is required: the claimant has no preferred payout channel');
  else r.check(Boolean(channel && channel.memberId === claim.claimantMemberId && channel.active), '/channel_id', 'is not an active payout channel of the claimant');

  const lines = (await listClaimLines(db, { organizationId, claimId: claim.id })).filter((l) => !l.withdrawn);
  const tolerance = input.bank_charged_amounts?.length ? await payoutTolerancePercent(ctx) : '0';
  const bank = new Map<string, string>();
  (input.bank_charged_amounts ?? []).forEach((b, i) => {
    const at = `/bank_charged_amounts/${i}`;
    const line = lines.find((l) => l.id === b.line_id);
    if (!r.check(Boolean(line && line.reimbursementBasis === 'bank_charged'), `${at}/line_id`, 'is not an active bank-charged line of the claim')) return;
    if (!r.check(!bank.has(b.line_id), `${at}/line_id`, 'is given twice')) return;
    if (!amountInCurrency(r, b.amount, base, `${at}/amount`, { positive: true })) return;
    if (!withinTolerance(r, `${at}/amount`, b.amount, line!.baseAmount, tolerance, base)) return;
    bank.set(b.line_id, b.amount);
  });
  if (given !== undefined) amountInCurrency(r, given, base, '/amount', { positive: true });
  r.throwIfAny();
  const amount = given ?? formatAmount(
    lines.reduce((sum, l) => sum.plus(bank.get(l.id) ?? l.baseAmount), new Dec(0)),
    base,
  );
  if (new Dec(amount).lte(0)) throw new AppError('conflict', { detail: `The claim reimburses ${amount} ${base}: there is nothing to pay` });

  const id = crypto.randomUUID();
  if (input.proof_document_id) {
    await bindDocuments(ctx, { record_type: 'expense_claim_settlement', record_id: id, ids: [input.proof_document_id], pointer: '/proof_document_id' });
  }
  const settlement = await insertClaimSettlement(db, {
    id,
    organizationId,
    claimId: claim.id,
    channelId: channel!.id,
    channelKey: channel!.channelKey,
    channelName: channel!.name,
    amount,
    currency: base,
    settledAt: ctx.now,
    settledBy: ctx.principal.memberId,
    proofDocumentId: input.proof_document_id ?? null,
    accountTail: channel!.accountTail,
    fieldsCiphertext: channel!.fieldsCiphertext,
    fieldsMasked: channel!.fieldsMasked,
  });
  await journalClaimPaid(ctx, { id: settlement.id, claimId: claim.id, amount, channelKey: channel!.channelKey, settledDate: ctx.today, reference: claim.reference });
  return settlement;
}

/** What the payout tolerance allows a bank figure to differ from the approved amount: approved × percent, rounded to the currency. */
export function toleranceAllowance(approved: string, tolerancePercent: string, base: string) {
  return roundAmount(new Dec(approved).abs().times(tolerancePercent).div(100), base);
}

/** The organization's payout tolerance in percent (claim policy, default 5). */
export async function payoutTolerancePercent(ctx: ServiceContext): Promise<string> {
  const policy = await findClaimPolicy(ctx.db, { organizationId: ctx.org.id });
  return policy?.payoutTolerancePercent ?? CLAIM_POLICY_DEFAULTS.payout_tolerance_percent;
}

/**
 * A bank figure pays what was approved, give or take the organization's payout tolerance (claim
 * policy, default 5%): |bank − approved| ≤ approved × tolerance, rounded to the currency. Beyond it
 * the pay is refused (422) and nothing is written. A figure above it needs its difference approved
 * first: the payer refers it (`refer_difference`, expenses.claims.referDifference) and pays once the
 * claim is approved again at the bank figure. A figure that far below is not paid either: the
 * statement is to be checked.
 */
function withinTolerance(r: Refusals, pointer: string, figure: string, approved: string, tolerancePercent: string, base: string): boolean {
  const allowed = toleranceAllowance(approved, tolerancePercent, base);
  const diff = new Dec(figure).minus(approved).abs();
  const above = new Dec(figure).gt(approved);
  return r.check(
    diff.lte(allowed),
    pointer,
    `differs from the approved ${formatAmount(approved, base)} ${base} by ${formatAmount(diff, base)}, more than the payout tolerance of ${formatRate(tolerancePercent)}% ` +
      `(at most ${formatAmount(allowed, base)}); ` +
      (above
        ? 'the difference needs approval first: refer it with the action refer_difference (expenses.claims.referDifference) and pay once the claim is approved again'
        : 'a bank figure that far below the approved amount is not paid: check the bank statement'),
  );
}

export interface RecordClaimSettlementInput {
  /** The claim. */
  id: string;
  channel_id: string;
  /** In the base currency; the total of the claim's active lines when absent. */
  amount?: string;
  proof_document_id?: string | null;
}

/**
 * A settlement written outside the workflow (test factories): the amount as given. The product pays
 * through the `pay` transition (expenses.claims.pay), which writes with writeSettlement.
 */
export async function recordClaimSettlement(ctx: ServiceContext, input: RecordClaimSettlementInput) {
  const { db } = ctx;
  const organizationId = ctx.org.id;
  const claim = await lockClaim(db, { organizationId, id: input.id });
  if (!claim) throw new AppError('not_found');
  const channel = await findPayoutChannel(db, { organizationId, id: input.channel_id });
  if (!channel || channel.memberId !== claim.claimantMemberId) throw validationError('/channel_id', 'is not a payout channel of the claimant');
  const row = await writeSettlement(ctx, { ...claim, payoutChannelId: channel.id }, { channel_id: channel.id, proof_document_id: input.proof_document_id }, input.amount);
  await bumpClaimRevision(db, { organizationId, id: claim.id });
  return row;
}
