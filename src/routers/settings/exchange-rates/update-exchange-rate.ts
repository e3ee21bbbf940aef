import { updateExchangeRate } from '../../../services/expenses/exchange-rates';
import { svc } from '../../context';
import { expectedRevision } from '../../http';
import { settingsWriteProcedure } from '../../procedures';
import { answered } from '../setup-router';
import { exchangeRateContract, exchangeRateSchema } from '../../../contract/settings/exchange-rates';

/** settings.exchangeRates.update (If-Match): corrects the rate; claim lines keep the rate they were priced with. */
export const updateExchangeRateProcedure = settingsWriteProcedure
  .input(exchangeRateContract.update)
  .output(exchangeRateSchema)
  .mutation(async ({ ctx, input }) => {
    return answered(ctx, await updateExchangeRate(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) }));
  });
