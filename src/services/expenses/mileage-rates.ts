import * as ref from '../../db/queries/expense-reference-data';
import { Dec, formatRate } from '../../lib/money';
import { Refusals, rateInRange } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { openPage } from '../settings/page';
import { changeRecord, createdRecord, deactivateRecord, visibleText, written, type RecordChange } from '../settings/setup';
import { checkRateHeader, guardRateInUse, MAX_BANDS, rateFamily, sameBands } from './rate-rules';

/**
 * settings.mileageRates: a rate per kilometre in force for a dated period, in bands by distance
 * (banded cumulatively over the claimant's year, docs/design.md §17). Bands are given in order and are
 * contiguous from 0 km: each starts where the previous one ends (to_km exclusive), only the last may
 * be open (to_km null). Rates per km are positive with up to 10 places.
 */

const ENTITY = 'mileageRates';
const MAX_KM = '1000000000';
const MAX_RATE = '1000000';

export interface MileageBandInput {
  band: string;
  from_km: string;
  to_km?: string | null;
  rate_per_km: string;
}

type MileageRateWithBands = ref.MileageRateRow & { bands: ref.MileageBandRow[] };

export function mileageRateView(row: MileageRateWithBands) {
  return {
    id: row.id,
    name: row.name,
    currency: row.currency,
    valid_from: row.validFrom,
    valid_to: row.validTo,
    active: row.active,
    bands: row.bands.map((b) => ({
      band: b.band,
      from_km: formatRate(b.fromKm),
      to_km: b.toKm === null ? null : formatRate(b.toKm),
      rate_per_km: formatRate(b.ratePerKm),
    })),
    revision: row.revision,
  };
}
export type MileageRateAnswer = ReturnType<typeof mileageRateView>;

/** Checks every band and their contiguity; answers them ready to store (labels trimmed). */
export function checkMileageBands(r: Refusals, bands: MileageBandInput[]) {
  if (!r.check(bands.length > 0 && bands.length <= MAX_BANDS, '/bands', `must have 1 to ${MAX_BANDS} bands`)) return [];
  const labels = new Set<string>();
  let previousTo: string | null | undefined;
  const out = bands.map((b, i) => {
    const at = `/bands/${i}`;
    const band = visibleText(r, b.band, `${at}/band`, 50);
    r.check(!labels.has(band), `${at}/band`, 'is given to another band of the rate');
    labels.add(band);
    const fromOk = rateInRange(r, b.from_km, `${at}/from_km`, { min: '0', max: MAX_KM });
    if (fromOk) {
      if (i === 0) r.check(new Dec(b.from_km).isZero(), `${at}/from_km`, 'must be 0: the first band starts at 0 km');
      else if (previousTo === null) r.add(`/bands/${i - 1}/to_km`, 'must be set: only the last band may be open');
      else if (previousTo !== undefined) {
        r.check(new Dec(b.from_km).eq(previousTo), `${at}/from_km`, `must be ${formatRate(previousTo)}, the previous band's to_km: bands are contiguous, without gaps or overlaps`);
      }
    }
    const to = b.to_km ?? null;
    const toOk = to === null || rateInRange(r, to, `${at}/to_km`, { min: '0', max: MAX_KM });
    if (fromOk && toOk && to !== null) r.check(new Dec(to).gt(b.from_km), `${at}/to_km`, 'must be greater than from_km');
    rateInRange(r, b.rate_per_km, `${at}/rate_per_km`, { min: '0', minExclusive: true, max: MAX_RATE });
    previousTo = toOk ? to : undefined;
    return { band, fromKm: b.from_km, toKm: to, ratePerKm: b.rate_per_km };
  });
  return out;
}

const mileageRates = rateFamily<MileageRateWithBands, MileageRateAnswer, ReturnType<typeof checkMileageBands>[number]>({
  entity: ENTITY,
  what: 'mileage rate',
  lock: (ctx, q) => ref.lockMileageRate(ctx.db, q),
  find: (ctx, q) => ref.findMileageRate(ctx.db, q),
  update: (ctx, q) => ref.updateMileageRateRow(ctx.db, q),
  replaceBands: (ctx, q) => ref.replaceMileageRateBands(ctx.db, q),
  view: mileageRateView,
});

export interface ListRatesInput {
  include_inactive?: boolean;
  /** Only rates in force on this day. */
  on?: string;
  limit?: number;
  cursor?: string;
}

/** Rates by valid_from; deactivated ones with `include_inactive`. */
export async function listMileageRates(ctx: ServiceContext, input: ListRatesInput) {
  const filters = { include_inactive: input.include_inactive ?? false, on: input.on };
  const page = await openPage(ctx, ENTITY, input, filters);
  const rows = await ref.listMileageRates(ctx.db, { organizationId: ctx.org.id, includeInactive: filters.include_inactive, on: input.on, after: page.after, limit: page.take });
  return page.answer(rows, (m) => ({ value: m.validFrom, id: m.id }), mileageRateView);
}

export interface CreateMileageRateInput {
  name: string;
  currency?: string;
  valid_from: string;
  valid_to?: string | null;
  bands: MileageBandInput[];
}

export async function createMileageRate(ctx: ServiceContext, input: CreateMileageRateInput): Promise<MileageRateAnswer> {
  const r = new Refusals();
  const currency = input.currency ?? ctx.org.baseCurrency;
  const validTo = input.valid_to ?? null;
  const { name } = checkRateHeader(r, { ...input, currency }, { from: input.valid_from, to: validTo });
  const bands = checkMileageBands(r, input.bands);
  r.throwIfAny();
  const rate = written(await ref.insertMileageRate(ctx.db, { organizationId: ctx.org.id, name: name!, currency, validFrom: input.valid_from, validTo }));
  await ref.insertMileageRateBands(ctx.db, { organizationId: ctx.org.id, rateId: rate.id, bands });
  return createdRecord(ctx, mileageRates, await ref.findMileageRate(ctx.db, { organizationId: ctx.org.id, id: rate.id }));
}

export interface UpdateMileageRateInput extends RecordChange {
  name?: string;
  currency?: string;
  valid_from?: string;
  valid_to?: string | null;
  bands?: MileageBandInput[];
}

/** Changes a rate; one a claim line was priced with keeps its bands and currency (409). */
export async function updateMileageRate(ctx: ServiceContext, input: UpdateMileageRateInput): Promise<MileageRateAnswer> {
  return changeRecord(ctx, mileageRates, input, async (current) => {
    const from = input.valid_from ?? current.validFrom;
    const to = input.valid_to === undefined ? current.validTo : input.valid_to;
    const r = new Refusals();
    const { name } = checkRateHeader(r, input, { from, to });
    const bands = input.bands && checkMileageBands(r, input.bands);
    r.throwIfAny();
    await guardRateInUse(ctx, current, 'mileage', { bands: input.bands !== undefined, currency: input.currency, from, to });
    const changed = bands && !sameBands(current.bands, bands, ['fromKm', 'toKm', 'ratePerKm']);
    return { name, currency: input.currency, validFrom: from, validTo: to, bands: changed ? bands : undefined };
  });
}

/** A deactivated rate is offered to no new claim line; lines already priced keep it. */
export async function deactivateMileageRate(ctx: ServiceContext, input: RecordChange): Promise<MileageRateAnswer> {
  return deactivateRecord(ctx, mileageRates, input, () => ({ active: false }));
}
