/**
 * expenses.claims.payoutChannels (tRPC only, permission expenses.claim.pay): the claimant's active
 * payout channels a payer may pay the claim to, masked, and the one the claimant chose for it
 * (preferred_channel_id; null when none is chosen or it is no longer active). One service call.
 */
import { z } from 'zod';
import { listClaimPayoutChannels } from '../../../services/expenses/claim-payout-channels';
import { svc } from '../../context';
import { readProcedure } from '../../procedures';
import { idInput, uuid } from '../../../contract/fields';
import { payoutChannelSchema } from '../../../contract/expenses/payout-channels';

export const claimPayoutChannelsOutput = z.object({
  preferred_channel_id: uuid().nullable(),
  items: z.array(payoutChannelSchema),
});

export const claimPayoutChannelsProcedure = readProcedure('expenses.claim.pay')
  .input(idInput)
  .output(claimPayoutChannelsOutput)
  .query(({ ctx, input }) => listClaimPayoutChannels(svc(ctx), input));
