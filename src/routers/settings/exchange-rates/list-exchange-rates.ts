import { z } from 'zod';
import { listExchangeRates } from '../../../services/expenses/exchange-rates';
import { svc } from '../../context';
import { settingsReadProcedure } from '../../procedures';
import { pageOutput } from '../../schemas';
import { currencyCode, listInputShape } from '../fields';
import { exchangeRateSchema } from './schemas';

/** settings.exchangeRates.list: by currency, newest day first; deactivated ones with include_inactive. */
export const listExchangeRatesProcedure = settingsReadProcedure
  .input(z.strictObject({ currency: currencyCode().optional(), ...listInputShape }))
  .output(pageOutput(exchangeRateSchema))
  .query(({ ctx, input }) => listExchangeRates(svc(ctx), input));
