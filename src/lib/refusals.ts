/**
 * Refusing input, one way for every service: the Refusals collector (one 422 naming every field at
 * fault) and the shared rule checks (text, amounts, rates, periods) that invoices, claims and
 * reference data all call, so their rules and texts cannot drift. Never for shape errors (400).
 */
import type Decimal from 'decimal.js';
import { currencyMinorUnits } from './code-lists';
import { isBlank } from './input-text';
import { AppError, pointerLabel, type ErrorCode, type FieldError } from './errors';
import { checkAmountPlaces, checkRatePlaces, DECIMAL_PATTERN, Dec, UNIT_PRICE_MAX_PLACES } from './money';

/**
 * One way to refuse input: collect every field at fault with its JSON Pointer, then throw one 422
 * naming them all. Services use this rather than throwing at the first fault, so a caller fixes a
 * form in one round trip. Never used for 400s (shape errors are the schemas' job).
 */
export class Refusals {
  private readonly errors: FieldError[] = [];

  constructor(private readonly code: ErrorCode = 'validation') {}

  add(pointer: string, detail: string): this {
    this.errors.push({ pointer, detail });
    return this;
  }

  /** Adds the fault unless `ok` holds; answers `ok`. */
  check(ok: boolean, pointer: string, detail: string): boolean {
    if (!ok) this.add(pointer, detail);
    return ok;
  }

  get empty(): boolean {
    return this.errors.length === 0;
  }

  /** The faults collected so far, in the order found (a preview answers them instead of throwing). */
  get faults(): readonly FieldError[] {
    return this.errors;
  }

  /** Throws the collected refusals as one 422 (or the chosen code); does nothing when none. */
  throwIfAny(): void {
    if (this.errors.length) throw refusal(this.code, this.errors);
  }
}

export function refusal(code: ErrorCode, errors: FieldError[]): AppError {
  const detail = errors.map((e) => `${pointerLabel(e.pointer)}: ${e.detail}`).join('; ');
  return new AppError(code, { detail, errors });
}

/** Throws a single-field 422 at once. */
export function refuse(pointer: string, detail: string, code: ErrorCode = 'validation'): never {
  throw refusal(code, [{ pointer, detail }]);
}

// Shared rule checks, called by invoices, claims and reference data alike so they cannot drift.

/**
 * What the columns hold (docs/design.md §4: a value out of range is 422): amounts are numeric(20,4),
 * rates, quantities and percentages numeric(24,10). The bounds leave a digit of headroom.
 */
export const RANGE = {
  /** Every amount, given or computed (line amounts, totals, base amounts): |amount| < 10^15. */
  amount: new Dec('1e15'),
  /** Quantities, rates and percentages: |value| < 10^13. */
  rate: new Dec('1e13'),
} as const;
export const AMOUNT_RANGE_TEXT = 'must be less than 1000000000000000 (10^15)';
export const RATE_RANGE_TEXT = 'must be less than 10000000000000 (10^13)';
export const inAmountRange = (d: Decimal) => d.abs().lt(RANGE.amount);

/** Visible text: not empty once invisible characters (spaces, zero-width and other ignorables) are removed. */
export function notBlank(r: Refusals, value: string | undefined | null, pointer: string): boolean {
  return r.check(value === undefined || value === null || !isBlank(value), pointer, 'must not be blank');
}

export function maxLength(r: Refusals, value: string | undefined | null, max: number, pointer: string): boolean {
  return r.check(value === undefined || value === null || [...value].length <= max, pointer, `must be at most ${max} characters`);
}

/**
 * A rate, quantity or percentage: at most 10 places (or `maxPlaces`), within [min, max] when given,
 * and always within what the column holds (|value| < 10^13). The first fault is the one named.
 */
export function rateInRange(
  r: Refusals,
  value: string,
  pointer: string,
  opts: { maxPlaces?: number; min?: string; max?: string; minExclusive?: boolean } = {},
): boolean {
  if (!DECIMAL_PATTERN.test(value)) return r.check(false, pointer, 'must be a decimal string');
  if (!r.check(checkRatePlaces(value, opts.maxPlaces ?? 10), pointer, `must have at most ${opts.maxPlaces ?? 10} decimal places`)) return false;
  const v = new Dec(value);
  if (opts.min !== undefined) {
    const ok = opts.minExclusive ? v.gt(opts.min) : v.gte(opts.min);
    if (!r.check(ok, pointer, opts.minExclusive ? `must be greater than ${opts.min}` : `must be at least ${opts.min}`)) return false;
  }
  if (opts.max !== undefined && !r.check(v.lte(opts.max), pointer, `must be at most ${opts.max}`)) return false;
  return r.check(v.abs().lt(RANGE.rate), pointer, RATE_RANGE_TEXT);
}

/** A quantity (units, kilometres, days): greater than 0, at most 10 places, within the column. */
export function positiveQuantity(r: Refusals, value: string, pointer: string): boolean {
  return rateInRange(r, value, pointer, { min: '0', minExclusive: true });
}

/**
 * An amount with at most the currency's minor units (not checked when the currency is unknown: the
 * currency field is refused on its own), not negative (or greater than 0 with `positive`, or either
 * sign with `allowNegative`), and within what the column holds (|amount| < 10^15).
 */
export function amountInCurrency(
  r: Refusals,
  value: string,
  currency: string,
  pointer: string,
  opts: { allowNegative?: boolean; positive?: boolean } = {},
): boolean {
  if (!DECIMAL_PATTERN.test(value)) return r.check(false, pointer, 'must be a decimal string');
  const mu = currencyMinorUnits(currency);
  if (mu !== undefined && !r.check(checkAmountPlaces(value, currency), pointer, `must have at most ${mu} decimal places for ${currency}`)) return false;
  const v = new Dec(value);
  if (opts.positive && !r.check(v.gt(0), pointer, 'must be greater than 0')) return false;
  if (!opts.allowNegative && !r.check(!v.isNegative(), pointer, 'must not be negative')) return false;
  return r.check(inAmountRange(v), pointer, AMOUNT_RANGE_TEXT);
}

/**
 * A unit price (docs/design.md §4): up to 6 decimal places whatever the currency, not negative, and
 * within what the column holds (|price| < 10^15). What is rounded to the currency is the line's
 * net amount, not the price.
 */
export function unitPriceInRange(r: Refusals, value: string, pointer: string): boolean {
  if (!DECIMAL_PATTERN.test(value)) return r.check(false, pointer, 'must be a decimal string');
  if (!r.check(checkRatePlaces(value, UNIT_PRICE_MAX_PLACES), pointer, `must have at most ${UNIT_PRICE_MAX_PLACES} decimal places`)) return false;
  const v = new Dec(value);
  if (!r.check(!v.isNegative(), pointer, 'must not be negative')) return false;
  return r.check(inAmountRange(v), pointer, AMOUNT_RANGE_TEXT);
}

/** A dated period: `to` (inclusive, open when null) not before `from`. */
export function datedPeriod(r: Refusals, from: string, to: string | null | undefined, pointer = '/valid_to'): boolean {
  return r.check(!to || to >= from, pointer, 'must not be before valid_from');
}
