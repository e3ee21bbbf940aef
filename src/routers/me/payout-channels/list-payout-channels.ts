import { z } from 'zod';
import { listMyPayoutChannels } from '../../../services/expenses/payout-channels';
import { svc } from '../../context';
import { readProcedure } from '../../procedures';
import { pageOutput } from '../../schemas';
import { listInputShape } from '../../settings/fields';
import { payoutChannelSchema } from './schemas';

/** me.payoutChannels.list: the caller's own channels, masked; inactive ones with include_inactive. */
export const listPayoutChannelsProcedure = readProcedure('expenses.payout_channel.manage')
  .input(z.strictObject(listInputShape))
  .output(pageOutput(payoutChannelSchema))
  .query(({ ctx, input }) => listMyPayoutChannels(svc(ctx), input));
