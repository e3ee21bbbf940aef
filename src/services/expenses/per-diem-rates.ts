import * as ref from '../../db/queries/expense-reference-data';
import { isCurrency } from '../../lib/code-lists';
import { checkAmountPlaces, Dec, formatAmount } from '../../lib/money';
import { amountInCurrency, Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { openPage } from '../settings/page';
import { changeRecord, createdRecord, deactivateRecord, visibleText, written, type RecordChange } from '../settings/setup';
import type { ListRatesInput } from './mileage-rates';
import { checkRateHeader, guardRateInUse, MAX_BANDS, rateFamily, sameBands } from './rate-rules';

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

const perDiemRates = rateFamily<PerDiemRateWithBands, PerDiemRateAnswer, ReturnType<typeof checkPerDiemBands>[number]>({
  entity: ENTITY,
  what: 'per-diem rate',
  lock: (ctx, q) => ref.lockPerDiemRate(ctx.db, q),
  find: (ctx, q) => ref.findPerDiemRate(ctx.db, q),
  update: (ctx, q) => ref.updatePerDiemRateRow(ctx.db, q),
  replaceBands: (ctx, q) => ref.replacePerDiemRateBands(ctx.db, q),
  view: perDiemRateView,
});

/** Rates by valid_from; deactivated ones with `include_inactive`. */
export async function listPerDiemRates(ctx: ServiceContext, input: ListRatesInput) {
  const filters = { include_inactive: input.include_inactive ?? false, on: input.on };
  const page = await openPage(ctx, ENTITY, input, filters);
  const rows = await ref.listPerDiemRates(ctx.db, { organizationId: ctx.org.id, includeInactive: filters.include_inactive, on: input.on, after: page.after, limit: page.take });
  return page.answer(rows, (p) => ({ value: p.validFrom, id: p.id }), perDiemRateView);
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
  return createdRecord(ctx, perDiemRates, await ref.findPerDiemRate(ctx.db, { organizationId: ctx.org.id, id: rate.id }));
}

export interface UpdatePerDiemRateInput extends RecordChange {
  name?: string;
  currency?: string;
  valid_from?: string;
  valid_to?: string | null;
  bands?: PerDiemBandInput[];
}

/** Changes a rate; one a claim line was priced with keeps its bands and currency (409). */
export async function updatePerDiemRate(ctx: ServiceContext, input: UpdatePerDiemRateInput): Promise<PerDiemRateAnswer> {
  return changeRecord(ctx, perDiemRates, input, async (current) => {
    const from = input.valid_from ?? current.validFrom;
    const to = input.valid_to === undefined ? current.validTo : input.valid_to;
    const currency = input.currency ?? current.currency;
    const r = new Refusals();
    const { name } = checkRateHeader(r, input, { from, to });
    let bands: ReturnType<typeof checkPerDiemBands> | undefined;
    if (isCurrency(currency)) {
      if (input.bands) bands = checkPerDiemBands(r, input.bands, currency);
      else if (currency !== current.currency) {
        const misfit = current.bands.find((b) => !checkAmountPlaces(new Dec(b.amountPerDay).toFixed(), currency));
        r.check(!misfit, '/currency', `cannot hold the band ${misfit?.band}'s amount per day; send the bands again in ${currency}`);
      }
    }
    r.throwIfAny();
    await guardRateInUse(ctx, current, 'per_diem', { bands: input.bands !== undefined, currency: input.currency, from, to });
    const changed = bands && !sameBands(current.bands, bands, ['amountPerDay']);
    return { name, currency: input.currency, validFrom: from, validTo: to, bands: changed ? bands : undefined };
  });
}

/** A deactivated rate is offered to no new claim line; lines already priced keep it. */
export async function deactivatePerDiemRate(ctx: ServiceContext, input: RecordChange): Promise<PerDiemRateAnswer> {
  return deactivateRecord(ctx, perDiemRates, input, () => ({ active: false }));
}
