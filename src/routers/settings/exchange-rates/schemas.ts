import { z } from 'zod';
import { rateOut, uuid } from '../../schemas';
import { currencyCode, day, timestamp } from '../fields';

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
