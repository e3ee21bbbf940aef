import { z } from 'zod';
import { deactivatePositionAssignment } from '../../../services/people/position-assignments';
import { svc } from '../../context';
import { expectedRevision } from '../../http';
import { settingsDecisionProcedure } from '../../procedures';
import { recordIdShape } from '../../schemas';
import { answerChanged } from '../fields';
import { positionAssignmentSchema } from './schemas';

/** settings.positionAssignments.deactivate (If-Match): ends it today, or withdraws one not yet begun. */
export const deactivatePositionAssignmentProcedure = settingsDecisionProcedure
  .input(z.strictObject(recordIdShape))
  .output(positionAssignmentSchema)
  .mutation(async ({ ctx, input }) => {
    const assignment = await deactivatePositionAssignment(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) });
    answerChanged(ctx, assignment.revision);
    return assignment;
  });
