import { z } from 'zod';
import { updatePerDiemRate } from '../../../services/expenses/per-diem-rates';
import { svc } from '../../context';
import { expectedRevision } from '../../http';
import { settingsWriteProcedure } from '../../procedures';
import { recordIdShape } from '../../schemas';
import { answerChanged, currencyCode, day, text } from '../fields';
import { perDiemBandsInput, perDiemRateSchema } from './schemas';

/**
 * settings.perDiemRates.update (If-Match). A rate claim lines were priced with keeps its bands and
 * currency (409 conflict): change a rate in force by a new dated rate, ending this one with valid_to.
 */
export const updatePerDiemRateProcedure = settingsWriteProcedure
  .input(
    z.strictObject({
      ...recordIdShape,
      name: text(200).optional(),
      currency: currencyCode().optional(),
      valid_from: day().optional(),
      valid_to: day().nullable().optional(),
      bands: perDiemBandsInput.optional(),
    }),
  )
  .output(perDiemRateSchema)
  .mutation(async ({ ctx, input }) => {
    const rate = await updatePerDiemRate(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) });
    answerChanged(ctx, rate.revision);
    return rate;
  });
