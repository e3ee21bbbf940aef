import { router } from '../../trpc';
import { createPositionAssignmentProcedure } from './create-position-assignment';
import { deactivatePositionAssignmentProcedure } from './deactivate-position-assignment';
import { listPositionAssignmentsProcedure } from './list-position-assignments';
import { updatePositionAssignmentProcedure } from './update-position-assignment';

/** settings.positionAssignments.*: dated (primary) position assignments of members. */
export const positionAssignmentsRouter = router({
  list: listPositionAssignmentsProcedure,
  create: createPositionAssignmentProcedure,
  update: updatePositionAssignmentProcedure,
  deactivate: deactivatePositionAssignmentProcedure,
});
