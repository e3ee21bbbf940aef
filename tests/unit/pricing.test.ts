import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { Dec, formatAmount, minorUnits, roundAmount } from '../../src/lib/money';
import {
  outstanding,
  priceDocument,
  priceLine,
  type LineInput,
  type PricedLine,
  type PricingContext,
} from '../../src/services/receivables/pricing';

const MYR: PricingContext = { currency: 'MYR', baseCurrency: 'MYR', fxRate: '1' };

/** Format every amount of a priced line as the API would return it. */
function fmtLine(l: PricedLine, ctx: PricingContext) {
  return {
    net_amount: formatAmount(l.net_amount, ctx.currency),
    tax_amount: formatAmount(l.tax_amount, ctx.currency),
    net_base: formatAmount(l.net_base, ctx.baseCurrency),
    tax_base: formatAmount(l.tax_base, ctx.baseCurrency),
  };
}

function mustPriceLine(input: LineInput, ctx: PricingContext): PricedLine {
  const r = priceLine(input, ctx);
  if (!r.ok) throw new Error(`unexpected ${r.error}`);
  return r.line;
}

function mustPriceDocument(lines: LineInput[], ctx: PricingContext) {
  const r = priceDocument(lines, ctx);
  if (!r.ok) throw new Error(`unexpected ${r.error} at line ${r.line_index}`);
  return r;
}

describe('priceLine worked examples', () => {
  it('MYR 3 × 120.50 less 10.00 at service tax 8%', () => {
    // 3 × 120.50 = 361.50; − 10.00 = 351.50; 351.50 × 8 / 100 = 28.12 exactly; gross 379.62
    const line = mustPriceLine({ quantity: '3', unit_price: '120.50', discount_amount: '10.00', tax_rate: '8' }, MYR);
    expect(fmtLine(line, MYR)).toEqual({
      net_amount: '351.50',
      tax_amount: '28.12',
      net_base: '351.50',
      tax_base: '28.12',
    });
    const doc = mustPriceDocument(
      [{ quantity: '3', unit_price: '120.50', discount_amount: '10.00', tax_rate: '8' }],
      MYR,
    );
    expect(formatAmount(doc.totals.gross_amount, 'MYR')).toBe('379.62');
    expect(formatAmount(doc.totals.gross_base, 'MYR')).toBe('379.62');
  });

  it('rounds the extended amount before subtracting the discount', () => {
    // 1.5 × 0.99 = 1.485 -> 1.49 (half away from zero); − 0.10 = 1.39; tax 6% = 0.0834 -> 0.08
    const line = mustPriceLine({ quantity: '1.5', unit_price: '0.99', discount_amount: '0.10', tax_rate: '6' }, MYR);
    expect(fmtLine(line, MYR)).toMatchObject({ net_amount: '1.39', tax_amount: '0.08' });
  });

  it('half-away-from-zero on tax: 0.25 at 6% = 0.015 -> 0.02', () => {
    const line = mustPriceLine({ quantity: '1', unit_price: '0.25', discount_amount: '0', tax_rate: '6' }, MYR);
    expect(fmtLine(line, MYR)).toMatchObject({ net_amount: '0.25', tax_amount: '0.02' });
    // and 0.125 -> 0.13: 1 × 2.5 at 5% = 0.125
    const line2 = mustPriceLine({ quantity: '1', unit_price: '2.50', discount_amount: '0', tax_rate: '5' }, MYR);
    expect(formatAmount(line2.tax_amount, 'MYR')).toBe('0.13');
    // negatives round away from zero too (credit amounts use the same helper)
    expect(formatAmount(roundAmount('-0.125', 'MYR'), 'MYR')).toBe('-0.13');
  });

  it('a discount equal to the line gives a zero line', () => {
    const line = mustPriceLine({ quantity: '2', unit_price: '5.00', discount_amount: '10.00', tax_rate: '8' }, MYR);
    expect(fmtLine(line, MYR)).toEqual({ net_amount: '0.00', tax_amount: '0.00', net_base: '0.00', tax_base: '0.00' });
  });

  it('a discount above the line is an error', () => {
    expect(priceLine({ quantity: '2', unit_price: '5.00', discount_amount: '10.01', tax_rate: '8' }, MYR)).toEqual({
      ok: false,
      error: 'discount_exceeds_line',
    });
    const doc = priceDocument(
      [
        { quantity: '1', unit_price: '1.00', discount_amount: '0', tax_rate: '0' },
        { quantity: '1', unit_price: '1.00', discount_amount: '1.01', tax_rate: '0' },
      ],
      MYR,
    );
    expect(doc).toEqual({ ok: false, error: 'discount_exceeds_line', line_index: 1 });
  });

  it('throws for an unknown currency', () => {
    expect(() =>
      priceLine({ quantity: '1', unit_price: '1', discount_amount: '0', tax_rate: '0' }, { ...MYR, currency: 'XYZ' }),
    ).toThrow('unknown currency');
  });
});

describe('priceDocument worked examples', () => {
  it('USD invoice at fx 4.4712 into MYR', () => {
    const ctx: PricingContext = { currency: 'USD', baseCurrency: 'MYR', fxRate: '4.4712' };
    // Line 1: 2 × 1250.00 = 2500.00, no discount; tax 8% = 200.00
    //   net_base = 2500.00 × 4.4712 = 11178.0000 -> 11178.00
    //   tax_base =  200.00 × 4.4712 =   894.2400 ->   894.24
    // Line 2: 7 × 13.33 = 93.31; − 1.00 = 92.31; tax 8% = 7.3848 -> 7.38
    //   net_base = 92.31 × 4.4712 = 412.736472 -> 412.74
    //   tax_base =  7.38 × 4.4712 =  32.997456 ->  33.00
    // net_total 2592.31, tax_total 207.38, gross_amount 2799.69
    // gross_base = 11178.00 + 894.24 + 412.74 + 33.00 = 12517.98
    //   (note: round(2799.69 × 4.4712) = round(12517.973928) = 12517.97 — the base
    //    total is the sum of the rounded line base amounts, not a re-conversion)
    const doc = mustPriceDocument(
      [
        { quantity: '2', unit_price: '1250.00', discount_amount: '0.00', tax_rate: '8' },
        { quantity: '7', unit_price: '13.33', discount_amount: '1.00', tax_rate: '8' },
      ],
      ctx,
    );
    expect(doc.lines.map((l) => fmtLine(l, ctx))).toEqual([
      { net_amount: '2500.00', tax_amount: '200.00', net_base: '11178.00', tax_base: '894.24' },
      { net_amount: '92.31', tax_amount: '7.38', net_base: '412.74', tax_base: '33.00' },
    ]);
    const t = doc.totals;
    expect(formatAmount(t.net_total, 'USD')).toBe('2592.31');
    expect(formatAmount(t.tax_total, 'USD')).toBe('207.38');
    expect(formatAmount(t.gross_amount, 'USD')).toBe('2799.69');
    expect(formatAmount(t.net_base_total, 'MYR')).toBe('11590.74');
    expect(formatAmount(t.tax_base_total, 'MYR')).toBe('927.24');
    expect(formatAmount(t.gross_base, 'MYR')).toBe('12517.98');
    expect(formatAmount(t.gross_amount.times('4.4712'), 'MYR')).toBe('12517.97');
  });

  it('JPY invoice (0 minor units) into MYR', () => {
    const ctx: PricingContext = { currency: 'JPY', baseCurrency: 'MYR', fxRate: '0.031' };
    // 3 × 1999 = 5997; tax 10% = 599.7 -> 600; gross 6597
    // net_base = 5997 × 0.031 = 185.907 -> 185.91; tax_base = 600 × 0.031 = 18.600 -> 18.60
    // gross_base = 185.91 + 18.60 = 204.51
    const doc = mustPriceDocument([{ quantity: '3', unit_price: '1999', discount_amount: '0', tax_rate: '10' }], ctx);
    expect(doc.lines.map((l) => fmtLine(l, ctx))).toEqual([
      { net_amount: '5997', tax_amount: '600', net_base: '185.91', tax_base: '18.60' },
    ]);
    expect(formatAmount(doc.totals.net_total, 'JPY')).toBe('5997');
    expect(formatAmount(doc.totals.tax_total, 'JPY')).toBe('600');
    expect(formatAmount(doc.totals.gross_amount, 'JPY')).toBe('6597');
    expect(formatAmount(doc.totals.gross_base, 'MYR')).toBe('204.51');
  });

  it('KWD invoice (3 minor units)', () => {
    const ctx: PricingContext = { currency: 'KWD', baseCurrency: 'MYR', fxRate: '14.5321' };
    // 1.5 × 3.335 = 5.0025 -> 5.003; tax 10% = 0.5003 -> 0.500; gross 5.503
    // net_base = 5.003 × 14.5321 = 72.7040963 -> 72.70; tax_base = 0.5 × 14.5321 = 7.26605 -> 7.27
    const doc = mustPriceDocument([{ quantity: '1.5', unit_price: '3.335', discount_amount: '0', tax_rate: '10' }], ctx);
    expect(doc.lines.map((l) => fmtLine(l, ctx))).toEqual([
      { net_amount: '5.003', tax_amount: '0.500', net_base: '72.70', tax_base: '7.27' },
    ]);
    expect(formatAmount(doc.totals.gross_amount, 'KWD')).toBe('5.503');
    expect(formatAmount(doc.totals.gross_base, 'MYR')).toBe('79.97');
  });

  it('an empty document totals to zero', () => {
    const doc = mustPriceDocument([], MYR);
    expect(formatAmount(doc.totals.gross_amount, 'MYR')).toBe('0.00');
    expect(formatAmount(doc.totals.gross_base, 'MYR')).toBe('0.00');
  });
});

describe('outstanding', () => {
  it('subtracts allocations that are not reversed', () => {
    const allocations = [
      { amount: '100.00', reversed: false },
      { amount: '50.00', reversed: true },
      { amount: '79.62', reversed: false },
    ];
    expect(formatAmount(outstanding('379.62', allocations), 'MYR')).toBe('200.00');
    expect(formatAmount(outstanding('379.62', []), 'MYR')).toBe('379.62');
    expect(formatAmount(outstanding('379.62', [{ amount: '379.62', reversed: false }]), 'MYR')).toBe('0.00');
  });

  it('works the same on base amounts', () => {
    // USD 2799.69 invoice (gross_base 12517.98) paid 1000.00 USD = 4471.20 MYR at the invoice rate
    const allocations = [{ amount: '1000.00', base: '4471.20', reversed: false }];
    expect(formatAmount(outstanding('2799.69', allocations), 'USD')).toBe('1799.69');
    expect(
      formatAmount(
        outstanding(
          '12517.98',
          allocations.map((a) => ({ amount: a.base, reversed: a.reversed })),
        ),
        'MYR',
      ),
    ).toBe('8046.78');
  });
});

// ---------------------------------------------------------------------------
// Property tests
// ---------------------------------------------------------------------------

const CURRENCIES = ['MYR', 'USD', 'JPY', 'KWD'] as const;
const BASE = 'MYR';

const scaled = (units: number, places: number) => new Dec(units).div(new Dec(10).pow(places));

/** quantity > 0 with up to 4 decimal places */
const quantityArb = fc.integer({ min: 1, max: 10_000_000 }).map((n) => scaled(n, 4).toFixed());

/** A random line in `currency`: unit price at the currency's places, discount ≤ the line. */
function lineArb(currency: string): fc.Arbitrary<LineInput> {
  const mu = minorUnits(currency);
  return fc
    .record({
      quantity: quantityArb,
      priceUnits: fc.integer({ min: 0, max: 100_000_000 }),
      discountPermille: fc.oneof(fc.constant(0), fc.constant(1000), fc.integer({ min: 0, max: 1000 })),
      tax_rate: fc.constantFrom('0', '6', '8', '10'),
    })
    .map(({ quantity, priceUnits, discountPermille, tax_rate }) => {
      const unit_price = scaled(priceUnits, mu).toFixed(mu);
      const extended = roundAmount(new Dec(quantity).times(unit_price), currency);
      const discount = extended.times(discountPermille).div(1000).toDecimalPlaces(mu, Dec.ROUND_DOWN);
      return { quantity, unit_price, discount_amount: discount.toFixed(mu), tax_rate };
    });
}

/** fx rate > 0 with up to 6 places; 1 when the document is in the base currency. */
const fxArb = fc.integer({ min: 1, max: 100_000_000 }).map((n) => scaled(n, 6).toFixed());

const docArb = fc.constantFrom(...CURRENCIES).chain((currency) =>
  fc.record({
    ctx: fxArb.map((fx): PricingContext => ({ currency, baseCurrency: BASE, fxRate: currency === BASE ? '1' : fx })),
    lines: fc.array(lineArb(currency), { minLength: 1, maxLength: 8 }),
  }),
);

function shapeFor(currency: string): RegExp {
  const mu = minorUnits(currency);
  return mu === 0 ? /^-?\d+$/ : new RegExp(`^-?\\d+\\.\\d{${mu}}$`);
}

describe('pricing properties', () => {
  it('gross_amount = net_total + tax_total and gross_base = Σ(net_base + tax_base)', () => {
    fc.assert(
      fc.property(docArb, ({ ctx, lines }) => {
        const { lines: priced, totals } = mustPriceDocument(lines, ctx);
        expect(totals.gross_amount.eq(totals.net_total.plus(totals.tax_total))).toBe(true);
        const baseSum = priced.reduce((s, l) => s.plus(l.net_base).plus(l.tax_base), new Dec(0));
        expect(totals.gross_base.eq(baseSum)).toBe(true);
        expect(totals.gross_base.eq(totals.net_base_total.plus(totals.tax_base_total))).toBe(true);
      }),
    );
  });

  it('totals equal the sums of the formatted line amounts', () => {
    fc.assert(
      fc.property(docArb, ({ ctx, lines }) => {
        const { lines: priced, totals } = mustPriceDocument(lines, ctx);
        const f = priced.map((l) => fmtLine(l, ctx));
        const sum = (xs: string[]) => xs.reduce((s, x) => s.plus(x), new Dec(0));
        const c = ctx.currency;
        const b = ctx.baseCurrency;
        expect(formatAmount(totals.net_total, c)).toBe(formatAmount(sum(f.map((x) => x.net_amount)), c));
        expect(formatAmount(totals.tax_total, c)).toBe(formatAmount(sum(f.map((x) => x.tax_amount)), c));
        expect(formatAmount(totals.gross_amount, c)).toBe(
          formatAmount(sum(f.flatMap((x) => [x.net_amount, x.tax_amount])), c),
        );
        expect(formatAmount(totals.gross_base, b)).toBe(formatAmount(sum(f.flatMap((x) => [x.net_base, x.tax_base])), b));
        // totals need no rounding: they are exact at the currency's places
        expect(totals.net_total.decimalPlaces()).toBeLessThanOrEqual(minorUnits(c));
        expect(totals.gross_base.decimalPlaces()).toBeLessThanOrEqual(minorUnits(b));
      }),
    );
  });

  it('each line follows the formulas (base amounts consistent with fx_rate)', () => {
    fc.assert(
      fc.property(docArb, ({ ctx, lines }) => {
        const { lines: priced } = mustPriceDocument(lines, ctx);
        priced.forEach((l, i) => {
          const input = lines[i]!;
          const net = roundAmount(new Dec(input.quantity).times(input.unit_price), ctx.currency).minus(
            input.discount_amount,
          );
          expect(l.net_amount.eq(net)).toBe(true);
          expect(l.net_amount.isNegative()).toBe(false);
          expect(l.tax_amount.eq(roundAmount(l.net_amount.times(input.tax_rate).div(100), ctx.currency))).toBe(true);
          expect(l.net_base.eq(roundAmount(l.net_amount.times(ctx.fxRate), ctx.baseCurrency))).toBe(true);
          expect(l.tax_base.eq(roundAmount(l.tax_amount.times(ctx.fxRate), ctx.baseCurrency))).toBe(true);
          // the rounding error of a base amount is at most half a base minor unit
          const halfUnit = new Dec(10).pow(-minorUnits(ctx.baseCurrency)).div(2);
          expect(l.net_base.minus(l.net_amount.times(ctx.fxRate)).abs().lte(halfUnit)).toBe(true);
        });
      }),
    );
  });

  it('every formatted amount has exactly the currency minor units', () => {
    fc.assert(
      fc.property(docArb, ({ ctx, lines }) => {
        const { lines: priced, totals } = mustPriceDocument(lines, ctx);
        const doc = shapeFor(ctx.currency);
        const base = shapeFor(ctx.baseCurrency);
        for (const l of priced) {
          const f = fmtLine(l, ctx);
          expect(f.net_amount).toMatch(doc);
          expect(f.tax_amount).toMatch(doc);
          expect(f.net_base).toMatch(base);
          expect(f.tax_base).toMatch(base);
        }
        for (const v of [totals.net_total, totals.tax_total, totals.gross_amount]) {
          expect(formatAmount(v, ctx.currency)).toMatch(doc);
        }
        for (const v of [totals.net_base_total, totals.tax_base_total, totals.gross_base]) {
          expect(formatAmount(v, ctx.baseCurrency)).toMatch(base);
        }
      }),
    );
  });

  it('a discount over the line amount is always reported, never priced', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CURRENCIES),
        quantityArb,
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 1, max: 1000 }),
        (currency, quantity, priceUnits, extraUnits) => {
          const mu = minorUnits(currency);
          const unit_price = scaled(priceUnits, mu).toFixed(mu);
          const extended = roundAmount(new Dec(quantity).times(unit_price), currency);
          const discount_amount = extended.plus(scaled(extraUnits, mu)).toFixed(mu);
          const ctx: PricingContext = { currency, baseCurrency: BASE, fxRate: '1' };
          expect(priceLine({ quantity, unit_price, discount_amount, tax_rate: '8' }, ctx)).toEqual({
            ok: false,
            error: 'discount_exceeds_line',
          });
        },
      ),
    );
  });
});
