import { router } from '../../trpc';
import { createClaimProcedure } from './create-claim';
import { getClaimProcedure } from './get-claim';
import { listClaimsProcedure } from './list-claims';

export const claimsRouter = router({
  create: createClaimProcedure,
  get: getClaimProcedure,
  list: listClaimsProcedure,
});
