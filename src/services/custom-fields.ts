import type { Database } from '../db/client';
import { findCustomFieldDefinitions } from '../db/queries/custom-field-definitions';
import type { FieldError } from '../lib/errors';
import { DECIMAL_PATTERN } from '../lib/money';

const MAX_TEXT = 500;

function isIsoDate(v: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

/**
 * Checks custom field values against the organization's active definitions for a record type.
 * Answers one error per refused key, at `/custom_fields/<key>`: unknown or retired keys, values of
 * the wrong form, and required fields left out.
 */
export async function checkCustomFields(
  db: Database,
  q: {
    organizationId: string;
    recordType: 'receivable_document' | 'customer' | 'expense_claim';
    values: Record<string, string>;
    /** The definitions when the caller has them (org-config-cache); read here otherwise. */
    definitions?: Promise<Awaited<ReturnType<typeof findCustomFieldDefinitions>>>;
  },
): Promise<FieldError[]> {
  const defs = await (q.definitions ?? findCustomFieldDefinitions(db, { organizationId: q.organizationId, recordType: q.recordType }));
  const active = new Map(defs.filter((d) => d.active).map((d) => [d.key, d]));
  const errors: FieldError[] = [];
  const at = (key: string) => `/custom_fields/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  for (const [key, value] of Object.entries(q.values)) {
    const def = active.get(key);
    if (!def) {
      errors.push({ pointer: at(key), detail: 'is not an active custom field of this record type' });
      continue;
    }
    const v = value.trim();
    if (!v) {
      errors.push({ pointer: at(key), detail: 'must not be blank' });
      continue;
    }
    switch (def.type) {
      case 'text':
        if (value.length > MAX_TEXT) errors.push({ pointer: at(key), detail: `must be at most ${MAX_TEXT} characters` });
        break;
      case 'number':
        if (!DECIMAL_PATTERN.test(value)) errors.push({ pointer: at(key), detail: 'must be a decimal number such as "12.5"' });
        break;
      case 'date':
        if (!isIsoDate(value)) errors.push({ pointer: at(key), detail: 'must be a date YYYY-MM-DD' });
        break;
      case 'boolean':
        if (value !== 'true' && value !== 'false') errors.push({ pointer: at(key), detail: 'must be "true" or "false"' });
        break;
      case 'select':
        if (!def.options.includes(value)) errors.push({ pointer: at(key), detail: `must be one of ${def.options.join(', ')}` });
        break;
    }
  }
  for (const def of active.values()) {
    if (def.required && !(def.key in q.values)) errors.push({ pointer: at(def.key), detail: `is required (${def.label})` });
  }
  return errors;
}
