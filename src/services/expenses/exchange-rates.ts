import * as fx from '../../db/queries/exchange-rates';
import { formatRate } from '../../lib/money';
import { Refusals, rateInRange } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { checkRevision } from '../revision';
import { recordSettingsChange } from '../settings/history';
import { decodePage, pageOf } from '../settings/page';
import { conflict, knownCurrency, notFound, pageLimit, uniqueOrConflict, written } from '../settings/records';

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
  const after = await decodePage(ctx, ENTITY, input, filters);
  const limit = pageLimit(input);
  const rows = await fx.listExchangeRates(ctx.db, { organizationId: ctx.org.id, includeInactive: filters.include_inactive, currency: input.currency, after, limit: limit + 1 });
  return pageOf(ctx, ENTITY, filters, rows, limit, (x) => ({ value: `${x.currency}:${x.rateDate}`, id: x.id }), (x) => exchangeRateView(x, ctx.org.baseCurrency));
}

export async function createExchangeRate(ctx: ServiceContext, input: { currency: string; rate_date: string; rate: string }): Promise<ExchangeRateAnswer> {
  const r = new Refusals();
  if (knownCurrency(r, input.currency)) {
    r.check(input.currency !== ctx.org.baseCurrency, '/currency', `is the base currency (${ctx.org.baseCurrency}), whose rate is always 1`);
  }
  checkRate(r, input.rate);
  r.throwIfAny();
  const row = written(
    await uniqueOrConflict(
      fx.insertExchangeRate(ctx.db, { organizationId: ctx.org.id, currency: input.currency, rateDate: input.rate_date, rate: input.rate }),
      DAY_TAKEN,
      '/rate_date',
      `A rate of ${input.currency} on ${input.rate_date} already exists; update it instead`,
    ),
  );
  const after = exchangeRateView(row, ctx.org.baseCurrency);
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'create', after });
  return after;
}

/** Corrects a rate's value; its currency and day stay (deactivate it and create another instead). */
export async function updateExchangeRate(ctx: ServiceContext, input: { id: string; expected_revision: number; rate?: string }): Promise<ExchangeRateAnswer> {
  const q = { organizationId: ctx.org.id, id: input.id };
  const current = await fx.lockExchangeRate(ctx.db, q);
  if (!current) throw notFound('exchange rate');
  checkRevision(current.revision, input.expected_revision);
  if (!current.active) throw conflict('/id', 'is inactive', 'An inactive exchange rate is kept as it was; create a new one');
  const r = new Refusals();
  checkRate(r, input.rate);
  r.throwIfAny();
  const row = written(await fx.updateExchangeRateRow(ctx.db, { ...q, set: { rate: input.rate } }));
  const before = exchangeRateView(current, ctx.org.baseCurrency);
  const after = exchangeRateView(row, ctx.org.baseCurrency);
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'update', before, after });
  return after;
}

/** A deactivated rate is no longer the reference of its day; the day is free for a new rate. */
export async function deactivateExchangeRate(ctx: ServiceContext, input: { id: string; expected_revision: number }): Promise<ExchangeRateAnswer> {
  const q = { organizationId: ctx.org.id, id: input.id };
  const current = await fx.lockExchangeRate(ctx.db, q);
  if (!current) throw notFound('exchange rate');
  checkRevision(current.revision, input.expected_revision);
  if (!current.active) throw conflict('/id', 'is already inactive', 'The exchange rate is already inactive');
  const row = written(await fx.updateExchangeRateRow(ctx.db, { ...q, set: { active: false } }));
  const before = exchangeRateView(current, ctx.org.baseCurrency);
  const after = exchangeRateView(row, ctx.org.baseCurrency);
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'deactivate', before, after });
  return after;
}
