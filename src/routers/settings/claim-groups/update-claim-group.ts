import { z } from 'zod';
import { updateClaimGroup } from '../../../services/expenses/claim-groups';
import { svc } from '../../context';
import { expectedRevision } from '../../http';
import { settingsWriteProcedure } from '../../procedures';
import { recordIdShape } from '../../schemas';
import { answerChanged, text } from '../fields';
import { claimGroupSchema } from './schemas';

/** settings.claimGroups.update (If-Match): renames a group that is not retired. */
export const updateClaimGroupProcedure = settingsWriteProcedure
  .input(z.strictObject({ ...recordIdShape, name: text(200).optional() }))
  .output(claimGroupSchema)
  .mutation(async ({ ctx, input }) => {
    const group = await updateClaimGroup(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) });
    answerChanged(ctx, group.revision);
    return group;
  });
