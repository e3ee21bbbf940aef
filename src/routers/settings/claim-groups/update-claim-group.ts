import { updateClaimGroup } from '../../../services/expenses/claim-groups';
import { svc } from '../../context';
import { expectedRevision } from '../../http';
import { settingsWriteProcedure } from '../../procedures';
import { answered } from '../setup-router';
import { claimGroupContract, claimGroupSchema } from '../../../contract/settings/claim-groups';

/** settings.claimGroups.update (If-Match): renames a group that is not retired. */
export const updateClaimGroupProcedure = settingsWriteProcedure
  .input(claimGroupContract.update)
  .output(claimGroupSchema)
  .mutation(async ({ ctx, input }) => {
    return answered(ctx, await updateClaimGroup(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) }));
  });
