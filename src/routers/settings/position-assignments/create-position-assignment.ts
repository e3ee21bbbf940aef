import { z } from 'zod';
import { createPositionAssignment } from '../../../services/people/position-assignments';
import { svc } from '../../context';
import { settingsDecisionProcedure } from '../../procedures';
import { uuid } from '../../schemas';
import { answerCreated, day, flag } from '../fields';
import { positionAssignmentSchema } from './schemas';

/**
 * settings.positionAssignments.create: a member holds a position from valid_from (to valid_to, or
 * open). A primary one ends the member's open primary one the day before; other overlapping primary
 * periods are 409; a retired position or an inactive member is 422.
 */
export const createPositionAssignmentProcedure = settingsDecisionProcedure
  .input(
    z.strictObject({
      member_id: uuid(),
      position_id: uuid(),
      valid_from: day(),
      valid_to: day().nullable().optional(),
      is_primary: flag().optional(),
    }),
  )
  .output(positionAssignmentSchema)
  .mutation(async ({ ctx, input }) => {
    const assignment = await createPositionAssignment(svc(ctx), input);
    answerCreated(ctx, assignment.revision);
    return assignment;
  });
