import { describe, expect, it } from 'vitest';
import { addDecimals, compareDecimals, fillInOrder, isDecimal, negateDecimal, signOfDecimal, subtractDecimals } from '../../web/src/format/decimal';

/** The console's decimal-string arithmetic: exact, never through a JavaScript number. */
describe('console decimals', () => {
  it('adds, subtracts and compares exactly', () => {
    expect(addDecimals('0.10', '0.20')).toBe('0.30');
    expect(subtractDecimals('1000.00', '379.62')).toBe('620.38');
    expect(subtractDecimals('100', '250.5')).toBe('-150.5');
    expect(subtractDecimals('12345678901234567.89', '0.01')).toBe('12345678901234567.88');
    expect(negateDecimal('-0.00')).toBe('0.00');
    expect(negateDecimal('5')).toBe('-5');
    expect(compareDecimals('379.62', '379.620')).toBe(0);
    expect(compareDecimals('0.1', '0.09')).toBe(1);
    expect(compareDecimals('-1', '0')).toBe(-1);
    expect(signOfDecimal('0.000')).toBe(0);
    expect(isDecimal('12.')).toBe(false);
    expect(isDecimal('abc')).toBe(false);
  });

  it('fills amounts oldest first: each takes what it owes or what is left', () => {
    expect(fillInOrder('500.00', ['379.62', '379.62', '10.00'])).toEqual(['379.62', '120.38', '0.00']);
    expect(fillInOrder('1000', ['379.62', '379.62'])).toEqual(['379.62', '379.62']);
    expect(fillInOrder('0.00', ['1.00'])).toEqual(['0.00']);
    expect(fillInOrder('-5', ['1.00'])).toEqual(['0.00']);
  });
});
