import { router } from '../../trpc';
import { createClaimProcedure } from './create-claim';
import { getClaimProcedure } from './get-claim';

export const claimsRouter = router({
  create: createClaimProcedure,
  get: getClaimProcedure,
});
