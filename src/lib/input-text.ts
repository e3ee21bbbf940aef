/**
 * What every input value must be before a schema or the database sees it (docs/design.md §6: 400
 * naming the field): text the database can store and that is what was sent (no NUL, no lone
 * surrogate), no key that names an object's prototype, nested at most MAX_NESTING deep. Pure; the
 * HTTP edge (routers/body-parser.ts) and the procedure pipeline (routers/trpc.ts, checkedInput) call it.
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

/** A fault found by checkedInput, thrown up the walk, which puts each level's key in front of its path. */
class FaultAt {
  constructor(
    readonly path: (string | number)[],
    readonly detail: string,
  ) {}
}

/**
 * A parsed JSON value checked and normalized in one walk: the first fault (strings, keys, nesting;
 * an object's keys before anything inside it, then its values in order), or the value with every
 * string and key in Unicode Normalization Form C, so two spellings of one name (a precomposed "é"
 * and "e" with a combining accent) are one code, one name, one uniqueness key. Arrays and plain
 * objects are copied; any other object is checked and kept as it is. The walk is at most
 * `maxNesting` deep, so a deep value cannot exhaust the stack.
 */
export function checkedInput<T>(value: T, maxNesting = MAX_NESTING): { value: T; fault?: undefined } | { value?: undefined; fault: InputFault } {
  try {
    return { value: walk(value, 0, maxNesting, true) as T };
  } catch (e) {
    if (e instanceof FaultAt) return { fault: { path: e.path, detail: e.detail } };
    throw e;
  }
}

function walk(v: unknown, depth: number, maxNesting: number, copy: boolean): unknown {
  if (typeof v === 'string') {
    const fault = textFault(v);
    if (fault) throw new FaultAt([], fault);
    return copy ? v.normalize('NFC') : v;
  }
  if (v === null || typeof v !== 'object') return v;
  if (depth >= maxNesting) throw new FaultAt([], `is nested too deep (at most ${maxNesting} levels of arrays and objects)`);
  if (Array.isArray(v)) {
    const out: unknown[] | undefined = copy ? new Array(v.length) : undefined;
    for (let i = 0; i < v.length; i++) {
      try {
        const item = walk(v[i], depth + 1, maxNesting, copy);
        if (out) out[i] = item;
      } catch (e) {
        if (e instanceof FaultAt) e.path.unshift(i);
        throw e;
      }
    }
    return out ?? v;
  }
  const keys = Object.keys(v);
  for (const key of keys) {
    if (PROTOTYPE_KEYS.has(key)) throw new FaultAt([key], 'is not a field this operation accepts');
    const fault = textFault(key);
    if (fault) throw new FaultAt([key], `(a field name) ${fault}`);
  }
  const proto = Object.getPrototypeOf(v);
  const copied = copy && (proto === Object.prototype || proto === null);
  const out: Record<string, unknown> | undefined = copied ? {} : undefined;
  for (const key of keys) {
    try {
      const item = walk((v as Record<string, unknown>)[key], depth + 1, maxNesting, copied);
      if (out) out[key.normalize('NFC')] = item;
    } catch (e) {
      if (e instanceof FaultAt) e.path.unshift(key);
      throw e;
    }
  }
  return out ?? v;
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
