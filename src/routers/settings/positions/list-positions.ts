import { listPositions } from '../../../services/people/positions';
import { svc } from '../../context';
import { settingsReadProcedure } from '../../procedures';
import { pageOutput } from '../../../contract/fields';
import { positionContract, positionSchema } from '../../../contract/settings/positions';

/** settings.positions.list: positions by title; `org_unit_id` for one unit's; retired ones with include_inactive. */
export const listPositionsProcedure = settingsReadProcedure
  .input(positionContract.list)
  .output(pageOutput(positionSchema))
  .query(({ ctx, input }) => listPositions(svc(ctx), input));
