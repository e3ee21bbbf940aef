import { z } from 'zod';
import { deactivateMyPayoutChannel } from '../../../services/expenses/payout-channels';
import { svc } from '../../context';
import { expectedRevision } from '../../http';
import { writeProcedure } from '../../procedures';
import { recordIdShape } from '../../schemas';
import { answerChanged } from '../../settings/fields';
import { payoutChannelSchema } from './schemas';

/** me.payoutChannels.deactivate (If-Match): one of the caller's channels; anybody else's is 404. */
export const deactivatePayoutChannelProcedure = writeProcedure('expenses.payout_channel.manage')
  .input(z.strictObject(recordIdShape))
  .output(payoutChannelSchema)
  .mutation(async ({ ctx, input }) => {
    const channel = await deactivateMyPayoutChannel(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) });
    answerChanged(ctx, channel.revision);
    return channel;
  });
