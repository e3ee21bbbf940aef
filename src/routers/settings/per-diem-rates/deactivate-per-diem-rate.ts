import { z } from 'zod';
import { deactivatePerDiemRate } from '../../../services/expenses/per-diem-rates';
import { svc } from '../../context';
import { expectedRevision } from '../../http';
import { settingsWriteProcedure } from '../../procedures';
import { recordIdShape } from '../../schemas';
import { answerChanged } from '../fields';
import { perDiemRateSchema } from './schemas';

/** settings.perDiemRates.deactivate (If-Match): offered to no new claim line; lines already priced keep it. */
export const deactivatePerDiemRateProcedure = settingsWriteProcedure
  .input(z.strictObject(recordIdShape))
  .output(perDiemRateSchema)
  .mutation(async ({ ctx, input }) => {
    const rate = await deactivatePerDiemRate(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) });
    answerChanged(ctx, rate.revision);
    return rate;
  });
