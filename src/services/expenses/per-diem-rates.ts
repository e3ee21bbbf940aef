import * as ref from '../../db/queries/expense-reference-data';
import { isCurrency } from '../../lib/code-lists';
import { checkAmountPlaces, Dec, formatAmount } from '../../lib/money';
import { amountInCurrency, Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { checkRevision } from '../revision';
import { recordSettingsChange } from '../settings/history';
import { decodePage, pageOf } from '../settings/page';
import { conflict, notFound, pageLimit, visibleText, written } from '../settings/records';
import type { ListRatesInput } from './mileage-rates';
import { checkRateHeader, guardRateInUse, MAX_BANDS } from './rate-rules';

/**
 * settings.perDiemRates: a daily allowance in force for a dated period, with bands (domestic,
 * overseas, ...) each paying a positive amount per day at the currency's places.
 */

const ENTITY = 'perDiemRates';
const MAX_AMOUNT = '1000000000';

export interface PerDiemBandInput {
  band: string;
  amount_per_day: string;
}

type PerDiemRateWithBands = ref.PerDiemRateRow & { bands: ref.PerDiemBandRow[] };

export function perDiemRateView(row: PerDiemRateWithBands) {
  return {
    id: row.id,
    name: row.name,
    currency: row.currency,
    valid_from: row.validFrom,
    valid_to: row.validTo,
    active: row.active,
    bands: row.bands.map((b) => ({ band: b.band, amount_per_day: formatAmount(b.amountPerDay, row.currency) })),
    revision: row.revision,
  };
}
export type PerDiemRateAnswer = ReturnType<typeof perDiemRateView>;

/** Checks every band against the currency; answers them ready to store (labels trimmed). */
export function checkPerDiemBands(r: Refusals, bands: PerDiemBandInput[], currency: string) {
  if (!r.check(bands.length > 0 && bands.length <= MAX_BANDS, '/bands', `must have 1 to ${MAX_BANDS} bands`)) return [];
  const labels = new Set<string>();
  return bands.map((b, i) => {
    const at = `/bands/${i}`;
    const band = visibleText(r, b.band, `${at}/band`, 50);
    r.check(!labels.has(band), `${at}/band`, 'is given to another band of the rate');
    labels.add(band);
    if (amountInCurrency(r, b.amount_per_day, currency, `${at}/amount_per_day`)) {
      const amount = new Dec(b.amount_per_day);
      if (r.check(amount.gt(0), `${at}/amount_per_day`, 'must be greater than 0')) r.check(amount.lte(MAX_AMOUNT), `${at}/amount_per_day`, `must be at most ${MAX_AMOUNT}`);
    }
    return { band, amountPerDay: b.amount_per_day };
  });
}

async function viewOf(ctx: ServiceContext, id: string): Promise<PerDiemRateAnswer> {
  return perDiemRateView(written(await ref.findPerDiemRate(ctx.db, { organizationId: ctx.org.id, id })));
}

/** Rates by valid_from; deactivated ones with `include_inactive`. */
export async function listPerDiemRates(ctx: ServiceContext, input: ListRatesInput) {
  const filters = { include_inactive: input.include_inactive ?? false, on: input.on };
  const after = await decodePage(ctx, ENTITY, input, filters);
  const limit = pageLimit(input);
  const rows = await ref.listPerDiemRates(ctx.db, { organizationId: ctx.org.id, includeInactive: filters.include_inactive, on: input.on, after, limit: limit + 1 });
  return pageOf(ctx, ENTITY, filters, rows, limit, (p) => ({ value: p.validFrom, id: p.id }), perDiemRateView);
}

export interface CreatePerDiemRateInput {
  name: string;
  currency?: string;
  valid_from: string;
  valid_to?: string | null;
  bands: PerDiemBandInput[];
}

export async function createPerDiemRate(ctx: ServiceContext, input: CreatePerDiemRateInput): Promise<PerDiemRateAnswer> {
  const r = new Refusals();
  const currency = input.currency ?? ctx.org.baseCurrency;
  const validTo = input.valid_to ?? null;
  const { name } = checkRateHeader(r, { ...input, currency }, { from: input.valid_from, to: validTo });
  // Amounts are checked against a currency only once it is known.
  const bands = isCurrency(currency) ? checkPerDiemBands(r, input.bands, currency) : [];
  r.throwIfAny();
  const rate = written(await ref.insertPerDiemRate(ctx.db, { organizationId: ctx.org.id, name: name!, currency, validFrom: input.valid_from, validTo }));
  await ref.insertPerDiemRateBands(ctx.db, { organizationId: ctx.org.id, rateId: rate.id, bands });
  const after = await viewOf(ctx, rate.id);
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: rate.id, action: 'create', after });
  return after;
}

export interface UpdatePerDiemRateInput {
  id: string;
  expected_revision: number;
  name?: string;
  currency?: string;
  valid_from?: string;
  valid_to?: string | null;
  bands?: PerDiemBandInput[];
}

/** Changes a rate; one a claim line was priced with keeps its bands and currency (409). */
export async function updatePerDiemRate(ctx: ServiceContext, input: UpdatePerDiemRateInput): Promise<PerDiemRateAnswer> {
  const q = { organizationId: ctx.org.id, id: input.id };
  const current = await ref.lockPerDiemRate(ctx.db, q);
  if (!current) throw notFound('per-diem rate');
  checkRevision(current.revision, input.expected_revision);
  const stored = written(await ref.findPerDiemRate(ctx.db, q));
  const before = perDiemRateView(stored);
  const from = input.valid_from ?? current.validFrom;
  const to = input.valid_to === undefined ? current.validTo : input.valid_to;
  const currency = input.currency ?? current.currency;
  const r = new Refusals();
  const { name } = checkRateHeader(r, input, { from, to });
  let bands: ReturnType<typeof checkPerDiemBands> | undefined;
  if (isCurrency(currency)) {
    if (input.bands) bands = checkPerDiemBands(r, input.bands, currency);
    else if (currency !== current.currency) {
      const misfit = stored.bands.find((b) => !checkAmountPlaces(new Dec(b.amountPerDay).toFixed(), currency));
      r.check(!misfit, '/currency', `cannot hold the band ${misfit?.band}'s amount per day; send the bands again in ${currency}`);
    }
  }
  r.throwIfAny();
  await guardRateInUse(ctx, current, 'per_diem', { bands: input.bands !== undefined, currency: input.currency, from, to });
  await ref.updatePerDiemRateRow(ctx.db, { ...q, set: { name, currency: input.currency, validFrom: from, validTo: to } });
  if (bands) await ref.replacePerDiemRateBands(ctx.db, { organizationId: ctx.org.id, rateId: current.id, bands });
  const after = await viewOf(ctx, current.id);
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: current.id, action: 'update', before, after });
  return after;
}

/** A deactivated rate is offered to no new claim line; lines already priced keep it. */
export async function deactivatePerDiemRate(ctx: ServiceContext, input: { id: string; expected_revision: number }): Promise<PerDiemRateAnswer> {
  const q = { organizationId: ctx.org.id, id: input.id };
  const current = await ref.lockPerDiemRate(ctx.db, q);
  if (!current) throw notFound('per-diem rate');
  checkRevision(current.revision, input.expected_revision);
  if (!current.active) throw conflict('/id', 'is already inactive', 'The per-diem rate is already inactive');
  const before = await viewOf(ctx, current.id);
  await ref.updatePerDiemRateRow(ctx.db, { ...q, set: { active: false } });
  const after = await viewOf(ctx, current.id);
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: current.id, action: 'deactivate', before, after });
  return after;
}
