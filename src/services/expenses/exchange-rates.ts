import * as fx from '../../db/queries/exchange-rates';
import { Dec, formatRate } from '../../lib/money';
import { Refusals, rateInRange } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { openPage } from '../settings/page';
import { changeRecord, conflict, createdRecord, deactivateRecord, knownCurrency, uniquely, type RecordChange, type SetupFamily } from '../settings/setup';

/**
 * settings.exchangeRates: the organization's reference rates by date, base-currency units per one
 * unit of a foreign currency (positive, up to 10 places). One active rate per currency and day (409);
 * a claim line with `fx_rate_source: reference` takes the latest one on or before its expense date
 * (db/queries/exchange-rates.ts findReferenceRateOn). Lines keep the rate they were priced with, so
 * correcting a rate rewrites no line.
 */

const ENTITY = 'exchangeRates';
const MAX_RATE = '1000000000';
const DAY_TAKEN = 'exchange_rates_org_currency_date';

export function exchangeRateView(row: fx.ExchangeRateRow, baseCurrency: string) {
  return {
    id: row.id,
    currency: row.currency,
    base_currency: baseCurrency,
    rate_date: row.rateDate,
    rate: formatRate(row.rate),
    active: row.active,
    revision: row.revision,
    created_at: row.createdAt.toISOString(),
  };
}
export type ExchangeRateAnswer = ReturnType<typeof exchangeRateView>;

const checkRate = (r: Refusals, rate: string | undefined) => rate === undefined || rateInRange(r, rate, '/rate', { min: '0', minExclusive: true, max: MAX_RATE });

export async function listExchangeRates(ctx: ServiceContext, input: { currency?: string; include_inactive?: boolean; limit?: number; cursor?: string }) {
  const filters = { include_inactive: input.include_inactive ?? false, currency: input.currency };
  const page = await openPage(ctx, ENTITY, input, filters);
  const rows = await fx.listExchangeRates(ctx.db, { organizationId: ctx.org.id, includeInactive: filters.include_inactive, currency: input.currency, after: page.after, limit: page.take });
  return page.answer(rows, (x) => ({ value: `${x.currency}:${x.rateDate}`, id: x.id }), (x) => exchangeRateView(x, ctx.org.baseCurrency));
}

const exchangeRates: SetupFamily<fx.ExchangeRateRow, ExchangeRateAnswer> = {
  entity: ENTITY,
  what: 'exchange rate',
  lock: (ctx, id) => fx.lockExchangeRate(ctx.db, { organizationId: ctx.org.id, id }),
  write: (ctx, current, set) => fx.updateExchangeRateRow(ctx.db, { organizationId: ctx.org.id, id: current.id, set }),
  view: (ctx, row) => exchangeRateView(row, ctx.org.baseCurrency),
  inactive: (_ctx, row) => (row.active ? undefined : 'is already inactive'),
};

export async function createExchangeRate(ctx: ServiceContext, input: { currency: string; rate_date: string; rate: string }): Promise<ExchangeRateAnswer> {
  const r = new Refusals();
  if (knownCurrency(r, input.currency)) {
    r.check(input.currency !== ctx.org.baseCurrency, '/currency', `is the base currency (${ctx.org.baseCurrency}), whose rate is always 1`);
  }
  checkRate(r, input.rate);
  r.throwIfAny();
  const row = await uniquely(
    () => fx.insertExchangeRate(ctx.db, { organizationId: ctx.org.id, currency: input.currency, rateDate: input.rate_date, rate: input.rate }),
    DAY_TAKEN,
    '/rate_date',
    `A rate of ${input.currency} on ${input.rate_date} already exists; update it instead`,
  );
  return createdRecord(ctx, exchangeRates, row);
}

/** Corrects a rate's value; its currency and day stay (deactivate it and create another instead). */
export async function updateExchangeRate(ctx: ServiceContext, input: RecordChange & { rate?: string }): Promise<ExchangeRateAnswer> {
  return changeRecord(ctx, exchangeRates, input, (current) => {
    if (!current.active) throw conflict('/id', 'is inactive', 'An inactive exchange rate is kept as it was; create a new one');
    const r = new Refusals();
    checkRate(r, input.rate);
    r.throwIfAny();
    // A rate sent as it stands ("4.5" for 4.5000000000) is no change.
    return { rate: input.rate !== undefined && !new Dec(input.rate).eq(current.rate) ? input.rate : undefined };
  });
}

/** A deactivated rate is no longer the reference of its day; the day is free for a new rate. */
export async function deactivateExchangeRate(ctx: ServiceContext, input: RecordChange): Promise<ExchangeRateAnswer> {
  return deactivateRecord(ctx, exchangeRates, input, () => ({ active: false }));
}
