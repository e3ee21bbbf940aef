import { z } from 'zod';
import { updateMileageRate } from '../../../services/expenses/mileage-rates';
import { svc } from '../../context';
import { expectedRevision } from '../../http';
import { settingsWriteProcedure } from '../../procedures';
import { recordIdShape } from '../../schemas';
import { answerChanged, currencyCode, day, text } from '../fields';
import { mileageBandsInput, mileageRateSchema } from './schemas';

/**
 * settings.mileageRates.update (If-Match). A rate claim lines were priced with keeps its bands and
 * currency (409 conflict): change a rate in force by a new dated rate, ending this one with valid_to.
 */
export const updateMileageRateProcedure = settingsWriteProcedure
  .input(
    z.strictObject({
      ...recordIdShape,
      name: text(200).optional(),
      currency: currencyCode().optional(),
      valid_from: day().optional(),
      valid_to: day().nullable().optional(),
      bands: mileageBandsInput.optional(),
    }),
  )
  .output(mileageRateSchema)
  .mutation(async ({ ctx, input }) => {
    const rate = await updateMileageRate(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) });
    answerChanged(ctx, rate.revision);
    return rate;
  });
