import { describe, expect, it } from 'vitest';
import { findInputFault, isBlank, jsonNestingExceeds, normalizeInput, textFault } from '../../src/lib/input-text';

describe('input text checks (lib/input-text.ts)', () => {
  it('counts nesting on the text, ignoring brackets inside strings and escaped quotes', () => {
    expect(jsonNestingExceeds('['.repeat(64) + ']'.repeat(64))).toBe(false);
    expect(jsonNestingExceeds('['.repeat(65) + ']'.repeat(65))).toBe(true);
    expect(jsonNestingExceeds(JSON.stringify({ a: '['.repeat(100) }))).toBe(false);
    expect(jsonNestingExceeds(JSON.stringify({ a: '\\"' + '{'.repeat(100) }))).toBe(false);
  });

  it('finds NUL, lone surrogates (high or low), prototype keys and deep values with their paths', () => {
    expect(textFault('a\u0000')).toMatch(/NUL/);
    expect(textFault('\ud800x')).toMatch(/surrogate/);
    expect(textFault('x\udc00')).toMatch(/surrogate/);
    expect(textFault('\ud83d\ude00')).toBeUndefined();
    expect(findInputFault({ a: [{ b: 'ok' }, { c: 'x\u0000' }] })?.path).toEqual(['a', 1, 'c']);
    expect(findInputFault(JSON.parse('{"a":{"__proto__":1}}'))?.path).toEqual(['a', '__proto__']);
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findInputFault(deep)?.path).toHaveLength(64);
  });

  it('normalizes strings and keys to NFC', () => {
    expect(normalizeInput({ 'e\u0301': ['Cafe\u0301'] })).toEqual({ '\u00e9': ['Caf\u00e9'] });
  });

  it('blank: nothing left once spaces and default-ignorable characters are removed', () => {
    for (const s of ['', ' ', '\u200b\u200b', '\u00a0\u3000', '\u2060\ufeff\u00ad', '\u180e']) expect(isBlank(s), JSON.stringify(s)).toBe(true);
    for (const s of ['a', '\u200ba', '0']) expect(isBlank(s)).toBe(false);
  });
});
