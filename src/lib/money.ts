/**
 * Decimal money helpers.
 *
 * Amounts and rates travel as decimal strings ("12.50", "4.4712") and are
 * computed with decimal.js, never with JS numbers. `Dec` is a dedicated
 * decimal.js constructor (40 significant digits, ROUND_HALF_UP) so that
 * changing the global Decimal settings elsewhere cannot change our results.
 *
 * Rounding rule: half away from zero (decimal.js ROUND_HALF_UP rounds ties
 * away from zero: 0.125 -> 0.13, -0.125 -> -0.13) to the currency's ISO 4217
 * minor units.
 */
import Decimal from 'decimal.js';
import { currencyMinorUnits } from './code-lists';
import { DECIMAL_PATTERN } from './decimal-string';

export const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
/** Instance type of `Dec` (the same class shape as decimal.js `Decimal`). */
export type Dec = Decimal;

/** A value accepted where a decimal is expected: a Decimal or a decimal string. */
export type DecimalLike = Decimal | string;

export { DECIMAL_MESSAGE, DECIMAL_PATTERN, decimalString } from './decimal-string';

export class UnknownCurrencyError extends Error {
  constructor(readonly currency: string) {
    super(`unknown currency: ${currency}`);
    this.name = 'UnknownCurrencyError';
  }
}

/** Minor units of `currency`; throws UnknownCurrencyError when it is not in data/currencies.json. */
export function minorUnits(currency: string): number {
  const mu = currencyMinorUnits(currency);
  if (mu === undefined) throw new UnknownCurrencyError(currency);
  return mu;
}

/** Parse a decimal string or copy a Decimal into a `Dec` instance. */
export function toDec(value: DecimalLike): Decimal {
  return new Dec(value);
}

/** Turn -0 into 0 so no "-0.00" can ever be produced. */
function noNegativeZero(d: Decimal): Decimal {
  return d.isZero() ? new Dec(0) : d;
}

/**
 * Round to the currency's minor units, half away from zero.
 * Throws UnknownCurrencyError for a currency not in the list.
 */
export function roundAmount(value: DecimalLike, currency: string): Decimal {
  const mu = minorUnits(currency);
  return noNegativeZero(new Dec(value).toDecimalPlaces(mu, Decimal.ROUND_HALF_UP));
}

/**
 * Format an amount with exactly the currency's minor units, in plain notation
 * (never an exponent): ("379.6", "MYR") -> "379.60", ("5997", "JPY") -> "5997".
 * The value is rounded (half away from zero) first.
 */
export function formatAmount(value: DecimalLike, currency: string): string {
  if (typeof value === 'string') {
    const fast = truncatedAmount(value, minorUnits(currency));
    if (fast !== undefined) return fast;
  }
  return roundAmount(value, currency).toFixed(minorUnits(currency));
}

const PLAIN_DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * A plain decimal string (as PostgreSQL answers a numeric: "379.6000") with nothing but zeros past
 * `places`: written with exactly `places` without decimal.js, which is what rounding would give.
 * Anything else (digits to round, an exponent, a leading plus) is undefined: the caller rounds.
 */
function truncatedAmount(value: string, places: number): string | undefined {
  const m = PLAIN_DECIMAL.exec(value);
  if (!m) return undefined;
  const fraction = m[3] ?? '';
  for (let i = places; i < fraction.length; i++) if (fraction.charCodeAt(i) !== 48) return undefined;
  let whole = m[2]!;
  let start = 0;
  while (start < whole.length - 1 && whole.charCodeAt(start) === 48) start++;
  if (start > 0) whole = whole.slice(start);
  const kept = fraction.length >= places ? fraction.slice(0, places) : fraction.padEnd(places, '0');
  let zero = whole === '0';
  for (let i = 0; zero && i < kept.length; i++) if (kept.charCodeAt(i) !== 48) zero = false;
  const sign = m[1] && !zero ? '-' : '';
  return places > 0 ? `${sign}${whole}.${kept}` : `${sign}${whole}`;
}

/** Places a unit price may have, whatever the currency (docs/design.md §4: fuel at RM 2.055 a litre). */
export const UNIT_PRICE_MAX_PLACES = 6;

/**
 * Format a unit price: at least the currency's minor units and at most UNIT_PRICE_MAX_PLACES, trailing
 * zeros beyond the currency's places trimmed ("2.055000" MYR -> "2.055", "120.5" -> "120.50",
 * "1.5" JPY -> "1.5", "1999" JPY -> "1999"). Never rounded: a stored price has at most 6 places.
 */
export function formatUnitPrice(value: DecimalLike, currency: string): string {
  if (typeof value === 'string') {
    // A plain decimal string with at most UNIT_PRICE_MAX_PLACES significant places: nothing to round.
    const m = PLAIN_DECIMAL.exec(value);
    if (m) {
      const end = significantPlaces(m[3] ?? '');
      const fast = end <= UNIT_PRICE_MAX_PLACES ? truncatedAmount(value, Math.max(minorUnits(currency), end)) : undefined;
      if (fast !== undefined) return fast;
    }
  }
  const d = noNegativeZero(new Dec(value).toDecimalPlaces(UNIT_PRICE_MAX_PLACES, Decimal.ROUND_HALF_UP));
  return d.toFixed(Math.max(minorUnits(currency), d.decimalPlaces()));
}

/**
 * Format a rate (tax rate, fx rate) as a plain decimal without trailing zeros
 * and without exponent: "8.0000" -> "8", "4.47120" -> "4.4712", "-0" -> "0".
 */
export function formatRate(value: DecimalLike): string {
  if (typeof value === 'string') {
    // A plain decimal string: its trailing zeros (and a bare point) dropped, without decimal.js.
    const plain = truncatedAmount(value, 0) ?? plainRate(value);
    if (plain !== undefined) return plain;
  }
  // decimal.js keeps no trailing zeros, and toFixed() without an argument
  // never uses exponential notation.
  return noNegativeZero(new Dec(value)).toFixed();
}

/** The places of a fraction's digits without its trailing zeros: "4712000" -> 4, "000" -> 0. */
function significantPlaces(fraction: string): number {
  let end = fraction.length;
  while (end > 0 && fraction.charCodeAt(end - 1) === 48) end--;
  return end;
}

/** A plain decimal string with a fraction ending in zeros: "4.47120" -> "4.4712"; undefined otherwise. */
function plainRate(value: string): string | undefined {
  const m = PLAIN_DECIMAL.exec(value);
  if (!m || m[3] === undefined) return undefined;
  const end = significantPlaces(m[3]);
  return truncatedAmount(`${m[1]}${m[2]}.${m[3].slice(0, end)}`, end);
}

/** Number of fractional digits in a decimal string: "12.50" -> 2, "7" -> 0. */
export function places(str: string): number {
  const dot = str.indexOf('.');
  return dot === -1 ? 0 : str.length - dot - 1;
}

/**
 * True when `str` is a decimal string with at most the currency's minor units
 * ("12.5" and "12.50" pass for MYR, "12.505" does not; "12.5" fails for JPY).
 * False for an unknown currency.
 */
export function checkAmountPlaces(str: string, currency: string): boolean {
  const mu = currencyMinorUnits(currency);
  return mu !== undefined && DECIMAL_PATTERN.test(str) && places(str) <= mu;
}

/** True when `str` is a decimal string with at most `maxPlaces` fractional digits. */
export function checkRatePlaces(str: string, maxPlaces = 10): boolean {
  return DECIMAL_PATTERN.test(str) && places(str) <= maxPlaces;
}
