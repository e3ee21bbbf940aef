import { router } from '../../trpc';
import { createExchangeRateProcedure } from './create-exchange-rate';
import { deactivateExchangeRateProcedure } from './deactivate-exchange-rate';
import { listExchangeRatesProcedure } from './list-exchange-rates';
import { updateExchangeRateProcedure } from './update-exchange-rate';

/** settings.exchangeRates.*: reference exchange rates by date (claim lines with fx_rate_source reference). */
export const exchangeRatesRouter = router({
  list: listExchangeRatesProcedure,
  create: createExchangeRateProcedure,
  update: updateExchangeRateProcedure,
  deactivate: deactivateExchangeRateProcedure,
});
