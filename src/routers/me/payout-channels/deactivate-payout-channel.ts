import { z } from 'zod';
import { deactivateMyPayoutChannel } from '../../../services/expenses/payout-channels';
import { svc } from '../../context';
import { expectedRevision } from '../../http';
import { writeProcedure } from '../../procedures';
import { recordIdShape } from '../../../contract/fields';
import { answered } from '../../settings/setup-router';
import { payoutChannelSchema } from '../../../contract/expenses/payout-channels';

/** me.payoutChannels.deactivate (If-Match): one of the caller's channels; anybody else's is 404. */
export const deactivatePayoutChannelProcedure = writeProcedure('expenses.payout_channel.manage')
  .input(z.strictObject(recordIdShape))
  .output(payoutChannelSchema)
  .mutation(async ({ ctx, input }) => {
    return answered(ctx, await deactivateMyPayoutChannel(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) }));
  });
