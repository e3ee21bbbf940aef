import { updatePosition } from '../../../services/people/positions';
import { svc } from '../../context';
import { expectedRevision } from '../../http';
import { settingsDecisionProcedure } from '../../procedures';
import { answered } from '../setup-router';
import { positionContract, positionSchema } from '../../../contract/settings/positions';

/** settings.positions.update (If-Match): a retired position is kept as it was (409); a reporting cycle is 422. */
export const updatePositionProcedure = settingsDecisionProcedure
  .input(positionContract.update)
  .output(positionSchema)
  .mutation(async ({ ctx, input }) => {
    return answered(ctx, await updatePosition(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) }));
  });
