import { z } from 'zod';
import { listMyPayoutChannels } from '../../../services/expenses/payout-channels';
import { svc } from '../../context';
import { readProcedure } from '../../procedures';
import { listInputShape, pageOutput } from '../../../contract/fields';
import { payoutChannelSchema } from '../../../contract/expenses/payout-channels';

/** me.payoutChannels.list: the caller's own channels, masked; inactive ones with include_inactive. */
export const listPayoutChannelsProcedure = readProcedure('expenses.payout_channel.manage')
  .input(z.strictObject(listInputShape))
  .output(pageOutput(payoutChannelSchema))
  .query(({ ctx, input }) => listMyPayoutChannels(svc(ctx), input));
