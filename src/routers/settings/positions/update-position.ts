import { z } from 'zod';
import { updatePosition } from '../../../services/people/positions';
import { svc } from '../../context';
import { expectedRevision } from '../../http';
import { settingsDecisionProcedure } from '../../procedures';
import { recordIdShape, uuid } from '../../schemas';
import { answerChanged, flag, text } from '../fields';
import { positionSchema } from './schemas';

/** settings.positions.update (If-Match): a retired position is kept as it was (409); a reporting cycle is 422. */
export const updatePositionProcedure = settingsDecisionProcedure
  .input(
    z.strictObject({
      ...recordIdShape,
      org_unit_id: uuid().optional(),
      title: text(200).optional(),
      is_unit_head: flag().optional(),
      reports_to_position_id: uuid().nullable().optional(),
    }),
  )
  .output(positionSchema)
  .mutation(async ({ ctx, input }) => {
    const position = await updatePosition(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) });
    answerChanged(ctx, position.revision);
    return position;
  });
