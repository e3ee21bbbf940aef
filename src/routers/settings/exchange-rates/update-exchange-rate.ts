import { z } from 'zod';
import { updateExchangeRate } from '../../../services/expenses/exchange-rates';
import { svc } from '../../context';
import { expectedRevision } from '../../http';
import { settingsWriteProcedure } from '../../procedures';
import { recordIdShape } from '../../schemas';
import { answerChanged, decimalInput } from '../fields';
import { exchangeRateSchema } from './schemas';

/** settings.exchangeRates.update (If-Match): corrects the rate; claim lines keep the rate they were priced with. */
export const updateExchangeRateProcedure = settingsWriteProcedure
  .input(z.strictObject({ ...recordIdShape, rate: decimalInput().optional() }))
  .output(exchangeRateSchema)
  .mutation(async ({ ctx, input }) => {
    const rate = await updateExchangeRate(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) });
    answerChanged(ctx, rate.revision);
    return rate;
  });
