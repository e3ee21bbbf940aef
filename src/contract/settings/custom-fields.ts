import { z } from 'zod';
import { CUSTOM_FIELD_RECORD_TYPES, CUSTOM_FIELD_TYPES } from '../../domain/receivables';
import { flag, listInput, recordIdShape, uuid } from '../fields';

/**
 * settings.customFields.*: custom field definitions. Key, type and record type are fixed once
 * created (an update sending them is refused 400 as unknown fields); label, options and required may change.
 */

export const customFieldSchema = z.object({
  id: uuid(),
  record_type: z.enum(CUSTOM_FIELD_RECORD_TYPES),
  key: z.string(),
  label: z.string(),
  type: z.enum(CUSTOM_FIELD_TYPES),
  options: z.array(z.string()),
  required: z.boolean(),
  active: z.boolean(),
  revision: z.int(),
});

/** The schemas of settings.customFields.* (routers/settings/setup-router.ts). */
export const customFieldContract = {
  record: customFieldSchema,
  list: listInput({ record_type: z.enum(CUSTOM_FIELD_RECORD_TYPES).optional() }),
  create: z.strictObject({
    record_type: z.enum(CUSTOM_FIELD_RECORD_TYPES),
    key: z.string().describe('Lower-case letters, digits and underscores, starting with a letter; at most 50'),
    label: z.string(),
    type: z.enum(CUSTOM_FIELD_TYPES),
    options: z.array(z.string()).optional().describe('The values a select field allows; only for select'),
    required: flag().optional(),
  }),
  update: z.strictObject({ ...recordIdShape, label: z.string().optional(), options: z.array(z.string()).optional(), required: flag().optional() }),
};
