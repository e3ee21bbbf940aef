import { router } from '../../trpc';
import { createClaimProcedure } from './create-claim';
import { getClaimProcedure } from './get-claim';
import { listClaimsProcedure } from './list-claims';
import { claimLinesRouter } from './lines/router';
import { payClaimProcedure } from './pay-claim';
import { claimPayoutChannelsProcedure } from './payout-channels';
import { referClaimDifferenceProcedure } from './refer-claim-difference';
import { transitionClaimProcedure } from './transition-claim';

export const claimsRouter = router({
  create: createClaimProcedure,
  get: getClaimProcedure,
  list: listClaimsProcedure,
  transition: transitionClaimProcedure,
  pay: payClaimProcedure,
  payoutChannels: claimPayoutChannelsProcedure,
  referDifference: referClaimDifferenceProcedure,
  lines: claimLinesRouter,
});
