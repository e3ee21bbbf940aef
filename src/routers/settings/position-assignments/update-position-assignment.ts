import { updatePositionAssignment } from '../../../services/people/position-assignments';
import { svc } from '../../context';
import { expectedRevision } from '../../http';
import { settingsDecisionProcedure } from '../../procedures';
import { answered } from '../setup-router';
import { positionAssignmentContract, positionAssignmentSchema } from '../../../contract/settings/position-assignments';

/** settings.positionAssignments.update (If-Match): moves the period; an overlap is 409 (nothing is ended for you). */
export const updatePositionAssignmentProcedure = settingsDecisionProcedure
  .input(positionAssignmentContract.update)
  .output(positionAssignmentSchema)
  .mutation(async ({ ctx, input }) => {
    return answered(ctx, await updatePositionAssignment(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) }));
  });
