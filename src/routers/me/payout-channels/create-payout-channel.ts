import { payoutEncryptionKey } from '../../../config';
import { createMyPayoutChannel } from '../../../services/expenses/payout-channels';
import { svc } from '../../context';
import { writeProcedure } from '../../procedures';
import { answerCreated } from '../../settings/fields';
import { createPayoutChannelInput, payoutChannelSchema } from './schemas';

/** me.payoutChannels.create: a channel of the caller; the values are encrypted at rest and answered masked. */
export const createPayoutChannelProcedure = writeProcedure('expenses.payout_channel.manage')
  .input(createPayoutChannelInput)
  .output(payoutChannelSchema)
  .mutation(async ({ ctx, input }) => {
    const channel = await createMyPayoutChannel(svc(ctx), input, { payoutKey: payoutEncryptionKey(ctx.deps.config) });
    answerCreated(ctx, channel.revision);
    return channel;
  });
