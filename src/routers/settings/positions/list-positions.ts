import { z } from 'zod';
import { listPositions } from '../../../services/people/positions';
import { svc } from '../../context';
import { settingsReadProcedure } from '../../procedures';
import { pageOutput, uuid } from '../../schemas';
import { listInputShape } from '../fields';
import { positionSchema } from './schemas';

/** settings.positions.list: positions by title; `org_unit_id` for one unit's; retired ones with include_inactive. */
export const listPositionsProcedure = settingsReadProcedure
  .input(z.strictObject({ org_unit_id: uuid().optional(), ...listInputShape }))
  .output(pageOutput(positionSchema))
  .query(({ ctx, input }) => listPositions(svc(ctx), input));
