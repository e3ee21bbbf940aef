import { z } from 'zod';
import { deactivateMileageRate } from '../../../services/expenses/mileage-rates';
import { svc } from '../../context';
import { expectedRevision } from '../../http';
import { settingsWriteProcedure } from '../../procedures';
import { recordIdShape } from '../../schemas';
import { answerChanged } from '../fields';
import { mileageRateSchema } from './schemas';

/** settings.mileageRates.deactivate (If-Match): offered to no new claim line; lines already priced keep it. */
export const deactivateMileageRateProcedure = settingsWriteProcedure
  .input(z.strictObject(recordIdShape))
  .output(mileageRateSchema)
  .mutation(async ({ ctx, input }) => {
    const rate = await deactivateMileageRate(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) });
    answerChanged(ctx, rate.revision);
    return rate;
  });
