import { z } from 'zod';
import { createClaimGroup } from '../../../services/expenses/claim-groups';
import { svc } from '../../context';
import { settingsWriteProcedure } from '../../procedures';
import { answerCreated, text } from '../fields';
import { claimGroupSchema } from './schemas';

/** settings.claimGroups.create: a grouping claims may be filed under. */
export const createClaimGroupProcedure = settingsWriteProcedure
  .input(z.strictObject({ name: text(200) }))
  .output(claimGroupSchema)
  .mutation(async ({ ctx, input }) => {
    const group = await createClaimGroup(svc(ctx), input);
    answerCreated(ctx, group.revision);
    return group;
  });
