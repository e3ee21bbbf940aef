import { router } from '../../trpc';
import { createClaimGroupProcedure } from './create-claim-group';
import { listClaimGroupsProcedure } from './list-claim-groups';
import { retireClaimGroupProcedure } from './retire-claim-group';
import { updateClaimGroupProcedure } from './update-claim-group';

/** settings.claimGroups.*: groupings of claims; deactivate retires one. */
export const claimGroupsRouter = router({
  list: listClaimGroupsProcedure,
  create: createClaimGroupProcedure,
  update: updateClaimGroupProcedure,
  deactivate: retireClaimGroupProcedure,
});
