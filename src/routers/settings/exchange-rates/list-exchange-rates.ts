import { listExchangeRates } from '../../../services/expenses/exchange-rates';
import { svc } from '../../context';
import { settingsReadProcedure } from '../../procedures';
import { pageOutput } from '../../../contract/fields';
import { exchangeRateContract, exchangeRateSchema } from '../../../contract/settings/exchange-rates';

/** settings.exchangeRates.list: by currency, newest day first; deactivated ones with include_inactive. */
export const listExchangeRatesProcedure = settingsReadProcedure
  .input(exchangeRateContract.list)
  .output(pageOutput(exchangeRateSchema))
  .query(({ ctx, input }) => listExchangeRates(svc(ctx), input));
