import { z } from 'zod';
import { createPosition } from '../../../services/people/positions';
import { svc } from '../../context';
import { settingsDecisionProcedure } from '../../procedures';
import { uuid } from '../../schemas';
import { answerCreated, flag, text } from '../fields';
import { positionSchema } from './schemas';

/** settings.positions.create: in an active unit; at most one head position per unit (409). */
export const createPositionProcedure = settingsDecisionProcedure
  .input(
    z.strictObject({
      org_unit_id: uuid(),
      title: text(200),
      is_unit_head: flag().optional(),
      reports_to_position_id: uuid().nullable().optional(),
    }),
  )
  .output(positionSchema)
  .mutation(async ({ ctx, input }) => {
    const position = await createPosition(svc(ctx), input);
    answerCreated(ctx, position.revision);
    return position;
  });
