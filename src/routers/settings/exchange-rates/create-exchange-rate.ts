import { createExchangeRate } from '../../../services/expenses/exchange-rates';
import { svc } from '../../context';
import { settingsWriteProcedure } from '../../procedures';
import { created } from '../setup-router';
import { exchangeRateContract, exchangeRateSchema } from '../../../contract/settings/exchange-rates';

/** settings.exchangeRates.create: one reference rate per currency and day (409); not the base currency (422). */
export const createExchangeRateProcedure = settingsWriteProcedure
  .input(exchangeRateContract.create)
  .output(exchangeRateSchema)
  .mutation(async ({ ctx, input }) => {
    return created(ctx, await createExchangeRate(svc(ctx), input));
  });
