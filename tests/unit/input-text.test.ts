import { describe, expect, it } from 'vitest';
import { checkedInput, isBlank, jsonNestingExceeds, textFault } from '../../src/lib/input-text';

const faultOf = (value: unknown, maxNesting?: number) => checkedInput(value, maxNesting).fault;

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
    expect(faultOf({ a: [{ b: 'ok' }, { c: 'x\u0000' }] })?.path).toEqual(['a', 1, 'c']);
    expect(faultOf(JSON.parse('{"a":{"__proto__":1}}'))?.path).toEqual(['a', '__proto__']);
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(faultOf(deep)?.path).toHaveLength(64);
  });

  it("answers the first fault in order: an object's keys before anything inside it, then its values in order", () => {
    expect(faultOf({ a: { x: 'x\u0000' }, b: JSON.parse('{"__proto__":1}') })?.path).toEqual(['a', 'x']);
    expect(faultOf({ a: ['ok', 'x\ud800'], b: 'y\u0000' })?.path).toEqual(['a', 1]);
    expect(faultOf({ a: { x: 'x\u0000', 'k\u0000': 1 } })).toEqual({ path: ['a', 'k\u0000'], detail: '(a field name) must not contain the NUL character (U+0000)' });
    expect(faultOf([[['\u0000']]])?.path).toEqual([0, 0, 0]);
    expect(faultOf([[1]], 2)).toBeUndefined();
    expect(checkedInput([[[1]]], 2).fault).toEqual({ path: [0, 0], detail: 'is nested too deep (at most 2 levels of arrays and objects)' });
  });

  it('normalizes strings and keys to NFC, copying arrays and plain objects only', () => {
    const input = { 'e\u0301': ['Cafe\u0301'], at: new Date(0) };
    const checked = checkedInput(input);
    expect(checked.fault).toBeUndefined();
    expect(checked.value).toEqual({ '\u00e9': ['Caf\u00e9'], at: new Date(0) });
    expect(checked.value).not.toBe(input);
    expect((checked.value as typeof input).at).toBe(input.at);
    expect(input).toEqual({ 'e\u0301': ['Cafe\u0301'], at: new Date(0) });
    // A class instance is checked, not copied, and nothing in it is rewritten.
    class Box {
      name = 'Cafe\u0301';
    }
    const box = new Box();
    expect(checkedInput({ box }).value!.box).toBe(box);
    expect(box.name).toBe('Cafe\u0301');
    expect(checkedInput({ box: Object.assign(new Box(), { name: 'x\u0000' }) }).fault?.path).toEqual(['box', 'name']);
    expect(checkedInput(Object.assign(Object.create(null), { 'e\u0301': 1 })).value).toEqual({ '\u00e9': 1 });
  });

  it('blank: nothing left once spaces and default-ignorable characters are removed', () => {
    for (const s of ['', ' ', '\u200b\u200b', '\u00a0\u3000', '\u2060\ufeff\u00ad', '\u180e']) expect(isBlank(s), JSON.stringify(s)).toBe(true);
    for (const s of ['a', '\u200ba', '0']) expect(isBlank(s)).toBe(false);
  });
});
