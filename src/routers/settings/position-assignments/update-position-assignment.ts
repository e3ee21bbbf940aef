import { z } from 'zod';
import { updatePositionAssignment } from '../../../services/people/position-assignments';
import { svc } from '../../context';
import { expectedRevision } from '../../http';
import { settingsDecisionProcedure } from '../../procedures';
import { recordIdShape } from '../../schemas';
import { answerChanged, day } from '../fields';
import { positionAssignmentSchema } from './schemas';

/** settings.positionAssignments.update (If-Match): moves the period; an overlap is 409 (nothing is ended for you). */
export const updatePositionAssignmentProcedure = settingsDecisionProcedure
  .input(z.strictObject({ ...recordIdShape, valid_from: day().optional(), valid_to: day().nullable().optional() }))
  .output(positionAssignmentSchema)
  .mutation(async ({ ctx, input }) => {
    const assignment = await updatePositionAssignment(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) });
    answerChanged(ctx, assignment.revision);
    return assignment;
  });
