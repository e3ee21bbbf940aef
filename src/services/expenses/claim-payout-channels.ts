/**
 * The payout channels a payer may pay a claim to: the claimant's active channels, masked (never a
 * value), with the one the claimant chose for the claim named. A claim the caller may not read is
 * 404, as everywhere.
 */
import { findReadableClaim } from '../../db/queries/claims';
import { listMemberPayoutChannels } from '../../db/queries/people';
import { notFound } from '../../lib/errors';
import type { ServiceContext } from '../context';
import { payoutChannelView, type PayoutChannelAnswer } from './payout-channels';
import { claimReader } from './read-claim';

/** More than any member keeps: the list is one page. */
const MAX_CHANNELS = 100;

export async function listClaimPayoutChannels(
  ctx: ServiceContext,
  input: { id: string },
): Promise<{ preferred_channel_id: string | null; items: PayoutChannelAnswer[] }> {
  const organizationId = ctx.org.id;
  const claim = await findReadableClaim(ctx.db, { organizationId, id: input.id, reader: claimReader(ctx) });
  if (!claim) throw notFound('claim');
  const rows = await listMemberPayoutChannels(ctx.db, { organizationId, memberId: claim.claimantMemberId, includeInactive: false, after: undefined, limit: MAX_CHANNELS });
  const items = rows.map(payoutChannelView);
  const preferred = claim.payoutChannelId && items.some((c) => c.id === claim.payoutChannelId) ? claim.payoutChannelId : null;
  return { preferred_channel_id: preferred, items };
}
