import { payoutEncryptionKey } from '../../src/config';
import type { Database } from '../../src/db/client';
import { createPayoutChannel } from '../../src/services/expenses/payout-channels';
import {
  createClaimAnalyticAccount,
  createClaimAnalyticAxis,
  createClaimGroup,
  createExpenseCategory,
  createMileageRate,
  createPerDiemRate,
} from '../../src/services/expenses/reference-data';

/** The key tests encrypt payout channels under (the development key of an in-memory database). */
export const TEST_PAYOUT_KEY = payoutEncryptionKey({ DATA_DIR: 'memory://', PAYOUT_ENCRYPTION_KEY: undefined });

let counter = 0;

export async function createTestPayoutChannel(db: Database, organizationId: string, memberId: string, opts: { active?: boolean; accountNumber?: string } = {}) {
  counter += 1;
  return createPayoutChannel(db, TEST_PAYOUT_KEY, {
    organizationId,
    memberId,
    channelKey: 'bank_transfer',
    name: `Savings ${counter}`,
    fields: { bank_name: 'Maybank', account_holder: 'Nur Aisyah Binti Ahmad', account_number: opts.accountNumber ?? '5140 1234 5678' },
    active: opts.active,
  });
}

/** Reference data a claim line needs: categories, a project axis and a department axis, rates. */
export async function createClaimReferenceData(db: Database, organizationId: string) {
  counter += 1;
  const meals = await createExpenseCategory(db, { organizationId, code: `MEAL-${counter}`, name: 'Meals' });
  const travel = await createExpenseCategory(db, { organizationId, code: `TRAVEL-${counter}`, name: 'Travel' });
  const advance = await createExpenseCategory(db, { organizationId, code: `ADV-${counter}`, name: 'Cash advance' });
  const projects = await createClaimAnalyticAxis(db, { organizationId, name: 'Projects', isProjectAxis: true });
  const departments = await createClaimAnalyticAxis(db, { organizationId, name: 'Departments' });
  const zeta = await createClaimAnalyticAccount(db, { organizationId, axisId: projects.id, code: 'P-ZETA', name: 'Zeta Tower' });
  const alpha = await createClaimAnalyticAccount(db, { organizationId, axisId: projects.id, code: 'P-ALPHA', name: 'Alpha Bridge' });
  const sales = await createClaimAnalyticAccount(db, { organizationId, axisId: departments.id, code: 'D-SALES', name: 'Sales' });
  const mileage = await createMileageRate(db, {
    organizationId,
    name: 'Car mileage',
    currency: 'MYR',
    validFrom: '2020-01-01',
    bands: [
      { band: 'first_500_km', fromKm: '0', toKm: '500', ratePerKm: '0.8' },
      { band: 'beyond_500_km', fromKm: '500', ratePerKm: '0.5' },
    ],
  });
  const perDiem = await createPerDiemRate(db, {
    organizationId,
    name: 'Daily allowance',
    currency: 'MYR',
    validFrom: '2020-01-01',
    bands: [
      { band: 'domestic', amountPerDay: '80' },
      { band: 'overseas', amountPerDay: '150.5' },
    ],
  });
  const group = await createClaimGroup(db, { organizationId, name: `Group ${counter}` });
  return { meals, travel, advance, projects, departments, zeta, alpha, sales, mileage, perDiem, group };
}
