import { z } from 'zod';
import { currencyCode, day, listInputShape, recordIdShape, text, uuid } from '../fields';

/**
 * The schemas both dated rate families share (settings.mileageRates, settings.perDiemRates), around
 * their own bands: a name, a currency (the base currency when absent), the days the rate is in force
 * and 1 to 20 bands. The list's `on` keeps the rates in force on that day.
 */
export function datedRateContract<BandIn extends z.ZodType, BandOut extends z.ZodType>(id: string, bandIn: BandIn, bandOut: BandOut) {
  const bands = z.array(bandIn).min(1, { message: 'must have at least one band' }).max(20, { message: 'must have at most 20 bands' });
  return {
    record: z
      .object({
        id: uuid(),
        name: z.string(),
        currency: currencyCode(),
        valid_from: day(),
        valid_to: day().nullable(),
        active: z.boolean(),
        bands: z.array(bandOut),
        revision: z.int(),
      })
      .meta({ id }),
    list: z.strictObject({ on: day().optional(), ...listInputShape }),
    create: z.strictObject({
      name: text(200),
      currency: currencyCode().optional(),
      valid_from: day(),
      valid_to: day().nullable().optional(),
      bands,
    }),
    update: z.strictObject({
      ...recordIdShape,
      name: text(200).optional(),
      currency: currencyCode().optional(),
      valid_from: day().optional(),
      valid_to: day().nullable().optional(),
      bands: bands.optional(),
    }),
  };
}
