import { parseKey } from '../../src/lib/secret-box';
import type { Database } from '../../src/db/client';
import { findProjectAxis } from '../../src/db/queries/reference-data';
import { uploadDocument } from '../../src/services/documents/upload-document';
import { createPayoutChannel } from '../../src/services/expenses/payout-channels';
import { createClaimGroup, createExpenseCategory, createMileageRate, createPerDiemRate } from '../../src/services/expenses/reference-data';
import { createAnalyticAccount, createAnalyticAxis, createTaxCode } from '../../src/services/receivables/reference-data';
import { TEST_PAYOUT_ENCRYPTION_KEY } from '../helpers/keys';

/** The key tests encrypt payout channels under: the test app's PAYOUT_ENCRYPTION_KEY. */
export const TEST_PAYOUT_KEY = parseKey(TEST_PAYOUT_ENCRYPTION_KEY)!;

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

/**
 * Reference data a claim line needs: categories, rates, and the shared reference data (the project
 * axis, an organization has at most one, reused when it exists; a department axis; a tax code).
 */
export async function createClaimReferenceData(db: Database, organizationId: string) {
  counter += 1;
  const meals = await createExpenseCategory(db, { organizationId, code: `MEAL-${counter}`, name: 'Meals' });
  const travel = await createExpenseCategory(db, { organizationId, code: `TRAVEL-${counter}`, name: 'Travel' });
  const advance = await createExpenseCategory(db, { organizationId, code: `ADV-${counter}`, name: 'Cash advance' });
  const projects =
    (await findProjectAxis(db, { organizationId })) ?? (await createAnalyticAxis(db, organizationId, { code: `PRJ-${counter}`, name: 'Projects', isProjectAxis: true }));
  const departments = await createAnalyticAxis(db, organizationId, { code: `DEPT-${counter}`, name: 'Departments' });
  const zeta = await createAnalyticAccount(db, organizationId, { axisId: projects.id, code: 'P-ZETA', name: 'Zeta Tower' });
  const alpha = await createAnalyticAccount(db, organizationId, { axisId: projects.id, code: 'P-ALPHA', name: 'Alpha Bridge' });
  const sales = await createAnalyticAccount(db, organizationId, { axisId: departments.id, code: 'D-SALES', name: 'Sales' });
  const serviceTax = await createTaxCode(db, organizationId, { code: `SV6-${counter}`, name: 'Service tax 6%', rate: '6', taxType: '02' });
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
  return { meals, travel, advance, projects, departments, zeta, alpha, sales, serviceTax, mileage, perDiem, group };
}

/**
 * Uploads a document as the member, the service POST /v1/documents calls. The text is wrapped in a
 * minimal PDF, so the same text gives the same bytes and the same SHA-256.
 */
export async function uploadClaimDocument(db: Database, organizationId: string, memberId: string, text: string) {
  return uploadDocument(
    db,
    { organizationId, memberId, via: 'session', credentialId: memberId, permissions: new Set(['documents.create']) },
    { filename: 'receipt.pdf', declaredType: 'application/pdf', content: Buffer.from(`%PDF-1.4\n% ${text}\n%%EOF\n`) },
  );
}
