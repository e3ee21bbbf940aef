/**
 * The UBL 2.1 JSON value shapes LHDN's samples use: every element is an array of objects, the value in
 * `_` and attributes as sibling keys. Amounts are JSON numbers with a `currencyID`
 * (`[{"_": 216, "currencyID": "MYR"}]`), made from decimal strings without ever computing with a JS
 * number: the number is only the carrier of an exact decimal, checked to print back the same.
 */
import { Dec, roundAmount } from '../../../lib/money';
import { EinvoiceBuildError } from './types';

export type UblValue = Array<Record<string, unknown>>;

/** `[{"_": value, ...attributes}]` */
export function val(value: string | number | boolean, attributes: Record<string, string> = {}): UblValue {
  return [{ _: value, ...attributes }];
}

/**
 * A decimal string as the JSON number that prints it exactly ("216.00" -> 216, "0.3" -> 0.3); refuses a
 * value a double cannot carry (more than 15 significant digits) instead of changing it.
 */
export function exactNumber(decimal: string, pointer: string): number {
  const d = new Dec(decimal);
  const n = Number(d.toFixed());
  if (!Number.isFinite(n) || !new Dec(n).eq(d)) throw new EinvoiceBuildError(pointer, `${decimal} cannot be written exactly`);
  return Object.is(n, -0) ? 0 : n;
}

/** Round an amount to the currency's minor units and give the JSON value. */
export function amount(decimal: string, currency: string, pointer: string): UblValue {
  return val(exactNumber(roundAmount(decimal, currency).toFixed(), pointer), { currencyID: currency });
}

/** A decimal string that must already be exact to the currency's minor units (no silent rounding). */
export function checkedAmount(decimal: string, currency: string, pointer: string): string {
  if (!/^-?\d+(\.\d+)?$/.test(decimal)) throw new EinvoiceBuildError(pointer, `${decimal} is not a decimal string`);
  if (!roundAmount(decimal, currency).eq(decimal)) {
    throw new EinvoiceBuildError(pointer, `${decimal} has more places than ${currency} allows`);
  }
  return decimal;
}

/** Sum of decimal strings, as a plain decimal string. */
export function sum(values: Iterable<string>): string {
  let total = new Dec(0);
  for (const v of values) total = total.plus(v);
  return total.toFixed();
}

/** The UBL TaxScheme every LHDN tax category carries. */
export const TAX_SCHEME = [{ ID: val('OTH', { schemeID: 'UN/ECE 5153', schemeAgencyID: '6' }) }];

/** UTC `YYYY-MM-DD` and `hh:mm:ssZ` of an instant. */
export function issueDateTime(issuedAt: Date | string): { date: string; time: string } {
  const d = issuedAt instanceof Date ? issuedAt : new Date(issuedAt);
  if (Number.isNaN(d.getTime())) throw new EinvoiceBuildError('/issuedAt', 'not a date and time');
  const iso = d.toISOString();
  return { date: iso.slice(0, 10), time: `${iso.slice(11, 19)}Z` };
}
