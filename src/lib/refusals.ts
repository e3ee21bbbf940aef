import { AppError, pointerLabel, type ErrorCode, type FieldError } from './errors';
import { checkAmountPlaces, checkRatePlaces, DECIMAL_PATTERN, Dec } from './money';

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

  /** Adds the fault when `bad` holds; answers whether the value was fine. */
  check(ok: boolean, pointer: string, detail: string): boolean {
    if (!ok) this.add(pointer, detail);
    return ok;
  }

  get empty(): boolean {
    return this.errors.length === 0;
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

/** Visible text: not empty once whitespace is trimmed. */
export function notBlank(r: Refusals, value: string | undefined | null, pointer: string): boolean {
  return r.check(value === undefined || value === null || value.trim().length > 0, pointer, 'must not be blank');
}

export function maxLength(r: Refusals, value: string | undefined | null, max: number, pointer: string): boolean {
  return r.check(value === undefined || value === null || [...value].length <= max, pointer, `must be at most ${max} characters`);
}

/** A rate, quantity or percentage: at most 10 places (or `maxPlaces`), within [min, max] when given. */
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
  return true;
}

/** An amount with at most the currency's minor units, not negative unless allowed. */
export function amountInCurrency(r: Refusals, value: string, currency: string, pointer: string, opts: { allowNegative?: boolean } = {}): boolean {
  if (!DECIMAL_PATTERN.test(value)) return r.check(false, pointer, 'must be a decimal string');
  if (!r.check(checkAmountPlaces(value, currency), pointer, `must have at most the decimal places of ${currency}`)) return false;
  if (!opts.allowNegative) return r.check(!new Dec(value).isNegative(), pointer, 'must not be negative');
  return true;
}

/** A dated period: `to` (inclusive, open when null) not before `from`. */
export function datedPeriod(r: Refusals, from: string, to: string | null | undefined, pointer = '/valid_to'): boolean {
  return r.check(!to || to >= from, pointer, 'must not be before valid_from');
}
