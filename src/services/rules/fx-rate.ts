/**
 * The fx_rate rule, one for documents and claim lines alike: base-currency units per one unit of the
 * record's currency (docs/design.md §4). Pure; it adds refusals and never throws.
 */
import type Decimal from 'decimal.js';
import { checkRatePlaces, Dec } from '../../lib/money';
import { rateInRange, type Refusals } from '../../lib/refusals';

/**
 * At most 10 places on any fx_rate (a base-currency "1" included); exactly 1 in the base currency
 * (absent means 1); required, greater than 0 and within the column in another currency (not asked
 * for when the currency itself is unknown: that field is refused on its own). Answers the rate, or
 * undefined when it was refused or is missing.
 */
export function checkFxRate(
  r: Refusals,
  q: { fx_rate: string | undefined; currency: string; base_currency: string; currency_known: boolean },
  pointer = '/fx_rate',
): Decimal | undefined {
  const given = q.fx_rate;
  if (given !== undefined && !r.check(checkRatePlaces(given), pointer, 'must have at most 10 decimal places')) return undefined;
  if (q.currency === q.base_currency) {
    if (given === undefined || new Dec(given).eq(1)) return new Dec(1);
    r.add(pointer, `must be 1 in the base currency ${q.base_currency}`);
    return undefined;
  }
  if (given === undefined) {
    if (q.currency_known) r.add(pointer, `is required when the currency is not the base currency ${q.base_currency}`);
    return undefined;
  }
  return rateInRange(r, given, pointer, { min: '0', minExclusive: true }) ? new Dec(given) : undefined;
}
