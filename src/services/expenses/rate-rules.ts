import { claimLineUseOfRate } from '../../db/queries/expense-reference-data';
import { datedPeriod, type Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { conflict, knownCurrency, visibleText } from '../settings/records';

/**
 * What mileage and per-diem rates share: a name, a currency, a dated period, and the rule that a rate
 * a claim line was priced with is not rewritten. A rate in force changes by a new dated rate (end the
 * old one with valid_to); its bands and currency stay as the lines used them (409 `conflict`), and
 * its period may move only while it still covers every line's expense date.
 */

export const MAX_BANDS = 20;

export interface RateHeaderInput {
  name?: string;
  currency?: string;
  valid_from?: string;
  valid_to?: string | null;
}

/** Checks the header fields given; answers the name trimmed. */
export function checkRateHeader(r: Refusals, input: RateHeaderInput, period: { from: string; to: string | null }): { name: string | undefined } {
  const name = visibleText(r, input.name, '/name', 200);
  knownCurrency(r, input.currency);
  datedPeriod(r, period.from, period.to);
  return { name };
}

/** Refuses a change that would rewrite what claim lines were priced with. */
export async function guardRateInUse(
  ctx: ServiceContext,
  rate: { id: string; currency: string },
  type: 'mileage' | 'per_diem',
  change: { bands: boolean; currency: string | undefined; from: string; to: string | null },
): Promise<void> {
  const use = await claimLineUseOfRate(ctx.db, { organizationId: ctx.org.id, rateId: rate.id, type });
  if (!use.lines) return;
  const used = `the rate priced ${use.lines} claim line(s); create a new dated rate and end this one with valid_to`;
  if (change.bands) throw conflict('/bands', 'cannot change: claim lines were priced with these bands', `The bands cannot change: ${used}`);
  if (change.currency !== undefined && change.currency !== rate.currency) {
    throw conflict('/currency', 'cannot change: claim lines were priced in it', `The currency cannot change: ${used}`);
  }
  if (use.firstDay && change.from > use.firstDay) {
    throw conflict('/valid_from', `must stay on or before ${use.firstDay}, the first expense date priced with the rate`, `valid_from cannot move past ${use.firstDay}: ${used}`);
  }
  if (use.lastDay && change.to !== null && change.to < use.lastDay) {
    throw conflict('/valid_to', `must stay on or after ${use.lastDay}, the last expense date priced with the rate`, `valid_to cannot move before ${use.lastDay}: ${used}`);
  }
}
