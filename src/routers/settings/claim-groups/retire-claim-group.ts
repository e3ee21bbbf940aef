import { z } from 'zod';
import { retireClaimGroup } from '../../../services/expenses/claim-groups';
import { svc } from '../../context';
import { expectedRevision } from '../../http';
import { settingsWriteProcedure } from '../../procedures';
import { recordIdShape } from '../../../contract/fields';
import { answered } from '../setup-router';
import { claimGroupSchema } from '../../../contract/settings/claim-groups';

/** settings.claimGroups.deactivate (If-Match): retires the group; it keeps its claims and takes no new ones. */
export const retireClaimGroupProcedure = settingsWriteProcedure
  .input(z.strictObject(recordIdShape))
  .output(claimGroupSchema)
  .mutation(async ({ ctx, input }) => {
    return answered(ctx, await retireClaimGroup(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) }));
  });
