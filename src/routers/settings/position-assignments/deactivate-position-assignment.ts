import { z } from 'zod';
import { deactivatePositionAssignment } from '../../../services/people/position-assignments';
import { svc } from '../../context';
import { expectedRevision } from '../../http';
import { settingsDecisionProcedure } from '../../procedures';
import { recordIdShape } from '../../../contract/fields';
import { answered } from '../setup-router';
import { positionAssignmentSchema } from '../../../contract/settings/position-assignments';

/** settings.positionAssignments.deactivate (If-Match): ends it today, or withdraws one not yet begun. */
export const deactivatePositionAssignmentProcedure = settingsDecisionProcedure
  .input(z.strictObject(recordIdShape))
  .output(positionAssignmentSchema)
  .mutation(async ({ ctx, input }) => {
    return answered(ctx, await deactivatePositionAssignment(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) }));
  });
