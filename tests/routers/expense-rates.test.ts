import { describe, expect, it } from 'vitest';
import { createMileageRate, createPerDiemRate } from '../factories/setup';
import { createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';

const t = useTestApp();

describe('rate set-up refuses amounts the currency cannot hold', () => {
  it('a per-diem amount with more places than the currency, and a mileage rate over 10 places, are 422 at the band', async () => {
    const org = await createTestOrganization(t.db);
    const perDiem = await createPerDiemRate(t.db, {
      organizationId: org.id,
      name: 'Allowance',
      currency: 'MYR',
      validFrom: '2026-01-01',
      bands: [{ band: 'domestic', amountPerDay: '80.005' }],
    }).catch((e) => e);
    expect(perDiem.appCode).toBe('validation');
    expect(perDiem.fieldErrors).toEqual([{ pointer: '/bands/0/amount_per_day', detail: expect.stringContaining('MYR') }]);

    const mileage = await createMileageRate(t.db, {
      organizationId: org.id,
      name: 'Car',
      currency: 'MYR',
      validFrom: '2026-01-01',
      bands: [{ band: 'all', fromKm: '0', ratePerKm: '0.12345678901' }],
    }).catch((e) => e);
    expect(mileage.appCode).toBe('validation');

    const ok = await createPerDiemRate(t.db, {
      organizationId: org.id,
      name: 'Allowance',
      currency: 'MYR',
      validFrom: '2026-01-01',
      bands: [{ band: 'domestic', amountPerDay: '80.50' }],
    });
    expect(ok.id).toEqual(expect.any(String));
  });
});
