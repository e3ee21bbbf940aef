import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import Decimal from 'decimal.js';
import {
  Dec,
  DECIMAL_PATTERN,
  UnknownCurrencyError,
  checkAmountPlaces,
  checkRatePlaces,
  decimalString,
  formatAmount,
  formatRate,
  formatUnitPrice,
  UNIT_PRICE_MAX_PLACES,
  minorUnits,
  places,
  roundAmount,
} from '../../src/lib/money';

describe('Dec', () => {
  it('is a dedicated decimal.js constructor with 40 digits and ROUND_HALF_UP', () => {
    expect(Dec).not.toBe(Decimal);
    expect(Dec.precision).toBe(40);
    expect(Dec.rounding).toBe(Decimal.ROUND_HALF_UP);
  });

  it('does not follow changes to the global Decimal configuration', () => {
    const saved = { rounding: Decimal.rounding, precision: Decimal.precision };
    try {
      Decimal.set({ rounding: Decimal.ROUND_DOWN, precision: 5 });
      expect(roundAmount('0.125', 'MYR').toFixed()).toBe('0.13');
      expect(new Dec('1').div(3).toFixed()).toBe('0.' + '3'.repeat(40));
    } finally {
      Decimal.set(saved);
    }
  });
});

describe('DECIMAL_PATTERN and decimalString()', () => {
  it.each(['0', '12', '12.50', '-0.25', '4.4712', '007', '1234567890123.4567890123'])('accepts %s', (s) => {
    expect(DECIMAL_PATTERN.test(s)).toBe(true);
    expect(decimalString().safeParse(s).success).toBe(true);
  });

  it.each(['', '.5', '5.', '+1', '1e3', '1,000.00', ' 1', '1 ', 'NaN', 'Infinity', '--1', '1.2.3', '١٢'])(
    'rejects %j',
    (s) => {
      expect(DECIMAL_PATTERN.test(s)).toBe(false);
      expect(decimalString().safeParse(s).success).toBe(false);
    },
  );

  it('rejects non-strings and gives a clear message', () => {
    expect(decimalString().safeParse(12.5).success).toBe(false);
    const r = decimalString().safeParse('12,50');
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('must be a decimal string such as "12.50"');
  });
});

describe('roundAmount', () => {
  it('rounds half away from zero to the currency minor units', () => {
    expect(roundAmount('0.125', 'MYR').toFixed()).toBe('0.13');
    expect(roundAmount('-0.125', 'MYR').toFixed()).toBe('-0.13');
    expect(roundAmount('0.124999', 'MYR').toFixed()).toBe('0.12');
    expect(roundAmount('2.5', 'JPY').toFixed()).toBe('3');
    expect(roundAmount('-2.5', 'JPY').toFixed()).toBe('-3');
    expect(roundAmount('1.0005', 'KWD').toFixed()).toBe('1.001');
    expect(roundAmount('-1.0005', 'BHD').toFixed()).toBe('-1.001');
    expect(roundAmount('0.00005', 'CLF').toFixed()).toBe('0.0001');
  });

  it('accepts a Decimal from another constructor', () => {
    expect(roundAmount(new Decimal('10.005'), 'USD').toFixed()).toBe('10.01');
  });

  it('never returns negative zero', () => {
    const r = roundAmount('-0.001', 'MYR');
    expect(r.isZero()).toBe(true);
    expect(r.isNegative()).toBe(false);
  });

  it('throws for an unknown currency', () => {
    expect(() => roundAmount('1', 'XYZ')).toThrow(UnknownCurrencyError);
    expect(() => roundAmount('1', 'myr')).toThrow('unknown currency: myr');
    expect(() => minorUnits('')).toThrow(UnknownCurrencyError);
  });

  it('property: the result is within half a minor unit and has at most the minor units', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }),
        fc.integer({ min: 0, max: 8 }),
        fc.constantFrom('MYR', 'JPY', 'KWD', 'CLF'),
        (digits, scale, currency) => {
          const v = new Dec(digits.toString()).div(new Dec(10).pow(scale));
          const r = roundAmount(v, currency);
          const mu = minorUnits(currency);
          expect(r.decimalPlaces()).toBeLessThanOrEqual(mu);
          expect(r.minus(v).abs().lte(new Dec(10).pow(-mu).div(2))).toBe(true);
          // symmetric: rounding is half away from zero, so round(-v) = -round(v)
          expect(roundAmount(v.neg(), currency).eq(r.neg())).toBe(true);
        },
      ),
    );
  });
});

describe('formatAmount', () => {
  it('uses exactly the minor units and plain notation', () => {
    expect(formatAmount('379.6', 'MYR')).toBe('379.60');
    expect(formatAmount('12', 'USD')).toBe('12.00');
    expect(formatAmount('5997', 'JPY')).toBe('5997');
    expect(formatAmount('599.7', 'JPY')).toBe('600');
    expect(formatAmount('1.5', 'KWD')).toBe('1.500');
    expect(formatAmount('1', 'CLF')).toBe('1.0000');
    expect(formatAmount('0.125', 'MYR')).toBe('0.13');
    expect(formatAmount('-0.125', 'MYR')).toBe('-0.13');
    expect(formatAmount('-0.001', 'MYR')).toBe('0.00');
    expect(formatAmount('-0', 'JPY')).toBe('0');
    expect(formatAmount(new Dec('1e21'), 'MYR')).toBe('1000000000000000000000.00');
    expect(formatAmount(new Dec('1e-9'), 'MYR')).toBe('0.00');
    expect(formatAmount('123456789012345678.995', 'MYR')).toBe('123456789012345679.00');
  });

  it('throws for an unknown currency', () => {
    expect(() => formatAmount('1', 'ABC')).toThrow(UnknownCurrencyError);
  });

  it('property: output matches the currency places exactly', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }),
        fc.integer({ min: 0, max: 10 }),
        fc.constantFrom('MYR', 'USD', 'JPY', 'KWD', 'CLF'),
        (digits, scale, currency) => {
          const s = formatAmount(new Dec(digits.toString()).div(new Dec(10).pow(scale)), currency);
          const mu = minorUnits(currency);
          const shape = mu === 0 ? /^-?\d+$/ : new RegExp(`^-?\\d+\\.\\d{${mu}}$`);
          expect(s).toMatch(shape);
          expect(s).not.toMatch(/^-0(\.0*)?$/);
        },
      ),
    );
  });
});

/** A numeric as PostgreSQL writes it: plain, fixed scale, leading zeros and signed zeros included. */
const numericText = fc
  .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 22n }), fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 2 }))
  .map(([negative, digits, scale, pad]) => {
    const text = digits.toString().padStart(scale + 1, '0');
    const whole = '0'.repeat(pad) + text.slice(0, text.length - scale);
    return `${negative ? '-' : ''}${whole}${scale ? `.${text.slice(text.length - scale)}` : ''}`;
  });

describe('the string paths of formatAmount and formatRate (no decimal.js) give what decimal.js gives', () => {
  it('formatAmount: numeric text in every currency scale, rounding or not', () => {
    fc.assert(
      fc.property(numericText, fc.constantFrom('MYR', 'USD', 'JPY', 'KWD', 'CLF'), (text, currency) => {
        expect(formatAmount(text, currency)).toBe(roundAmount(new Dec(text), currency).toFixed(minorUnits(currency)));
      }),
      { numRuns: 2000 },
    );
    for (const [text, expected] of [['-0.0000', '0.00'], ['0007.5000', '7.50'], ['12.3400', '12.34'], ['12.3450', '12.35'], ['-12.3450', '-12.35'], ['5', '5.00']]) {
      expect(formatAmount(text!, 'MYR')).toBe(expected);
    }
  });

  it('formatUnitPrice: numeric text with up to 10 places, rounded to 6 where longer', () => {
    fc.assert(
      fc.property(numericText, fc.constantFrom('MYR', 'JPY', 'KWD', 'CLF'), (text, currency) => {
        const d = new Dec(text).toDecimalPlaces(UNIT_PRICE_MAX_PLACES, Decimal.ROUND_HALF_UP);
        const reference = (d.isZero() ? new Dec(0) : d).toFixed(Math.max(minorUnits(currency), d.decimalPlaces()));
        expect(formatUnitPrice(text, currency)).toBe(reference);
      }),
      { numRuns: 2000 },
    );
    expect(formatUnitPrice('2.055000', 'MYR')).toBe('2.055');
    expect(formatUnitPrice('120.500000', 'MYR')).toBe('120.50');
    expect(formatUnitPrice('-0.000000', 'MYR')).toBe('0.00');
  });

  it('formatRate: numeric text with trailing zeros, signed zeros and leading zeros', () => {
    fc.assert(
      fc.property(numericText, (text) => {
        const d = new Dec(text);
        expect(formatRate(text)).toBe((d.isZero() ? new Dec(0) : d).toFixed());
      }),
      { numRuns: 2000 },
    );
  });
});

describe('formatRate', () => {
  it.each([
    ['4.4712', '4.4712'],
    ['4.47120', '4.4712'],
    ['8', '8'],
    ['8.0000', '8'],
    ['0.5', '0.5'],
    ['0.50', '0.5'],
    ['-0.25', '-0.25'],
    ['-0', '0'],
    ['0.000', '0'],
    ['0.0000001', '0.0000001'],
    ['10', '10'],
    ['100.00', '100'],
  ])('%s -> %s', (input, expected) => {
    expect(formatRate(input)).toBe(expected);
  });

  it('never uses exponent notation', () => {
    expect(formatRate(new Dec('1e-12'))).toBe('0.000000000001');
    expect(formatRate(new Dec('1.5e25'))).toBe('15000000000000000000000000');
  });

  it('property: round-trips any decimal string value without trailing zeros or exponent', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), fc.integer({ min: 0, max: 12 }), (d, scale) => {
        const v = new Dec(d.toString()).div(new Dec(10).pow(scale));
        const s = formatRate(v);
        expect(s).toMatch(DECIMAL_PATTERN);
        expect(s).not.toMatch(/\.\d*0$/);
        expect(s).not.toBe('-0');
        expect(new Dec(s).eq(v)).toBe(true);
      }),
    );
  });
});

describe('places / checkAmountPlaces / checkRatePlaces', () => {
  it('counts fractional digits', () => {
    expect(places('12')).toBe(0);
    expect(places('12.5')).toBe(1);
    expect(places('12.50')).toBe(2);
    expect(places('-0.0001')).toBe(4);
  });

  it('checks amount places against the currency', () => {
    expect(checkAmountPlaces('12.50', 'MYR')).toBe(true);
    expect(checkAmountPlaces('12.5', 'MYR')).toBe(true);
    expect(checkAmountPlaces('12', 'MYR')).toBe(true);
    expect(checkAmountPlaces('12.505', 'MYR')).toBe(false);
    expect(checkAmountPlaces('1999', 'JPY')).toBe(true);
    expect(checkAmountPlaces('1999.0', 'JPY')).toBe(false);
    expect(checkAmountPlaces('1.125', 'KWD')).toBe(true);
    expect(checkAmountPlaces('1.1250', 'KWD')).toBe(false);
    expect(checkAmountPlaces('1.2345', 'CLF')).toBe(true);
    expect(checkAmountPlaces('12.50', 'XYZ')).toBe(false);
    expect(checkAmountPlaces('1e2', 'MYR')).toBe(false);
    expect(checkAmountPlaces('.5', 'MYR')).toBe(false);
  });

  it('checks rate places', () => {
    expect(checkRatePlaces('4.4712')).toBe(true);
    expect(checkRatePlaces('0.0123456789')).toBe(true);
    expect(checkRatePlaces('0.01234567891')).toBe(false);
    expect(checkRatePlaces('4.4712', 4)).toBe(true);
    expect(checkRatePlaces('4.47123', 4)).toBe(false);
    expect(checkRatePlaces('8', 0)).toBe(true);
    expect(checkRatePlaces('abc')).toBe(false);
  });
});
