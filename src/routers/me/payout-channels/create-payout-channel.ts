import { payoutEncryptionKey } from '../../../config';
import { createMyPayoutChannel } from '../../../services/expenses/payout-channels';
import { svc } from '../../context';
import { writeProcedure } from '../../procedures';
import { created } from '../../settings/setup-router';
import { createPayoutChannelInput, payoutChannelSchema } from '../../../contract/expenses/payout-channels';

/** me.payoutChannels.create: a channel of the caller; the values are encrypted at rest and answered masked. */
export const createPayoutChannelProcedure = writeProcedure('expenses.payout_channel.manage')
  .input(createPayoutChannelInput)
  .output(payoutChannelSchema)
  .mutation(async ({ ctx, input }) => {
    return created(ctx, await createMyPayoutChannel(svc(ctx), input, { payoutKey: payoutEncryptionKey(ctx.deps.config) }));
  });
