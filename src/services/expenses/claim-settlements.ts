import type { Database } from '../../db/client';
import { bumpClaimRevision, listClaimLines, lockClaim } from '../../db/queries/claims';
import { findOrganization } from '../../db/queries/organizations';
import { findPayoutChannel } from '../../db/queries/people';
import { claimSettlements } from '../../db/schema';
import { AppError, validationError } from '../../lib/errors';
import { checkAmountPlaces, Dec, formatAmount } from '../../lib/money';

/**
 * Records a payout of a claim through one of the claimant's payout channels (the payer may choose
 * another than the preferred one). The channel's encrypted values are copied as they are now (a
 * later change of the channel does not rewrite what was paid to); only the masked form is answered.
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

  const [row] = await db
    .insert(claimSettlements)
    .values({
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
    })
    .returning();
  await bumpClaimRevision(db, { organizationId: input.organizationId, id: claim.id });
  return row;
}
