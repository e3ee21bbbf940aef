import type { Database } from '../../db/client';
import { bumpClaimRevision, insertClaimSettlement, listClaimLines, lockClaim } from '../../db/queries/claims';
import { findOrganization } from '../../db/queries/organizations';
import { findPayoutChannel } from '../../db/queries/people';
import { AppError, validationError } from '../../lib/errors';
import { checkAmountPlaces, Dec, formatAmount } from '../../lib/money';
import { bindDocuments } from '../documents/bind-documents';

/**
 * Records a payout of a claim through one of the claimant's payout channels (the payer may choose
 * another than the preferred one). The channel's encrypted values are copied as they are now (a
 * later change of the channel does not rewrite what was paid to); only the masked form is answered.
 * A proof of payment is an uploaded document (`files`) the payer uploaded; it is bound to the
 * settlement (file_attachments, record_type 'expense_claim_settlement') by the shared binding rules,
 * so it can back no other record.
 */
export async function recordClaimSettlement(
  db: Database,
  input: { organizationId: string; claimId: string; channelId: string; settledBy: string; amount?: string; proofDocumentId?: string | null; now: Date },
) {
  const claim = await lockClaim(db, { organizationId: input.organizationId, id: input.claimId });
  if (!claim) throw new AppError('not_found');
  const org = await findOrganization(db, { organizationId: input.organizationId });
  if (!org) throw new AppError('not_found');
  const channel = await findPayoutChannel(db, { organizationId: input.organizationId, id: input.channelId });
  if (!channel || channel.memberId !== claim.claimantMemberId) throw validationError('/channel_id', 'is not a payout channel of the claimant');

  let amount = input.amount;
  if (amount === undefined) {
    const lines = await listClaimLines(db, { organizationId: input.organizationId, claimId: claim.id });
    amount = formatAmount(
      lines.filter((l) => !l.withdrawn).reduce((sum, l) => sum.plus(l.baseAmount), new Dec(0)),
      org.baseCurrency,
    );
  }
  if (!checkAmountPlaces(amount, org.baseCurrency) || new Dec(amount).lte(0)) throw validationError('/amount', 'must be a positive amount in the base currency');

  const id = crypto.randomUUID();
  if (input.proofDocumentId) {
    await bindDocuments(
      db,
      { organizationId: input.organizationId, memberId: input.settledBy },
      { recordType: 'expense_claim_settlement', recordId: id, ids: [input.proofDocumentId], pointer: '/proof_document_id', now: input.now },
    );
  }
  const row = await insertClaimSettlement(db, {
    id,
    organizationId: input.organizationId,
    claimId: claim.id,
    channelId: channel.id,
    channelKey: channel.channelKey,
    channelName: channel.name,
    amount,
    currency: org.baseCurrency,
    settledAt: input.now,
    settledBy: input.settledBy,
    proofDocumentId: input.proofDocumentId ?? null,
    accountTail: channel.accountTail,
    fieldsCiphertext: channel.fieldsCiphertext,
    fieldsMasked: channel.fieldsMasked,
  });
  await bumpClaimRevision(db, { organizationId: input.organizationId, id: claim.id });
  return row;
}
