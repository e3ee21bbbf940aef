import { z } from 'zod';
import { listPositionAssignments } from '../../../services/people/position-assignments';
import { svc } from '../../context';
import { settingsReadProcedure } from '../../procedures';
import { pageOutput, uuid } from '../../schemas';
import { listInputShape } from '../fields';
import { positionAssignmentSchema } from './schemas';

/** settings.positionAssignments.list: by start day; those in force today or later unless include_inactive. */
export const listPositionAssignmentsProcedure = settingsReadProcedure
  .input(z.strictObject({ member_id: uuid().optional(), position_id: uuid().optional(), ...listInputShape }))
  .output(pageOutput(positionAssignmentSchema))
  .query(({ ctx, input }) => listPositionAssignments(svc(ctx), input));
