import { z } from 'zod';
import { rateOut, uuid } from '../../schemas';
import { currencyCode, day, decimalInput, text } from '../fields';

export const mileageBandInput = z.strictObject({
  band: text(50),
  from_km: decimalInput(),
  to_km: decimalInput().nullable().optional().describe('Exclusive; null (or absent) for the open last band'),
  rate_per_km: decimalInput(),
});

/** 1 to 20 bands in order, contiguous from 0 km (the service checks the order and the joins). */
export const mileageBandsInput = z.array(mileageBandInput).min(1, { message: 'must have at least one band' }).max(20, { message: 'must have at most 20 bands' });

export const mileageRateSchema = z
  .object({
    id: uuid(),
    name: z.string(),
    currency: currencyCode(),
    valid_from: day(),
    valid_to: day().nullable(),
    active: z.boolean(),
    bands: z.array(z.object({ band: z.string(), from_km: rateOut(), to_km: rateOut().nullable(), rate_per_km: rateOut() })),
    revision: z.int(),
  })
  .meta({ id: 'MileageRate' });

/** The list input both rate lists take: `on` keeps the rates in force on that day. */
export const rateListFilters = { on: day().optional() };
