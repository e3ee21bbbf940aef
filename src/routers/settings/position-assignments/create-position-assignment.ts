import { createPositionAssignment } from '../../../services/people/position-assignments';
import { svc } from '../../context';
import { settingsDecisionProcedure } from '../../procedures';
import { created } from '../setup-router';
import { positionAssignmentContract, positionAssignmentSchema } from '../../../contract/settings/position-assignments';

/**
 * settings.positionAssignments.create: a member holds a position from valid_from (to valid_to, or
 * open). A primary one ends the member's open primary one the day before; other overlapping primary
 * periods are 409; a retired position or an inactive member is 422.
 */
export const createPositionAssignmentProcedure = settingsDecisionProcedure
  .input(positionAssignmentContract.create)
  .output(positionAssignmentSchema)
  .mutation(async ({ ctx, input }) => {
    return created(ctx, await createPositionAssignment(svc(ctx), input));
  });
