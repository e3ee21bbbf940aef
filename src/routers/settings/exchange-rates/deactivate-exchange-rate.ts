import { z } from 'zod';
import { deactivateExchangeRate } from '../../../services/expenses/exchange-rates';
import { svc } from '../../context';
import { expectedRevision } from '../../http';
import { settingsWriteProcedure } from '../../procedures';
import { recordIdShape } from '../../../contract/fields';
import { answered } from '../setup-router';
import { exchangeRateSchema } from '../../../contract/settings/exchange-rates';

/** settings.exchangeRates.deactivate (If-Match): no longer the reference of its day; the day is free again. */
export const deactivateExchangeRateProcedure = settingsWriteProcedure
  .input(z.strictObject(recordIdShape))
  .output(exchangeRateSchema)
  .mutation(async ({ ctx, input }) => {
    return answered(ctx, await deactivateExchangeRate(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) }));
  });
