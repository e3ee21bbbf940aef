import { z } from 'zod';
import { amountOut, uuid } from '../../schemas';
import { currencyCode, day, decimalInput, text } from '../fields';

export const perDiemBandsInput = z
  .array(z.strictObject({ band: text(50), amount_per_day: decimalInput() }))
  .min(1, { message: 'must have at least one band' })
  .max(20, { message: 'must have at most 20 bands' });

export const perDiemRateSchema = z
  .object({
    id: uuid(),
    name: z.string(),
    currency: currencyCode(),
    valid_from: day(),
    valid_to: day().nullable(),
    active: z.boolean(),
    bands: z.array(z.object({ band: z.string(), amount_per_day: amountOut().describe("At the currency's minor units") })),
    revision: z.int(),
  })
  .meta({ id: 'PerDiemRate' });
