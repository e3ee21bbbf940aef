import { z } from 'zod';

/** Shared building blocks of input and output schemas. */
export const uuid = () => z.guid({ message: 'must be a UUID' });

/** Path parameter `{id}`. */
export const idInput = z.strictObject({ id: uuid().describe('The record id') });

export const addressSchema = z
  .object({
    line1: z.string().optional(),
    line2: z.string().optional(),
    city: z.string().optional(),
    postcode: z.string().optional(),
    state: z.string().optional(),
  })
  .meta({ id: 'Address' });

export const customFieldsSchema = z.record(z.string(), z.string());
