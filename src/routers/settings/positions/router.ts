import { router } from '../../trpc';
import { createPositionProcedure } from './create-position';
import { listPositionsProcedure } from './list-positions';
import { retirePositionProcedure } from './retire-position';
import { updatePositionProcedure } from './update-position';

/** settings.positions.*: seats of the org chart; deactivate retires one. */
export const positionsRouter = router({
  list: listPositionsProcedure,
  create: createPositionProcedure,
  update: updatePositionProcedure,
  deactivate: retirePositionProcedure,
});
