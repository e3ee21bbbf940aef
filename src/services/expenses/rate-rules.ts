import { claimLineUseOfRate } from '../../db/queries/expense-reference-data';
import { Dec } from '../../lib/money';
import { datedPeriod, type Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { conflict, knownCurrency, visibleText, written, type SetupFamily } from '../settings/setup';

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

/** The dated header of a rate as stored. */
interface RateRow {
  id: string;
  name: string;
  currency: string;
  validFrom: string;
  validTo: string | null;
  active: boolean;
  revision: number;
}

/** A rate's change: header fields, and the bands only when they differ from the stored ones. */
export interface RateChange<Band> {
  name?: string;
  currency?: string;
  validFrom?: string;
  validTo?: string | null;
  active?: boolean;
  bands?: Band[];
}

/**
 * The set-up family of a banded rate (mileage, per diem): locked by its header, answered with its
 * bands, its bands replaced whole when they change.
 */
export function rateFamily<Row extends RateRow & { bands: unknown[] }, View, Band>(f: {
  entity: string;
  what: string;
  lock(ctx: ServiceContext, q: { organizationId: string; id: string }): Promise<unknown>;
  find(ctx: ServiceContext, q: { organizationId: string; id: string }): Promise<Row | undefined>;
  update(ctx: ServiceContext, q: { organizationId: string; id: string; set: Omit<RateChange<Band>, 'bands'> }): Promise<unknown>;
  replaceBands(ctx: ServiceContext, q: { organizationId: string; rateId: string; bands: Band[] }): Promise<unknown>;
  view(row: Row): View;
}): SetupFamily<Row, View, RateChange<Band>> {
  return {
    entity: f.entity,
    what: f.what,
    lock: async (ctx, id) => {
      const q = { organizationId: ctx.org.id, id };
      return (await f.lock(ctx, q)) ? f.find(ctx, q) : undefined;
    },
    write: async (ctx, current, { bands, ...set }) => {
      const q = { organizationId: ctx.org.id, id: current.id };
      written(await f.update(ctx, { ...q, set }));
      if (bands) await f.replaceBands(ctx, { organizationId: ctx.org.id, rateId: current.id, bands });
      return f.find(ctx, q);
    },
    view: (_ctx, row) => f.view(row),
    inactive: (_ctx, row) => (row.active ? undefined : 'is already inactive'),
  };
}

/** Whether bands as checked (decimal strings as sent) say what the stored ones say. */
export function sameBands<T extends Record<string, string | null>>(stored: T[], sent: T[], decimals: (keyof T)[]): boolean {
  if (stored.length !== sent.length) return false;
  return stored.every((s, i) => {
    const b = sent[i]!;
    return Object.keys(b).every((k) => {
      const x = s[k];
      const y = b[k];
      if (x === null || y === null || x === undefined || y === undefined) return x === y;
      return decimals.includes(k) ? new Dec(x).eq(y) : x === y;
    });
  });
}
