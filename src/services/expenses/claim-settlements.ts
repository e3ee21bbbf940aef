/**
 * Recording a payout of a claim, as the payer (the caller), through one of the claimant's payout
 * channels (the payer may choose another than the preferred one). The channel's encrypted values are
 * copied as they are now, so a later change of the channel never rewrites what was paid to; only the
 * masked form is ever answered. A proof of payment is an uploaded document the payer uploaded, bound
 * to the settlement (record_type 'expense_claim_settlement') by the shared binding rules, so it can
 * back no other record.
 */
import { bumpClaimRevision, insertClaimSettlement, listClaimLines, lockClaim } from '../../db/queries/claims';
import { findPayoutChannel } from '../../db/queries/people';
import { AppError, validationError } from '../../lib/errors';
import { Dec, formatAmount } from '../../lib/money';
import { amountInCurrency, Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { bindDocuments } from '../documents/bind-documents';

export interface RecordClaimSettlementInput {
  /** The claim. */
  id: string;
  channel_id: string;
  /** In the base currency; the total of the claim's active lines when absent. */
  amount?: string;
  proof_document_id?: string | null;
}

export async function recordClaimSettlement(ctx: ServiceContext, input: RecordClaimSettlementInput) {
  const { db } = ctx;
  const organizationId = ctx.principal.organizationId;
  const base = ctx.org.baseCurrency;
  const claim = await lockClaim(db, { organizationId, id: input.id });
  if (!claim) throw new AppError('not_found');
  const channel = await findPayoutChannel(db, { organizationId, id: input.channel_id });
  if (!channel || channel.memberId !== claim.claimantMemberId) throw validationError('/channel_id', 'is not a payout channel of the claimant');

  let amount = input.amount;
  if (amount === undefined) {
    const lines = await listClaimLines(db, { organizationId, claimId: claim.id });
    amount = formatAmount(
      lines.filter((l) => !l.withdrawn).reduce((sum, l) => sum.plus(l.baseAmount), new Dec(0)),
      base,
    );
  }
  const r = new Refusals();
  amountInCurrency(r, amount, base, '/amount', { positive: true });
  r.throwIfAny();

  const id = crypto.randomUUID();
  if (input.proof_document_id) {
    await bindDocuments(ctx, { record_type: 'expense_claim_settlement', record_id: id, ids: [input.proof_document_id], pointer: '/proof_document_id' });
  }
  const row = await insertClaimSettlement(db, {
    id,
    organizationId,
    claimId: claim.id,
    channelId: channel.id,
    channelKey: channel.channelKey,
    channelName: channel.name,
    amount,
    currency: base,
    settledAt: ctx.now,
    settledBy: ctx.principal.memberId,
    proofDocumentId: input.proof_document_id ?? null,
    accountTail: channel.accountTail,
    fieldsCiphertext: channel.fieldsCiphertext,
    fieldsMasked: channel.fieldsMasked,
  });
  await bumpClaimRevision(db, { organizationId, id: claim.id });
  return row;
}
