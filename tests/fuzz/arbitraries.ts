import fc from 'fast-check';
import { HOSTILE_STRINGS, HOSTILE_VALUES, nest } from './hostile';

/**
 * fast-check arbitraries from JSON Schema (the OpenAPI document's schemas and `z.toJSONSchema` of the
 * tRPC inputs), with identifiers drawn from what the server holds (the demo data set and every id the
 * fuzz has seen in an answer), and the mutations that turn a well-formed value into a hostile one.
 */

type Schema = Record<string, any> | boolean | undefined;

/** What the server holds, grown as answers come back. */
export interface Pools {
  ids: string[];
  /** Ids by the kind of record they name (kindOf of the collection or field they came in). */
  byKind: Map<string, string[]>;
  customFieldKeys: string[];
  /** Bodies (tRPC inputs) each operation accepted (2xx), by operation: what mutations start from. */
  accepted: Map<string, unknown[]>;
}

/** One of the bodies an operation accepted so far, else a generated one. */
export function acceptedArb(pools: Pools, op: string, generated: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  // Codes and keys made new, so that a create is not refused only for repeating one.
  return fc.tuple(pick(() => pools.accepted.get(op) ?? [], generated), fc.nat()).map(([v, n]) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
    const o = { ...(v as Record<string, unknown>) };
    if (typeof o.code === 'string') o.code = `${o.code.slice(0, 12)}-${n.toString(36)}`;
    if (typeof o.key === 'string') o.key = `${o.key.slice(0, 20)}_${n.toString(36)}`;
    return o;
  });
}

export interface SchemaContext {
  /** The kind of record an `id` field of this operation names. */
  idKind?: string;
  /** `#/components/schemas/X` and `#/$defs/X` targets. */
  resolve(ref: string): Schema;
  pools: Pools;
}

const pick = <T>(list: () => readonly T[], fallback: fc.Arbitrary<T>) =>
  fc.nat().chain((i) => {
    const l = list();
    return l.length ? fc.constant(l[i % l.length]!) : fallback;
  });

/** 'customer_id', 'customers', 'Customer' → 'customer'; 'expense_categories' → 'expensecategory'. */
export function kindOf(name: string): string {
  return name
    .toLowerCase()
    .replace(/_ids?$/, '')
    .replace(/[^a-z]/g, '')
    .replace(/ies$/, 'y')
    .replace(/s$/, '');
}

const kindsMatch = (a: string, b: string) => a.length > 1 && b.length > 1 && (a.endsWith(b) || b.endsWith(a));

export function uuidArb(pools: Pools, kind?: string): fc.Arbitrary<string> {
  const known = pick(() => pools.ids, fc.uuid());
  const cache = new Map<number, string[]>();
  const ofKind = kind
    ? pick(() => {
        // The ids of every matching kind (cached while the pool does not grow).
        const size = pools.ids.length;
        let l = cache.get(size);
        if (!l) {
          l = [...pools.byKind].filter(([k]) => kindsMatch(k, kind)).flatMap(([, ids]) => ids);
          cache.clear();
          cache.set(size, l);
        }
        return l;
      }, known)
    : known;
  return fc.oneof({ weight: 12, arbitrary: ofKind }, { weight: 3, arbitrary: known }, { weight: 2, arbitrary: fc.uuid() }, { weight: 1, arbitrary: ofKind.map((s) => s.toUpperCase()) });
}

const isoDate = fc.date({ min: new Date('2019-01-01T00:00:00Z'), max: new Date('2031-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
const edgeDates = fc.constantFrom('0000-01-01', '0001-01-01', '1899-12-31', '9999-12-31', '2024-02-29', '2023-02-29', '2024-13-01', '2024-1-1');
const dateArb = fc.oneof({ weight: 8, arbitrary: isoDate }, { weight: 1, arbitrary: edgeDates });
const dateTimeArb = fc.oneof(
  { weight: 8, arbitrary: fc.date({ min: new Date('2019-01-01T00:00:00Z'), max: new Date('2031-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString()) },
  { weight: 1, arbitrary: fc.constantFrom('0000-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '2024-01-01T25:00:00Z', '2024-01-01') },
);
const decimalArb = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 100_000 }).map((n) => (n / 100).toFixed(2)) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 1000 }).map(String) },
  { weight: 1, arbitrary: fc.constantFrom('0', '-1.00', '0.0001', '1.234567', '99999999999999999999.99', '-0', '1') },
);
const CURRENCIES = ['MYR', 'USD', 'SGD', 'EUR', 'XXX', 'myr'];
const TEXT_WORDS = ['Office chairs', 'Consulting', 'PO-1234', 'Kuala Lumpur', 'Taxi to airport', 'Jalan Ampang 1', 'Siti', 'invoice', 'a'];

function stringArb(s: Record<string, any>, name: string | undefined, ctx: SchemaContext): fc.Arbitrary<string> {
  if (s.format === 'uuid') return uuidArb(ctx.pools, name === undefined ? undefined : name === 'id' ? ctx.idKind : kindOf(name));
  if (s.format === 'date') return dateArb;
  if (s.format === 'date-time') return dateTimeArb;
  if (s.format === 'email') return fc.oneof(fc.emailAddress(), fc.constant('owner@example.com'));
  if (typeof s.pattern === 'string' && /\\d\+\(\\\.\\d\+\)\?/.test(s.pattern)) return decimalArb;
  if (name && /currency/.test(name)) return fc.oneof({ weight: 6, arbitrary: fc.constant('MYR') }, { weight: 2, arbitrary: fc.constant('USD') }, { weight: 1, arbitrary: fc.constantFrom(...CURRENCIES) });
  if (name === 'email') return fc.oneof({ weight: 4, arbitrary: fc.emailAddress() }, { weight: 1, arbitrary: fc.string({ maxLength: 20 }) });
  if (name === 'country_code' || name === 'country') return fc.constantFrom('MY', 'SG', 'US', 'my', 'ZZ');
  if (name === 'unit_code') return fc.constantFrom('C62', 'EA', 'H87', 'KGM', 'XX');
  if (name === 'time_zone') return fc.constantFrom('Asia/Kuala_Lumpur', 'UTC', 'Mars/Olympus');
  if (name === 'month') return fc.constantFrom('2026-01', '2025-12', '0000-00', '2026-13');
  const min = s.minLength ?? 0;
  const max = Math.max(min, Math.min(s.maxLength ?? 40, 60));
  if (typeof s.pattern === 'string' && !/[\u0000-\u001f]|\\u00/.test(s.pattern)) {
    try {
      const re = new RegExp(s.pattern, 'u');
      return fc.oneof(
        { weight: 3, arbitrary: fc.stringMatching(re).filter((v) => v.length >= min && v.length <= Math.max(max, 100)) },
        { weight: 1, arbitrary: fc.string({ minLength: min, maxLength: max }) },
      );
    } catch {
      /* a pattern JavaScript cannot read: plain strings below */
    }
  }
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...TEXT_WORDS).filter((v) => v.length >= min && v.length <= max) },
    { weight: 3, arbitrary: fc.string({ minLength: min, maxLength: max }) },
    { weight: 1, arbitrary: fc.string({ minLength: min, maxLength: max, unit: 'grapheme' }) },
  );
}

function numberArb(s: Record<string, any>, integer: boolean, name?: string): fc.Arbitrary<number> {
  // Most business rules take small non-negative numbers (page sizes, days, levels): mostly those.
  if (name === 'limit') return fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 1, max: 100 }) }, { weight: 1, arbitrary: fc.constantFrom(0, 101, -1) });
  const lo = Math.max(typeof s.minimum === 'number' ? s.minimum : -1000, typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : -1e9, -1000);
  const hiRaw = Math.min(typeof s.maximum === 'number' ? s.maximum : 100_000, typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum - 1 : 1e9, 100_000);
  const hi = Math.max(lo, hiRaw);
  const inRange = integer ? fc.integer({ min: Math.ceil(lo), max: Math.floor(hi) }) : fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true });
  const small = integer ? fc.integer({ min: Math.max(Math.ceil(lo), 0), max: Math.max(Math.min(Math.floor(hi), 60), Math.max(Math.ceil(lo), 0)) }) : inRange;
  const edges = fc.constantFrom(...[s.minimum, s.maximum, 0, -1].filter((v): v is number => typeof v === 'number'));
  return fc.oneof({ weight: 6, arbitrary: small }, { weight: 2, arbitrary: inRange }, { weight: 1, arbitrary: edges });
}

const anyJson = fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean(), fc.constant(null));

/** An arbitrary of values a schema accepts (mostly: patterns and rules beyond the schema are not known). */
export function schemaArb(schema: Schema, ctx: SchemaContext, name?: string, depth = 0): fc.Arbitrary<unknown> {
  if (schema === undefined || schema === true || (typeof schema === 'object' && Object.keys(schema).length === 0)) return anyJson;
  if (schema === false) return fc.constant(undefined);
  const s = schema;
  if (depth > 12) return fc.constant(null);
  if (typeof s.$ref === 'string') return schemaArb(ctx.resolve(s.$ref), ctx, name, depth + 1);
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum);
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(s[key])) return fc.oneof(...s[key].map((sub: Schema) => schemaArb(sub, ctx, name, depth + 1)));
  }
  if (Array.isArray(s.allOf)) {
    const merged = s.allOf.reduce(
      (acc: Record<string, any>, sub: Schema) => {
        const r = typeof sub === 'object' && sub.$ref ? ctx.resolve(sub.$ref) : sub;
        if (typeof r !== 'object') return acc;
        return { ...acc, ...r, properties: { ...acc.properties, ...r.properties }, required: [...(acc.required ?? []), ...(r.required ?? [])] };
      },
      { properties: {}, required: [] },
    );
    const { allOf: _a, ...rest } = s;
    return schemaArb({ ...rest, ...merged }, ctx, name, depth + 1);
  }
  if (Array.isArray(s.type)) return fc.oneof(...s.type.map((t: string) => schemaArb({ ...s, type: t }, ctx, name, depth + 1)));
  const type = s.type ?? (s.properties ? 'object' : s.items ? 'array' : undefined);
  switch (type) {
    case 'string':
      return stringArb(s, name, ctx);
    case 'integer':
      return numberArb(s, true, name);
    case 'number':
      return numberArb(s, false, name);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const min = s.minItems ?? 0;
      const max = Math.max(min, Math.min(s.maxItems ?? 3, 3));
      return fc.array(schemaArb(s.items, ctx, name, depth + 1), { minLength: min, maxLength: max });
    }
    case 'object': {
      const props: Record<string, Schema> = s.properties ?? {};
      if (Object.keys(props).length === 0 && s.additionalProperties && s.additionalProperties !== true) {
        const keys = /custom_fields/.test(name ?? '') ? pick(() => ctx.pools.customFieldKeys, fc.string({ minLength: 1, maxLength: 10 })) : fc.string({ minLength: 1, maxLength: 12 });
        return fc.dictionary(keys, schemaArb(s.additionalProperties, ctx, name, depth + 1), { maxKeys: 3 });
      }
      const required = new Set<string>(s.required ?? []);
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      // A cursor only the service issues: left out (mutations still send hostile ones).
      for (const [k, v] of Object.entries(props)) if (k !== 'cursor' || required.has(k)) model[k] = schemaArb(v, ctx, k, depth + 1);
      return fc.record(model, { requiredKeys: Object.keys(model).filter((k) => required.has(k)) });
    }
    default:
      return anyJson;
  }
}

/** What a mutation did, and whether the server must refuse the result whatever else it holds. */
export interface Mutated {
  value: unknown;
  mutation: string;
  /** Set when the contract says this input is refused (docs/design.md §6, issue 14). */
  mustRefuse?: string;
}

export type MutationChoice = { kind: number; at: number; with: number };
export const mutationChoiceArb: fc.Arbitrary<MutationChoice> = fc.record({ kind: fc.nat(), at: fc.nat(), with: fc.nat() });

type Path = (string | number)[];

function paths(v: unknown, at: Path = [], out: { path: Path; value: unknown }[] = [], depth = 0): { path: Path; value: unknown }[] {
  out.push({ path: at, value: v });
  if (depth > 20) return out;
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...at, i], out, depth + 1));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) paths(x, [...at, k], out, depth + 1);
  return out;
}

function setAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy: any = Array.isArray(root) ? [...root] : { ...(root as object) };
  const [head, ...rest] = path;
  copy[head as any] = setAt(copy[head as any], rest, value);
  return copy;
}

function defineOwn(obj: Record<string, unknown>, key: string, value: unknown) {
  const copy: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) copy[k] = v;
  Object.defineProperty(copy, key, { value, enumerable: true, configurable: true, writable: true });
  return copy;
}

const otherType = (v: unknown): unknown =>
  typeof v === 'string' ? (/^\d/.test(v) ? Number(v) || 1 : 42) : typeof v === 'number' ? String(v) : typeof v === 'boolean' ? String(v) : Array.isArray(v) ? { 0: v[0] ?? null } : v === null ? 'null' : [v];

/** Characters the contract refuses in any string (issue 14: 400 naming the field). */
export const unstorable = (s: string) => /\u0000/.test(s) || /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

const UNSTORABLE = HOSTILE_STRINGS.filter(unstorable);

const MUTATIONS = ['drop', 'type', 'unknown', 'proto', 'hostile-string', 'hostile-value', 'huge-number', 'long-string', 'deep', 'null'] as const;

/** One mutation of a well-formed value, chosen by `choice` (so a seed replays it). */
export function mutate(value: unknown, choice: MutationChoice): Mutated {
  const kind = MUTATIONS[choice.kind % MUTATIONS.length]!;
  const all = paths(value);
  const leaves = all.filter((p) => p.path.length > 0);
  const objects = all.filter((p) => p.value && typeof p.value === 'object' && !Array.isArray(p.value));
  const strings = all.filter((p) => typeof p.value === 'string');
  const numbers = all.filter((p) => typeof p.value === 'number');
  const nth = <T>(l: T[]) => l[choice.at % l.length];
  switch (kind) {
    case 'drop': {
      const t = nth(leaves);
      if (!t) break;
      const parentPath = t.path.slice(0, -1);
      const parent = all.find((p) => p.path.length === parentPath.length && p.path.every((x, i) => x === parentPath[i]))!.value;
      const key = t.path[t.path.length - 1]!;
      const copy: any = Array.isArray(parent) ? parent.filter((_, i) => i !== key) : Object.fromEntries(Object.entries(parent as object).filter(([k]) => k !== key));
      return { value: setAt(value, parentPath, copy), mutation: `drop ${t.path.join('.')}` };
    }
    case 'type': {
      const t = nth(leaves);
      if (!t) break;
      return { value: setAt(value, t.path, otherType(t.value)), mutation: `type ${t.path.join('.')}` };
    }
    case 'unknown': {
      // Only the top level: nested objects may be open maps (custom fields).
      if (!value || typeof value !== 'object' || Array.isArray(value)) break;
      return { value: { ...(value as object), fuzz_unknown_field: 1 }, mutation: 'unknown field', mustRefuse: 'an unknown field' };
    }
    case 'proto': {
      const t = nth(objects);
      if (!t) break;
      const key = choice.with % 2 ? '__proto__' : 'constructor';
      return { value: setAt(value, t.path, defineOwn(t.value as Record<string, unknown>, key, { polluted: true })), mutation: `${key} key at /${t.path.join('/')}`, mustRefuse: `a ${key} key` };
    }
    case 'hostile-string': {
      const t = nth(strings.length ? strings : leaves);
      if (!t) break;
      // One time in three, text the database cannot store (NUL, lone surrogates); else any of the corpus.
      const h = choice.with % 3 === 1 ? UNSTORABLE[(choice.with >> 2) % UNSTORABLE.length]! : HOSTILE_STRINGS[choice.with % HOSTILE_STRINGS.length]!;
      const s = typeof t.value === 'string' && choice.with % 3 === 0 ? t.value + h : h;
      return { value: setAt(value, t.path, s), mutation: `hostile string ${JSON.stringify(h.length > 24 ? `${h.slice(0, 24)}…(${h.length})` : h)} at /${t.path.join('/')}`, mustRefuse: unstorable(s) ? 'NUL or a lone surrogate' : undefined };
    }
    case 'hostile-value': {
      const t = nth(leaves);
      if (!t) break;
      return { value: setAt(value, t.path, HOSTILE_VALUES[choice.with % HOSTILE_VALUES.length]), mutation: `hostile value #${choice.with % HOSTILE_VALUES.length} at /${t.path.join('/')}` };
    }
    case 'huge-number': {
      const t = nth(numbers.length ? numbers : leaves);
      if (!t) break;
      const huge = [1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 63, -(2 ** 63), 1e21, 0.1 + 0.2][choice.with % 7];
      return { value: setAt(value, t.path, huge), mutation: `huge number at /${t.path.join('/')}` };
    }
    case 'long-string': {
      const t = nth(strings.length ? strings : leaves);
      if (!t) break;
      return { value: setAt(value, t.path, 'x'.repeat([256, 1001, 10_000, 100_000][choice.with % 4]!)), mutation: `long string at /${t.path.join('/')}` };
    }
    case 'deep': {
      const t = nth(leaves);
      if (!t) break;
      return { value: setAt(value, t.path, nest([10, 63, 65, 200][choice.with % 4]!)), mutation: `nesting at /${t.path.join('/')}` };
    }
    case 'null': {
      const t = nth(leaves);
      if (!t) break;
      return { value: setAt(value, t.path, null), mutation: `null at /${t.path.join('/')}` };
    }
  }
  return { value: HOSTILE_VALUES[choice.with % HOSTILE_VALUES.length], mutation: `whole value hostile #${choice.with % HOSTILE_VALUES.length}` };
}
