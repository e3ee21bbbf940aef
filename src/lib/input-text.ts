/**
 * What every input value must be before a schema or the database sees it (DESIGN section 6: 400
 * naming the field): text the database can store and that is what was sent (no NUL, no lone
 * surrogate), no key that names an object's prototype, nested at most MAX_NESTING deep. Pure; the
 * HTTP edge (routers/body-parser.ts) and the procedure pipeline (routers/input-guard.ts) call it.
 */

/** The deepest nesting of arrays and objects a request may carry (the input's top level is 1). */
export const MAX_NESTING = 64;

/** Keys that name an object's prototype: refused anywhere in an input, never silently dropped. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a text cannot be taken as it is, or undefined when it can. */
export function textFault(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  if (LONE_SURROGATE.test(text)) return 'must be valid Unicode text (it holds a lone surrogate)';
  return undefined;
}

export interface InputFault {
  /** The path to the value at fault, from the input's top level. */
  path: (string | number)[];
  detail: string;
}

/**
 * The first fault in a parsed JSON value (strings, keys, nesting), walking without recursion so a
 * deep value cannot exhaust the stack.
 */
export function findInputFault(value: unknown, maxNesting = MAX_NESTING): InputFault | undefined {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (stack.length) {
    const { value: v, path } = stack.pop()!;
    if (typeof v === 'string') {
      const fault = textFault(v);
      if (fault) return { path, detail: fault };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (path.length >= maxNesting) return { path, detail: `is nested too deep (at most ${maxNesting} levels of arrays and objects)` };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: [...path, i] });
      continue;
    }
    const keys = Object.keys(v);
    for (const key of keys) {
      if (PROTOTYPE_KEYS.has(key)) return { path: [...path, key], detail: 'is not a field this operation accepts' };
      const fault = textFault(key);
      if (fault) return { path: [...path, key], detail: `(a field name) ${fault}` };
    }
    for (let i = keys.length - 1; i >= 0; i--) stack.push({ value: (v as Record<string, unknown>)[keys[i]!], path: [...path, keys[i]!] });
  }
  return undefined;
}

/**
 * The value with every string and key in Unicode Normalization Form C, so two spellings of one name
 * (a precomposed "é" and "e" with a combining accent) are one code, one name, one uniqueness key.
 * Only called on values findInputFault passed (bounded depth).
 */
export function normalizeInput<T>(value: T): T {
  if (typeof value === 'string') return value.normalize('NFC') as T;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => normalizeInput(v)) as T;
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k.normalize('NFC')] = normalizeInput(v);
  return out as T;
}

/**
 * How deep arrays and objects nest in a JSON text, counted on the text itself (brackets outside
 * strings), so a hostile depth is refused before anything parses it. Stops counting past `limit`.
 */
export function jsonNestingExceeds(text: string, limit = MAX_NESTING): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > limit) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return false;
}

// Unicode's invisible characters: what renders as nothing (Default_Ignorable_Code_Point, e.g.
// U+200B ZERO WIDTH SPACE, U+FEFF) and every kind of space (White_Space).
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{White_Space}]/gu;

/** Blank: nothing left once invisible characters are removed. */
export function isBlank(text: string): boolean {
  return text.replace(INVISIBLE, '') === '';
}
