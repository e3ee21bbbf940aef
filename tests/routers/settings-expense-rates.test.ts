import { afterEach, describe, expect, it } from 'vitest';
import { findReferenceRateOn } from '../../src/db/queries/exchange-rates';
import { addClaimLine } from '../factories/claims';
import { createTestOrganization, type TestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { clientOf, describeSharedRefusals, expectRefused, historyOf, readAllPages, refusal, type Refused } from '../helpers/settings';

const t = useTestApp();
afterEach(() => t.setNow(undefined));

const settings = (org: TestOrganization, revision?: number) => clientOf(t, org.owner.session, revision).settings;
const code = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}`;
const pointers = (e: Refused) => e.fieldErrors?.map((f) => f.pointer);

const carBands = [
  { band: 'first_500_km', from_km: '0', to_km: '500', rate_per_km: '0.80' },
  { band: 'beyond_500_km', from_km: '500', to_km: null, rate_per_km: '0.5000' },
];

describeSharedRefusals(t, {
  path: 'settings.expenseCategories',
  validCreate: async () => ({ code: code('MEALS'), name: 'Meals' }),
  text: { key: 'name', max: 200 },
  wrongType: { key: 'code', value: 7 },
  validUpdate: { name: 'Meals and entertainment' },
});

describeSharedRefusals(t, {
  path: 'settings.claimGroups',
  validCreate: async () => ({ name: 'Penang roadshow' }),
  text: { key: 'name', max: 200 },
  wrongType: { key: 'name', value: ['x'] },
  validUpdate: { name: 'Northern roadshow' },
});

describeSharedRefusals(t, {
  path: 'settings.mileageRates',
  validCreate: async () => ({ name: 'Private car', valid_from: '2026-01-01', bands: carBands }),
  text: { key: 'name', max: 200 },
  wrongType: { key: 'bands', value: 'all' },
  validUpdate: { name: 'Private car (2026)' },
});

describeSharedRefusals(t, {
  path: 'settings.perDiemRates',
  validCreate: async () => ({ name: 'Daily allowance', valid_from: '2026-01-01', bands: [{ band: 'domestic', amount_per_day: '80' }] }),
  text: { key: 'name', max: 200 },
  wrongType: { key: 'valid_to', value: true },
  validUpdate: { name: 'Daily subsistence' },
});

describeSharedRefusals(t, {
  path: 'settings.exchangeRates',
  validCreate: async () => ({ currency: 'USD', rate_date: '2026-04-01', rate: '4.4712' }),
  wrongType: { key: 'rate', value: 4.4712 },
  validUpdate: { rate: '4.4700' },
});

/** A draft claim of the owner with one mileage and one per-diem line priced with the given rates. */
async function priceLines(org: TestOrganization, rates: { mileageId?: string; perDiemId?: string; day: string }) {
  const category = await settings(org).expenseCategories.create({ code: code('TRAVEL'), name: 'Travel' });
  const filed = await clientOf(t, org.owner.session).expenses.claims.create({ title: 'Ipoh trip' });
  const base = { organizationId: org.id, claimId: filed.claim.id, now: new Date(), expenseDate: rates.day, categoryId: category.id, description: 'Trip' };
  if (rates.mileageId) await addClaimLine(t.db, { ...base, type: 'mileage', quantity: '120.5', rateId: rates.mileageId });
  if (rates.perDiemId) await addClaimLine(t.db, { ...base, type: 'per_diem', quantity: '2', rateId: rates.perDiemId, band: 'domestic' });
}

describe('settings.expenseCategories and settings.claimGroups', () => {
  it('a category code in use is 409 at /code; categories page by code without duplicates; history is written', async () => {
    const org = await createTestOrganization(t.db);
    for (const c of ['TRAVEL', 'MEALS', 'LODGING', 'PARKING', 'TOLLS']) await settings(org).expenseCategories.create({ code: c, name: c.toLowerCase() });
    expectRefused(await refusal(settings(org).expenseCategories.create({ code: 'MEALS', name: 'Again' })), 409, 'conflict', '/code');
    const { items } = await readAllPages(settings(org).expenseCategories.list as never, {}, 2);
    expect(items.map((c) => (c as unknown as { code: string }).code)).toEqual(['LODGING', 'MEALS', 'PARKING', 'TOLLS', 'TRAVEL']);
    const meals = items[1] as unknown as { id: string; revision: number };
    const off = await settings(org, meals.revision).expenseCategories.deactivate({ id: meals.id });
    expect(off).toEqual({ id: meals.id, code: 'MEALS', name: 'meals', active: false, revision: 2 });
    expect((await settings(org).expenseCategories.list({})).items.map((c) => c.code)).not.toContain('MEALS');
    expect((await historyOf(t, org.owner.session, 'expenseCategories', meals.id)).map((h) => [h.action, h.after?.active])).toEqual([
      ['create', true],
      ['deactivate', false],
    ]);
  });

  it('retiring a group sets retired_at; a retired group takes no new claim and no change', async () => {
    const org = await createTestOrganization(t.db);
    t.setNow(new Date('2026-02-01T00:00:00Z'));
    const group = await settings(org).claimGroups.create({ name: ' Annual retreat ' });
    expect(group).toMatchObject({ name: 'Annual retreat', retired_at: null, revision: 1 });
    const retired = await settings(org, 1).claimGroups.deactivate({ id: group.id });
    expect(retired.retired_at).toBe('2026-02-01T00:00:00.000Z');
    expectRefused(await refusal(settings(org, 2).claimGroups.update({ id: group.id, name: 'Renamed' })), 409, 'conflict');
    const filed = await refusal(clientOf(t, org.owner.session).expenses.claims.create({ title: 'Lunch', group_id: group.id }));
    expectRefused(filed, 422, 'validation', '/group_id');
    expect((await settings(org).claimGroups.list({})).items).toEqual([]);
    expect((await settings(org).claimGroups.list({ include_inactive: true })).items).toEqual([retired]);
  });
});

describe('settings.mileageRates', () => {
  it('answers rates and distances trimmed, the currency defaulting to the base currency', async () => {
    const org = await createTestOrganization(t.db);
    const rate = await settings(org).mileageRates.create({
      name: 'Private car',
      valid_from: '2026-01-01',
      bands: [
        { band: 'first', from_km: '0', to_km: '500.000', rate_per_km: '0.80' },
        { band: 'next', from_km: '500', to_km: '1000.5', rate_per_km: '0.1234567890' },
        { band: 'beyond', from_km: '1000.50', rate_per_km: '0.50' },
      ],
    });
    expect(rate).toEqual({
      id: expect.any(String),
      name: 'Private car',
      currency: 'MYR',
      valid_from: '2026-01-01',
      valid_to: null,
      active: true,
      bands: [
        { band: 'first', from_km: '0', to_km: '500', rate_per_km: '0.8' },
        { band: 'next', from_km: '500', to_km: '1000.5', rate_per_km: '0.123456789' },
        { band: 'beyond', from_km: '1000.5', to_km: null, rate_per_km: '0.5' },
      ],
      revision: 1,
    });
    expect((await settings(org).mileageRates.list({})).items).toEqual([rate]);
  });

  it('bands must be contiguous from 0 km without gaps or overlaps, only the last open: every fault at its band, in one answer', async () => {
    const org = await createTestOrganization(t.db);
    const create = (bands: unknown[]) => refusal(settings(org).mileageRates.create({ name: 'Car', valid_from: '2026-01-01', bands: bands as never }));
    const cases: [unknown[], string[]][] = [
      [[{ band: 'a', from_km: '1', rate_per_km: '0.8' }], ['/bands/0/from_km']],
      [[{ band: 'a', from_km: '0', to_km: '500', rate_per_km: '0.8' }, { band: 'b', from_km: '600', rate_per_km: '0.5' }], ['/bands/1/from_km']],
      [[{ band: 'a', from_km: '0', to_km: '500', rate_per_km: '0.8' }, { band: 'b', from_km: '400', rate_per_km: '0.5' }], ['/bands/1/from_km']],
      [[{ band: 'a', from_km: '0', rate_per_km: '0.8' }, { band: 'b', from_km: '500', rate_per_km: '0.5' }], ['/bands/0/to_km']],
      [[{ band: 'a', from_km: '0', to_km: '0', rate_per_km: '0.8' }], ['/bands/0/to_km']],
      [[{ band: 'a', from_km: '0', to_km: '10', rate_per_km: '0.8' }, { band: 'a', from_km: '10', rate_per_km: '0.5' }], ['/bands/1/band']],
      [[{ band: 'a', from_km: '0', rate_per_km: '0.12345678901' }], ['/bands/0/rate_per_km']],
      [[{ band: 'a', from_km: '0', rate_per_km: '0' }], ['/bands/0/rate_per_km']],
      [[{ band: 'a', from_km: '0', rate_per_km: '-0.5' }], ['/bands/0/rate_per_km']],
      [[{ band: '  ', from_km: '0', rate_per_km: '0.5' }], ['/bands/0/band']],
      [[{ band: 'a', from_km: '-5', to_km: '10', rate_per_km: '0.8' }, { band: 'b', from_km: '11', to_km: '5', rate_per_km: '0' }], ['/bands/0/from_km', '/bands/1/from_km', '/bands/1/to_km', '/bands/1/rate_per_km']],
      [[], ['/bands']],
    ];
    for (const [bands, expected] of cases) {
      const e = await create(bands);
      expectRefused(e, 422, 'validation');
      expect(pointers(e), JSON.stringify(bands)).toEqual(expected);
    }
    const many = Array.from({ length: 21 }, (_, i) => ({ band: `b${i}`, from_km: String(i), to_km: String(i + 1), rate_per_km: '1' }));
    expectRefused(await create(many), 422, 'validation', '/bands');
    // Malformed decimals and an unknown band field are the request's shape: 400.
    expectRefused(await create([{ band: 'a', from_km: '1e3', rate_per_km: '0.5' }]), 400, 'invalid_request', '/bands/0/from_km');
    expectRefused(await create([{ band: 'a', from_km: '0', rate_per_km: 0.5 }]), 400, 'invalid_request', '/bands/0/rate_per_km');
    expectRefused(await create([{ band: 'a', from_km: '0', rate_per_km: '0.5', colour: 'red' }]), 400, 'invalid_request', '/bands/0/colour');
    expect((await settings(org).mileageRates.list({ include_inactive: true })).items).toEqual([]);
  });

  it('the currency is ISO 4217 (unknown 422, malformed 400); valid_to not before valid_from (422)', async () => {
    const org = await createTestOrganization(t.db);
    const base = { name: 'Car', valid_from: '2026-01-01', bands: carBands };
    expectRefused(await refusal(settings(org).mileageRates.create({ ...base, currency: 'XYZ' })), 422, 'validation', '/currency');
    expectRefused(await refusal(settings(org).mileageRates.create({ ...base, currency: 'myr' })), 400, 'invalid_request', '/currency');
    expectRefused(await refusal(settings(org).mileageRates.create({ ...base, valid_to: '2025-12-31' })), 422, 'validation', '/valid_to');
    expect((await settings(org).mileageRates.create({ ...base, currency: 'SGD', valid_to: '2026-01-01' })).currency).toBe('SGD');
  });

  it('a rate claim lines were priced with keeps its bands and currency (409); it is ended by valid_to and replaced by a new dated rate', async () => {
    const org = await createTestOrganization(t.db);
    const rate = await settings(org).mileageRates.create({ name: 'Car', valid_from: '2026-01-01', bands: carBands });
    // Before any line, the bands may be replaced.
    const fixed = await settings(org, 1).mileageRates.update({ id: rate.id, bands: [{ band: 'all', from_km: '0', rate_per_km: '0.7' }] });
    expect(fixed.bands).toEqual([{ band: 'all', from_km: '0', to_km: null, rate_per_km: '0.7' }]);
    await priceLines(org, { mileageId: rate.id, day: '2026-03-15' });

    const update = (input: Record<string, unknown>) => refusal(settings(org, fixed.revision).mileageRates.update({ id: rate.id, ...input }));
    expectRefused(await update({ bands: carBands }), 409, 'conflict', '/bands');
    expectRefused(await update({ currency: 'SGD' }), 409, 'conflict', '/currency');
    expectRefused(await update({ valid_from: '2026-03-16' }), 409, 'conflict', '/valid_from');
    expectRefused(await update({ valid_to: '2026-03-14' }), 409, 'conflict', '/valid_to');

    const ended = await settings(org, fixed.revision).mileageRates.update({ id: rate.id, valid_to: '2026-06-30', name: 'Car until June' });
    expect(ended).toMatchObject({ valid_to: '2026-06-30', name: 'Car until June', bands: fixed.bands, revision: fixed.revision + 1 });
    const next = await settings(org).mileageRates.create({ name: 'Car from July', valid_from: '2026-07-01', bands: carBands });
    expect((await settings(org).mileageRates.list({ on: '2026-06-30' })).items.map((r) => r.id)).toEqual([rate.id]);
    expect((await settings(org).mileageRates.list({ on: '2026-07-01' })).items.map((r) => r.id)).toEqual([next.id]);

    const history = await historyOf(t, org.owner.session, 'mileageRates', rate.id);
    expect(history.map((h) => h.action)).toEqual(['create', 'update', 'update']);
    expect(history[1]).toMatchObject({ before: { bands: [{ rate_per_km: '0.8' }, { rate_per_km: '0.5' }] }, after: { bands: [{ rate_per_km: '0.7' }] } });
  });

  it('deactivated rates are listed only with include_inactive; rates page by valid_from without duplicates', async () => {
    const org = await createTestOrganization(t.db);
    const days = ['2026-03-01', '2025-01-01', '2026-03-01', '2024-06-01', '2026-01-01'];
    const ids: string[] = [];
    for (const d of days) ids.push((await settings(org).mileageRates.create({ name: `Car ${d}`, valid_from: d, bands: carBands })).id);
    const { items } = await readAllPages(settings(org).mileageRates.list as never, {}, 2);
    expect(items.map((r) => (r as unknown as { valid_from: string }).valid_from)).toEqual(['2024-06-01', '2025-01-01', '2026-01-01', '2026-03-01', '2026-03-01']);
    expect(new Set(items.map((r) => r.id)).size).toBe(5);
    await settings(org, 1).mileageRates.deactivate({ id: ids[3]! });
    expect((await settings(org).mileageRates.list({})).items).toHaveLength(4);
    expect((await settings(org).mileageRates.list({ include_inactive: true })).items).toHaveLength(5);
  });
});

describe('settings.perDiemRates', () => {
  it("answers amounts at the currency's places and refuses more places (422 at the band)", async () => {
    const org = await createTestOrganization(t.db);
    const myr = await settings(org).perDiemRates.create({
      name: 'Allowance',
      valid_from: '2026-01-01',
      bands: [
        { band: 'overseas', amount_per_day: '150.5' },
        { band: 'domestic', amount_per_day: '80' },
      ],
    });
    expect(myr.bands).toEqual([
      { band: 'domestic', amount_per_day: '80.00' },
      { band: 'overseas', amount_per_day: '150.50' },
    ]);
    const jpy = await settings(org).perDiemRates.create({ name: 'Tokyo', currency: 'JPY', valid_from: '2026-01-01', bands: [{ band: 'tokyo', amount_per_day: '12000' }] });
    expect(jpy.bands).toEqual([{ band: 'tokyo', amount_per_day: '12000' }]);
    const kwd = await settings(org).perDiemRates.create({ name: 'Kuwait', currency: 'KWD', valid_from: '2026-01-01', bands: [{ band: 'kw', amount_per_day: '12.5' }] });
    expect(kwd.bands).toEqual([{ band: 'kw', amount_per_day: '12.500' }]);

    const bad = await refusal(
      settings(org).perDiemRates.create({
        name: 'Bad',
        currency: 'JPY',
        valid_from: '2026-01-01',
        bands: [
          { band: 'a', amount_per_day: '100.5' },
          { band: 'b', amount_per_day: '0' },
          { band: 'a', amount_per_day: '-3' },
        ],
      }),
    );
    expectRefused(bad, 422, 'validation');
    expect(pointers(bad)).toEqual(['/bands/0/amount_per_day', '/bands/1/amount_per_day', '/bands/2/band', '/bands/2/amount_per_day']);
  });

  it('a currency change is checked against the stored bands; a rate priced on claim lines keeps bands and currency (409)', async () => {
    const org = await createTestOrganization(t.db);
    const rate = await settings(org).perDiemRates.create({ name: 'Allowance', valid_from: '2026-01-01', bands: [{ band: 'domestic', amount_per_day: '80.50' }] });
    expectRefused(await refusal(settings(org, 1).perDiemRates.update({ id: rate.id, currency: 'JPY' })), 422, 'validation', '/currency');
    const jpy = await settings(org, 1).perDiemRates.update({ id: rate.id, currency: 'JPY', bands: [{ band: 'domestic', amount_per_day: '8000' }] });
    expect(jpy).toMatchObject({ currency: 'JPY', bands: [{ band: 'domestic', amount_per_day: '8000' }], revision: 2 });
    const back = await settings(org, 2).perDiemRates.update({ id: rate.id, currency: 'MYR', bands: [{ band: 'domestic', amount_per_day: '80' }] });
    await priceLines(org, { perDiemId: rate.id, day: '2026-02-02' });
    expectRefused(await refusal(settings(org, back.revision).perDiemRates.update({ id: rate.id, bands: [{ band: 'domestic', amount_per_day: '90' }] })), 409, 'conflict', '/bands');
    expectRefused(await refusal(settings(org, back.revision).perDiemRates.update({ id: rate.id, currency: 'SGD' })), 409, 'conflict', '/currency');
    const renamed = await settings(org, back.revision).perDiemRates.update({ id: rate.id, name: 'Daily allowance' });
    expect(renamed).toMatchObject({ name: 'Daily allowance', bands: [{ band: 'domestic', amount_per_day: '80.00' }] });
  });
});

describe('settings.exchangeRates', () => {
  it('answers the rate trimmed with the base currency; up to 10 places; positive; never the base currency; one rate per currency and day (409)', async () => {
    const org = await createTestOrganization(t.db);
    const usd = await settings(org).exchangeRates.create({ currency: 'USD', rate_date: '2026-04-01', rate: '4.4700' });
    expect(usd).toEqual({
      id: expect.any(String),
      currency: 'USD',
      base_currency: 'MYR',
      rate_date: '2026-04-01',
      rate: '4.47',
      active: true,
      revision: 1,
      created_at: expect.any(String),
    });
    expect((await settings(org).exchangeRates.create({ currency: 'JPY', rate_date: '2026-04-01', rate: '0.0312345678' })).rate).toBe('0.0312345678');
    const create = (input: Record<string, unknown>) => refusal(settings(org).exchangeRates.create({ currency: 'SGD', rate_date: '2026-04-01', rate: '3.3', ...input } as never));
    expectRefused(await create({ rate: '0.03123456789' }), 422, 'validation', '/rate');
    expectRefused(await create({ rate: '0' }), 422, 'validation', '/rate');
    expectRefused(await create({ rate: '-1' }), 422, 'validation', '/rate');
    expectRefused(await create({ rate: '1'.repeat(41) }), 422, 'validation', '/rate');
    expectRefused(await create({ rate: '3,3' }), 400, 'invalid_request', '/rate');
    expectRefused(await create({ currency: 'MYR' }), 422, 'validation', '/currency');
    expectRefused(await create({ currency: 'XYZ' }), 422, 'validation', '/currency');
    expectRefused(await create({ currency: 'sgd' }), 400, 'invalid_request', '/currency');
    expectRefused(await create({ rate_date: '2026-13-01' }), 400, 'invalid_request', '/rate_date');
    const dup = await refusal(settings(org).exchangeRates.create({ currency: 'USD', rate_date: '2026-04-01', rate: '4.5' }));
    expectRefused(dup, 409, 'conflict', '/rate_date');
    // A deactivated rate frees its day.
    await settings(org, 1).exchangeRates.deactivate({ id: usd.id });
    expect((await settings(org).exchangeRates.create({ currency: 'USD', rate_date: '2026-04-01', rate: '4.5' })).rate).toBe('4.5');
  });

  it('findReferenceRateOn answers the latest active rate on or before the day, of this organization only', async () => {
    const org = await createTestOrganization(t.db);
    const other = await createTestOrganization(t.db);
    await settings(org).exchangeRates.create({ currency: 'USD', rate_date: '2026-04-01', rate: '4.47' });
    const later = await settings(org).exchangeRates.create({ currency: 'USD', rate_date: '2026-04-10', rate: '4.49' });
    await settings(org).exchangeRates.create({ currency: 'SGD', rate_date: '2026-04-05', rate: '3.3' });
    await settings(other).exchangeRates.create({ currency: 'USD', rate_date: '2026-04-08', rate: '9.99' });
    const on = async (day: string, currency = 'USD') => (await findReferenceRateOn(t.db, { organizationId: org.id, currency, day }))?.rate ?? null;
    expect(await on('2026-03-31')).toBeNull();
    expect(await on('2026-04-01')).toBe('4.4700000000');
    expect(await on('2026-04-09')).toBe('4.4700000000');
    expect(await on('2026-04-10')).toBe('4.4900000000');
    expect(await on('2027-01-01')).toBe('4.4900000000');
    expect(await on('2026-04-09', 'SGD')).toBe('3.3000000000');
    await settings(org, later.revision).exchangeRates.deactivate({ id: later.id });
    expect(await on('2026-04-10')).toBe('4.4700000000');
  });

  it('corrects a rate (If-Match) with history; lists by currency then newest day, paging without duplicates', async () => {
    const org = await createTestOrganization(t.db);
    const created: { id: string; currency: string; rate_date: string }[] = [];
    for (const [currency, day] of [
      ['USD', '2026-04-01'],
      ['SGD', '2026-04-02'],
      ['USD', '2026-04-03'],
      ['EUR', '2026-04-01'],
      ['SGD', '2026-04-01'],
      ['USD', '2026-04-02'],
    ] as const) {
      created.push(await settings(org).exchangeRates.create({ currency, rate_date: day, rate: '1.5' }));
    }
    const { items } = await readAllPages(settings(org).exchangeRates.list as never, {}, 4);
    expect(items.map((r) => { const x = r as unknown as { currency: string; rate_date: string }; return `${x.currency} ${x.rate_date}`; })).toEqual([
      'EUR 2026-04-01',
      'SGD 2026-04-02',
      'SGD 2026-04-01',
      'USD 2026-04-03',
      'USD 2026-04-02',
      'USD 2026-04-01',
    ]);
    expect((await settings(org).exchangeRates.list({ currency: 'SGD' })).items.map((r) => r.rate_date)).toEqual(['2026-04-02', '2026-04-01']);
    const first = created[0]!;
    const corrected = await settings(org, 1).exchangeRates.update({ id: first.id, rate: '4.471200' });
    expect(corrected).toMatchObject({ rate: '4.4712', revision: 2 });
    expectRefused(await refusal(settings(org, 2).exchangeRates.update({ id: first.id, rate: '0.00000000001' })), 422, 'validation', '/rate');
    const history = await historyOf(t, org.owner.session, 'exchangeRates', first.id);
    expect(history.map((h) => [h.action, h.before?.rate ?? null, h.after?.rate])).toEqual([
      ['create', null, '1.5'],
      ['update', '1.5', '4.4712'],
    ]);
  });
});
