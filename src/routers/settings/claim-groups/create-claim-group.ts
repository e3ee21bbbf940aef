import { createClaimGroup } from '../../../services/expenses/claim-groups';
import { svc } from '../../context';
import { settingsWriteProcedure } from '../../procedures';
import { created } from '../setup-router';
import { claimGroupContract, claimGroupSchema } from '../../../contract/settings/claim-groups';

/** settings.claimGroups.create: a grouping claims may be filed under. */
export const createClaimGroupProcedure = settingsWriteProcedure
  .input(claimGroupContract.create)
  .output(claimGroupSchema)
  .mutation(async ({ ctx, input }) => {
    return created(ctx, await createClaimGroup(svc(ctx), input));
  });
