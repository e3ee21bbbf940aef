import { router } from '../trpc';
import { meDelegationsRouter } from './delegations/router';
import { createPayoutChannelProcedure } from './payout-channels/create-payout-channel';
import { deactivatePayoutChannelProcedure } from './payout-channels/deactivate-payout-channel';
import { listPayoutChannelsProcedure } from './payout-channels/list-payout-channels';
import { todoProcedure } from './todo/todo';
import { meNotificationsRouter } from './notifications/router';

/** me.*: what belongs to the calling member themselves (tRPC only). */
export const meRouter = router({
  payoutChannels: router({
    list: listPayoutChannelsProcedure,
    create: createPayoutChannelProcedure,
    deactivate: deactivatePayoutChannelProcedure,
  }),
  delegations: meDelegationsRouter,
  todo: todoProcedure,
  notifications: meNotificationsRouter,
});
