import { z } from 'zod';
import { CUSTOM_FIELD_RECORD_TYPES, CUSTOM_FIELD_TYPES } from '../../../domain/receivables';
import { createCustomField, deactivateCustomField, listCustomFieldsPage, updateCustomField } from '../../../services/settings/custom-field-definitions';
import { svc } from '../../context';
import { settingsReadProcedure, settingsWriteProcedure } from '../../procedures';
import { pageOutput, recordIdShape, uuid } from '../../schemas';
import { router } from '../../trpc';
import { answered, bool, deactivateInput, listInput, withRevision } from '../shared';

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

export const customFieldsRouter = router({
  list: settingsReadProcedure
    .input(listInput({ record_type: z.enum(CUSTOM_FIELD_RECORD_TYPES).optional() }))
    .output(pageOutput(customFieldSchema))
    .query(({ ctx, input }) => listCustomFieldsPage(svc(ctx), input)),
  create: settingsWriteProcedure
    .input(
      z.strictObject({
        record_type: z.enum(CUSTOM_FIELD_RECORD_TYPES),
        key: z.string().describe('Lower-case letters, digits and underscores, starting with a letter; at most 50'),
        label: z.string(),
        type: z.enum(CUSTOM_FIELD_TYPES),
        options: z.array(z.string()).optional().describe('The values a select field allows; only for select'),
        required: bool().optional(),
      }),
    )
    .output(customFieldSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await createCustomField(svc(ctx), input))),
  update: settingsWriteProcedure
    .input(z.strictObject({ ...recordIdShape, label: z.string().optional(), options: z.array(z.string()).optional(), required: bool().optional() }))
    .output(customFieldSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await updateCustomField(svc(ctx), withRevision(ctx, input)))),
  deactivate: settingsWriteProcedure
    .input(deactivateInput)
    .output(customFieldSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await deactivateCustomField(svc(ctx), withRevision(ctx, input)))),
});
