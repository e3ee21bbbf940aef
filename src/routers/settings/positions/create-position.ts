import { createPosition } from '../../../services/people/positions';
import { svc } from '../../context';
import { settingsDecisionProcedure } from '../../procedures';
import { created } from '../setup-router';
import { positionContract, positionSchema } from '../../../contract/settings/positions';

/** settings.positions.create: in an active unit; at most one head position per unit (409). */
export const createPositionProcedure = settingsDecisionProcedure
  .input(positionContract.create)
  .output(positionSchema)
  .mutation(async ({ ctx, input }) => {
    return created(ctx, await createPosition(svc(ctx), input));
  });
