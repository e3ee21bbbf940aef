import { z } from 'zod';
import { retirePosition } from '../../../services/people/positions';
import { svc } from '../../context';
import { expectedRevision } from '../../http';
import { settingsDecisionProcedure } from '../../procedures';
import { recordIdShape } from '../../../contract/fields';
import { answered } from '../setup-router';
import { positionSchema } from '../../../contract/settings/positions';

/** settings.positions.deactivate (If-Match): retires the position (`retired_at`); it takes no new assignment. */
export const retirePositionProcedure = settingsDecisionProcedure
  .input(z.strictObject(recordIdShape))
  .output(positionSchema)
  .mutation(async ({ ctx, input }) => {
    return answered(ctx, await retirePosition(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) }));
  });
