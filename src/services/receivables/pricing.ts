/**
 * Pure pricing of receivable documents (docs/design.md §4). No database.
 *
 * Line, in the document currency (round = half away from zero to its minor units):
 *   net_amount = round(quantity × unit_price) − discount_amount   (negative => error)
 *   tax_amount = round(net_amount × tax_rate / 100)
 * Line, in the base currency (round_base = to the base currency's minor units):
 *   net_base   = round_base(net_amount × fx_rate)
 *   tax_base   = round_base(tax_amount × fx_rate)
 * Document:
 *   net_total = Σ net_amount,  tax_total = Σ tax_amount
 *   gross_amount = net_total + tax_total
 *   gross_base   = Σ (net_base + tax_base)     (NOT round_base(gross_amount × fx_rate))
 * Settlement:
 *   outstanding      = gross_amount − Σ amount of allocations not reversed
 *   outstanding_base = gross_base   − Σ base amount of allocations not reversed
 *
 * Inputs are decimal strings already validated by the caller's schema
 * (DECIMAL_PATTERN, amount places within the currency's minor units, known
 * currencies). An unknown currency throws UnknownCurrencyError.
 */
import type Decimal from 'decimal.js';
import { Dec, roundAmount, type DecimalLike } from '../../lib/money';

export interface LineInput {
  quantity: string;
  unit_price: string;
  /** Amount in the document currency, at most its minor units; "0" for none. */
  discount_amount: string;
  /** Percent, e.g. "8" for 8 %. */
  tax_rate: string;
}

export interface PricingContext {
  /** Document currency (ISO 4217). */
  currency: string;
  /** Organization base currency (ISO 4217), e.g. "MYR". */
  baseCurrency: string;
  /** Units of base currency per 1 unit of document currency; "1" when currency === baseCurrency. */
  fxRate: DecimalLike;
}

export interface PricedLine {
  net_amount: Decimal;
  tax_amount: Decimal;
  net_base: Decimal;
  tax_base: Decimal;
}

export type PricingError = 'discount_exceeds_line';

export type PriceLineResult = { ok: true; line: PricedLine } | { ok: false; error: PricingError };

export interface DocumentTotals {
  net_total: Decimal;
  tax_total: Decimal;
  gross_amount: Decimal;
  net_base_total: Decimal;
  tax_base_total: Decimal;
  gross_base: Decimal;
}

export type PriceDocumentResult =
  | { ok: true; lines: PricedLine[]; totals: DocumentTotals }
  /** `line_index` is the 0-based position of the first failing line. */
  | { ok: false; error: PricingError; line_index: number };

export interface AllocationAmount {
  /** Allocated amount, in the same currency as the gross it is subtracted from. */
  amount: DecimalLike;
  reversed: boolean;
}

export function priceLine(input: LineInput, ctx: PricingContext): PriceLineResult {
  const { currency, baseCurrency } = ctx;
  const fx = new Dec(ctx.fxRate);
  const extended = roundAmount(new Dec(input.quantity).times(input.unit_price), currency);
  // The discount is already at the currency's places for valid input, so this
  // outer round is a no-op then; it only keeps the result at the right scale.
  const net_amount = roundAmount(extended.minus(input.discount_amount), currency);
  if (net_amount.isNegative()) return { ok: false, error: 'discount_exceeds_line' };
  const tax_amount = roundAmount(net_amount.times(input.tax_rate).div(100), currency);
  return {
    ok: true,
    line: {
      net_amount,
      tax_amount,
      net_base: roundAmount(net_amount.times(fx), baseCurrency),
      tax_base: roundAmount(tax_amount.times(fx), baseCurrency),
    },
  };
}

/** Sum of priced lines. Every addend is already rounded, so the sums are exact. */
export function totalsOf(lines: readonly PricedLine[]): DocumentTotals {
  let net_total = new Dec(0);
  let tax_total = new Dec(0);
  let net_base_total = new Dec(0);
  let tax_base_total = new Dec(0);
  for (const l of lines) {
    net_total = net_total.plus(l.net_amount);
    tax_total = tax_total.plus(l.tax_amount);
    net_base_total = net_base_total.plus(l.net_base);
    tax_base_total = tax_base_total.plus(l.tax_base);
  }
  return {
    net_total,
    tax_total,
    gross_amount: net_total.plus(tax_total),
    net_base_total,
    tax_base_total,
    gross_base: net_base_total.plus(tax_base_total),
  };
}

export function priceDocument(lines: readonly LineInput[], ctx: PricingContext): PriceDocumentResult {
  const priced: PricedLine[] = [];
  for (const [line_index, input] of lines.entries()) {
    const r = priceLine(input, ctx);
    if (!r.ok) return { ok: false, error: r.error, line_index };
    priced.push(r.line);
  }
  return { ok: true, lines: priced, totals: totalsOf(priced) };
}

/**
 * gross − Σ amounts of allocations that are not reversed. Use it with
 * document-currency amounts for `outstanding` and with base amounts for
 * `outstanding_base`. The result can be negative if the caller over-allocated.
 */
export function outstanding(gross: DecimalLike, allocations: readonly AllocationAmount[]): Decimal {
  let result = new Dec(gross);
  for (const a of allocations) {
    if (!a.reversed) result = result.minus(a.amount);
  }
  return result;
}
