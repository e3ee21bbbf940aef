import { z } from 'zod';
import { createMileageRate } from '../../../services/expenses/mileage-rates';
import { svc } from '../../context';
import { settingsWriteProcedure } from '../../procedures';
import { answerCreated, currencyCode, day, text } from '../fields';
import { mileageBandsInput, mileageRateSchema } from './schemas';

/** settings.mileageRates.create: a dated rate per km with contiguous bands from 0 km; currency defaults to the base currency. */
export const createMileageRateProcedure = settingsWriteProcedure
  .input(
    z.strictObject({
      name: text(200),
      currency: currencyCode().optional(),
      valid_from: day(),
      valid_to: day().nullable().optional(),
      bands: mileageBandsInput,
    }),
  )
  .output(mileageRateSchema)
  .mutation(async ({ ctx, input }) => {
    const rate = await createMileageRate(svc(ctx), input);
    answerCreated(ctx, rate.revision);
    return rate;
  });
