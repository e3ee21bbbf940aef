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
import { recordSettingsChange } from './history';
import type { PageInput } from './page';
import { checkName, keysetPage, leavesUnchanged, lockedForChange, must, uniquely } from './rules';

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

const ENTITY = 'customFields';
const KEY_IN_USE = 'custom_field_definitions_org_type_key';

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

export interface CreateCustomFieldInput {
  record_type: CustomFieldRecordType;
  key: string;
  label: string;
  type: CustomFieldType;
  options?: string[];
  required?: boolean;
}

export async function createCustomFieldRow(ctx: ServiceContext, input: CreateCustomFieldInput): Promise<CustomFieldDefinitionRow> {
  const r = new Refusals();
  if (notBlank(r, input.key, '/key') && maxLength(r, input.key, CUSTOM_FIELD_KEY_MAX, '/key')) {
    r.check(CUSTOM_FIELD_KEY.test(input.key), '/key', 'must start with a lower-case letter and hold only lower-case letters, digits and underscores');
  }
  checkName(r, input.label, '/label');
  checkOptions(r, input.type, input.options);
  r.throwIfAny();
  const row = must(
    await uniquely(
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
      KEY_IN_USE,
      '/key',
      `A custom field ${input.key} of ${input.record_type.replace(/_/g, ' ')}s already exists`,
    ),
  );
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'create', before: null, after: customFieldView(row) });
  return row;
}

export async function createCustomField(ctx: ServiceContext, input: CreateCustomFieldInput): Promise<CustomFieldView> {
  return customFieldView(await createCustomFieldRow(ctx, input));
}

export interface UpdateCustomFieldInput {
  id: string;
  expected_revision: number;
  label?: string;
  options?: string[];
  required?: boolean;
}

export async function updateCustomField(ctx: ServiceContext, input: UpdateCustomFieldInput): Promise<CustomFieldView> {
  const current = lockedForChange(
    await lockCustomFieldDefinition(ctx.db, { organizationId: ctx.org.id, id: input.id }),
    input.expected_revision,
    'custom field definition',
  );
  const r = new Refusals();
  checkName(r, input.label, '/label');
  if (input.options !== undefined) checkOptions(r, current.type, input.options);
  r.throwIfAny();
  const patch = { label: input.label?.trim(), options: input.options, required: input.required };
  if (leavesUnchanged(current, patch)) return customFieldView(current);
  const row = must(
    await updateCustomFieldDefinitionRow(ctx.db, { organizationId: ctx.org.id, id: current.id }, { ...patch, revision: current.revision + 1 }),
  );
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'update', before: customFieldView(current), after: customFieldView(row) });
  return customFieldView(row);
}

export async function deactivateCustomField(ctx: ServiceContext, input: { id: string; expected_revision: number }): Promise<CustomFieldView> {
  const current = lockedForChange(
    await lockCustomFieldDefinition(ctx.db, { organizationId: ctx.org.id, id: input.id }),
    input.expected_revision,
    'custom field definition',
  );
  if (!current.active) return customFieldView(current);
  const row = must(await updateCustomFieldDefinitionRow(ctx.db, { organizationId: ctx.org.id, id: current.id }, { active: false, revision: current.revision + 1 }));
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'deactivate', before: customFieldView(current), after: customFieldView(row) });
  return customFieldView(row);
}

export interface ListCustomFieldsInput extends PageInput {
  record_type?: CustomFieldRecordType;
  include_inactive?: boolean;
}

export async function listCustomFieldsPage(ctx: ServiceContext, input: ListCustomFieldsInput) {
  const includeInactive = input.include_inactive ?? false;
  return keysetPage(
    ctx,
    'settings.customFields',
    input,
    { include_inactive: includeInactive, record_type: input.record_type },
    (after, limit) => listCustomFieldDefinitions(ctx.db, { organizationId: ctx.org.id, recordType: input.record_type, includeInactive, after, limit }),
    (d) => d.key,
    customFieldView,
  );
}
