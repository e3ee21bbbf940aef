import { z } from 'zod';
import { currencyCode, day, decimalInput, listInputShape, rateOut, recordIdShape, timestamp, uuid } from '../fields';

export const exchangeRateSchema = z
  .object({
    id: uuid(),
    currency: currencyCode(),
    base_currency: currencyCode(),
    rate_date: day(),
    rate: rateOut().describe('Base-currency units per one unit of currency'),
    active: z.boolean(),
    revision: z.int(),
    created_at: timestamp(),
  })
  .meta({ id: 'ExchangeRate' });

/** The inputs of settings.exchangeRates.* (one reference rate per currency and day; not the base currency). */
export const exchangeRateContract = {
  record: exchangeRateSchema,
  list: z.strictObject({ currency: currencyCode().optional(), ...listInputShape }),
  create: z.strictObject({ currency: currencyCode(), rate_date: day(), rate: decimalInput().describe('Base-currency units per one unit; positive, up to 10 places') }),
  update: z.strictObject({ ...recordIdShape, rate: decimalInput().optional() }),
};
