import { listPositionAssignments } from '../../../services/people/position-assignments';
import { svc } from '../../context';
import { settingsReadProcedure } from '../../procedures';
import { pageOutput } from '../../../contract/fields';
import { positionAssignmentContract, positionAssignmentSchema } from '../../../contract/settings/position-assignments';

/** settings.positionAssignments.list: by start day; those in force today or later unless include_inactive. */
export const listPositionAssignmentsProcedure = settingsReadProcedure
  .input(positionAssignmentContract.list)
  .output(pageOutput(positionAssignmentSchema))
  .query(({ ctx, input }) => listPositionAssignments(svc(ctx), input));
