import {
  insertCustomFieldDefinition,
  listCustomFieldDefinitions,
  lockCustomFieldDefinition,
  updateCustomFieldDefinitionRow,
  type CustomFieldDefinitionRow,
} from '../../db/queries/reference-data';
import type { CustomFieldRecordType, CustomFieldType } from '../../domain/receivables';
import { maxLength, notBlank, Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { changeRecord, checkName, createdRecord, deactivateRecord, setupListPage, uniquely, type RecordChange, type SetupFamily, type SetupListInput } from './setup';

/**
 * Custom field definitions (settings.customFields.*): the fields an organization adds to a record
 * type, checked on every write of such a record (services/custom-fields.ts). A definition's key,
 * type and record type never change (stored values were written against them); its label, options
 * and whether it is required may. A deactivated definition refuses new values.
 */

export const CUSTOM_FIELD_KEY = /^[a-z][a-z0-9_]*$/;
export const CUSTOM_FIELD_KEY_MAX = 50;
const OPTIONS_MAX = 100;
const OPTION_MAX = 200;

export function customFieldView(d: CustomFieldDefinitionRow) {
  return {
    id: d.id,
    record_type: d.recordType,
    key: d.key,
    label: d.label,
    type: d.type,
    options: d.options,
    required: d.required,
    active: d.active,
    revision: d.revision,
  };
}
export type CustomFieldView = ReturnType<typeof customFieldView>;

function checkOptions(r: Refusals, type: CustomFieldType, options: string[] | undefined): void {
  if (type !== 'select') {
    r.check(!options?.length, '/options', 'only a select field has options');
    return;
  }
  if (!r.check(Boolean(options?.length), '/options', 'a select field needs at least one option')) return;
  r.check(options!.length <= OPTIONS_MAX, '/options', `at most ${OPTIONS_MAX} options`);
  const seen = new Set<string>();
  for (const [i, option] of options!.entries()) {
    const at = `/options/${i}`;
    if (notBlank(r, option, at) && maxLength(r, option, OPTION_MAX, at)) r.check(!seen.has(option), at, 'appears twice');
    seen.add(option);
  }
}

const customFields: SetupFamily<CustomFieldDefinitionRow, CustomFieldView> = {
  entity: 'customFields',
  what: 'custom field definition',
  lock: (ctx, id) => lockCustomFieldDefinition(ctx.db, { organizationId: ctx.org.id, id }),
  write: (ctx, current, set) => updateCustomFieldDefinitionRow(ctx.db, { organizationId: ctx.org.id, id: current.id }, { ...set, revision: current.revision + 1 }),
  view: (_ctx, row) => customFieldView(row),
  inactive: (_ctx, row) => (row.active ? undefined : 'is already inactive'),
};

export interface CreateCustomFieldInput {
  record_type: CustomFieldRecordType;
  key: string;
  label: string;
  type: CustomFieldType;
  options?: string[];
  required?: boolean;
}

export async function createCustomField(ctx: ServiceContext, input: CreateCustomFieldInput): Promise<CustomFieldView> {
  const r = new Refusals();
  if (notBlank(r, input.key, '/key') && maxLength(r, input.key, CUSTOM_FIELD_KEY_MAX, '/key')) {
    r.check(CUSTOM_FIELD_KEY.test(input.key), '/key', 'must start with a lower-case letter and hold only lower-case letters, digits and underscores');
  }
  checkName(r, input.label, '/label');
  checkOptions(r, input.type, input.options);
  r.throwIfAny();
  const row = await uniquely(
    () =>
      insertCustomFieldDefinition(ctx.db, {
        organizationId: ctx.org.id,
        recordType: input.record_type,
        key: input.key,
        label: input.label.trim(),
        type: input.type,
        options: input.options ?? [],
        required: input.required ?? false,
      }),
    'custom_field_definitions_org_type_key',
    '/key',
    `A custom field ${input.key} of ${input.record_type.replace(/_/g, ' ')}s already exists`,
  );
  return createdRecord(ctx, customFields, row);
}

export interface UpdateCustomFieldInput extends RecordChange {
  label?: string;
  options?: string[];
  required?: boolean;
}

export async function updateCustomField(ctx: ServiceContext, input: UpdateCustomFieldInput): Promise<CustomFieldView> {
  return changeRecord(ctx, customFields, input, (current) => {
    const r = new Refusals();
    checkName(r, input.label, '/label');
    if (input.options !== undefined) checkOptions(r, current.type, input.options);
    r.throwIfAny();
    return { label: input.label?.trim(), options: input.options, required: input.required };
  });
}

export async function deactivateCustomField(ctx: ServiceContext, input: RecordChange): Promise<CustomFieldView> {
  return deactivateRecord(ctx, customFields, input, () => ({ active: false }));
}

export interface ListCustomFieldsInput extends SetupListInput {
  record_type?: CustomFieldRecordType;
}

export function listCustomFieldsPage(ctx: ServiceContext, input: ListCustomFieldsInput) {
  return setupListPage(ctx, 'settings.customFields', input, { record_type: input.record_type }, (q) => listCustomFieldDefinitions(ctx.db, { ...q, recordType: input.record_type }), (d) => d.key, customFieldView);
}
