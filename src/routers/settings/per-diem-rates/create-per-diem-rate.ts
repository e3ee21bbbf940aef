import { z } from 'zod';
import { createPerDiemRate } from '../../../services/expenses/per-diem-rates';
import { svc } from '../../context';
import { settingsWriteProcedure } from '../../procedures';
import { answerCreated, currencyCode, day, text } from '../fields';
import { perDiemBandsInput, perDiemRateSchema } from './schemas';

/** settings.perDiemRates.create: a dated daily allowance with bands; amounts at the currency's places. */
export const createPerDiemRateProcedure = settingsWriteProcedure
  .input(
    z.strictObject({
      name: text(200),
      currency: currencyCode().optional(),
      valid_from: day(),
      valid_to: day().nullable().optional(),
      bands: perDiemBandsInput,
    }),
  )
  .output(perDiemRateSchema)
  .mutation(async ({ ctx, input }) => {
    const rate = await createPerDiemRate(svc(ctx), input);
    answerCreated(ctx, rate.revision);
    return rate;
  });
