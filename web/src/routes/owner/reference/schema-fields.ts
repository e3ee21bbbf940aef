import type { z } from 'zod';

/**
 * A set-up procedure's input schema read as form fields: each field's kind (from the zod type and
 * format), whether it may be left out or cleared, an enum's choices, a list of rows' own fields.
 * The form keeps what the person typed (strings, check marks, rows); `toInput` turns it into the
 * procedure's input, which the same schema then checks before anything is sent.
 */

export type FieldKind = 'text' | 'integer' | 'boolean' | 'enum' | 'date' | 'id' | 'list' | 'rows';

export interface FieldShape {
  name: string;
  kind: FieldKind;
  optional: boolean;
  nullable: boolean;
  description?: string;
  options?: string[];
  rows?: FieldShape[];
}

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  entries?: Record<string, string>;
}

const defOf = (s: z.ZodType) => (s as unknown as { def: Def }).def;

function kindOf(schema: z.ZodType): Omit<FieldShape, 'name' | 'optional' | 'nullable'> {
  const def = defOf(schema);
  const format = (schema as unknown as { format?: string | null }).format;
  switch (def.type) {
    case 'pipe':
      return kindOf(def.in!);
    case 'boolean':
      return { kind: 'boolean' };
    case 'number':
      return { kind: 'integer' };
    case 'enum':
      return { kind: 'enum', options: Object.values(def.entries ?? {}) };
    case 'array': {
      const element = def.element!;
      if (defOf(element).type === 'object') return { kind: 'rows', rows: shapeOf(element as z.ZodObject) };
      return { kind: 'list' };
    }
    default:
      if (format === 'guid' || format === 'uuid') return { kind: 'id' };
      if (format === 'date') return { kind: 'date' };
      return { kind: 'text' };
  }
}

function fieldOf(name: string, schema: z.ZodType): FieldShape {
  let s = schema;
  let optional = false;
  let nullable = false;
  for (;;) {
    const def = defOf(s);
    if (def.type === 'optional') optional = true;
    else if (def.type === 'nullable') nullable = true;
    else break;
    s = def.innerType!;
  }
  const description = schema.description ?? s.description;
  return { name, optional, nullable, ...kindOf(s), ...(description ? { description } : {}) };
}

/** The fields of an object schema, in its order. */
export function shapeOf(schema: z.ZodObject): FieldShape[] {
  return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, s]) => fieldOf(name, s));
}

/** A record's value as the form holds it. */
export function rawOf(value: unknown, field: FieldShape): unknown {
  if (field.kind === 'boolean') return value === true;
  if (field.kind === 'list') return Array.isArray(value) ? value.join('\n') : '';
  if (field.kind === 'rows') {
    const rows = Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
    return rows.map((row) => rawRecord(row, field.rows ?? []));
  }
  return value === null || value === undefined ? '' : String(value);
}

export function rawRecord(record: Record<string, unknown> | undefined, fields: FieldShape[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((f) => [f.name, rawOf(record?.[f.name], f)]));
}

/** What the form holds as the procedure's value: blank is absent, or null where the field may be cleared. */
export function valueOf(raw: unknown, field: FieldShape): unknown {
  if (field.kind === 'boolean') return raw === true;
  if (field.kind === 'list') {
    const items = String(raw ?? '')
      .split('\n')
      .map((s) => s.trim())
      .filter(Boolean);
    return items;
  }
  if (field.kind === 'rows') {
    const rows = Array.isArray(raw) ? (raw as Record<string, unknown>[]) : [];
    return rows.map((row) => {
      const out: Record<string, unknown> = {};
      for (const f of field.rows ?? []) {
        const v = valueOf(row[f.name], f);
        if (v !== undefined) out[f.name] = v;
      }
      return out;
    });
  }
  const text = String(raw ?? '');
  if (text.trim() === '') return field.nullable ? null : field.optional ? undefined : text;
  if (field.kind === 'integer' && /^-?\d+$/.test(text.trim())) return Number(text.trim());
  return text;
}

/**
 * The procedure's input from the form: on create every field given; on update the record's id and
 * only the fields that differ from the record as it was read.
 */
export function toInput(raw: Record<string, unknown>, fields: FieldShape[], before?: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (f.name === 'id') continue;
    const value = valueOf(raw[f.name], f);
    if (value === undefined) continue;
    if (before && JSON.stringify(value) === JSON.stringify(valueOf(before[f.name], f))) continue;
    out[f.name] = value;
  }
  if (before && typeof before.id === 'string') out.id = before.id;
  return out;
}
