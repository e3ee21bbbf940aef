import { z } from 'zod';
import { createExchangeRate } from '../../../services/expenses/exchange-rates';
import { svc } from '../../context';
import { settingsWriteProcedure } from '../../procedures';
import { answerCreated, currencyCode, day, decimalInput } from '../fields';
import { exchangeRateSchema } from './schemas';

/** settings.exchangeRates.create: one reference rate per currency and day (409); not the base currency (422). */
export const createExchangeRateProcedure = settingsWriteProcedure
  .input(z.strictObject({ currency: currencyCode(), rate_date: day(), rate: decimalInput().describe('Base-currency units per one unit; positive, up to 10 places') }))
  .output(exchangeRateSchema)
  .mutation(async ({ ctx, input }) => {
    const rate = await createExchangeRate(svc(ctx), input);
    answerCreated(ctx, rate.revision);
    return rate;
  });
