import type { Database } from '../../db/client';
import { findClaimGroup } from '../../db/queries/claims';
import { findExpenseCategory, findMileageRate, findPerDiemRate } from '../../db/queries/expense-reference-data';
import { systemContextFor } from '../settings/rules';
import { written } from '../settings/records';
import { createClaimGroup as createClaimGroupWith, retireClaimGroup as retireClaimGroupWith } from './claim-groups';
import { createExpenseCategory as createExpenseCategoryWith, deactivateExpenseCategory } from './expense-categories';
import { createMileageRate as createMileageRateWith } from './mileage-rates';
import { createPerDiemRate as createPerDiemRateWith } from './per-diem-rates';

/**
 * The old set-up signatures of the claims area's reference data, `fn(db, { organizationId, ... })`,
 * kept as thin wrappers for the demo and test factories until they go through the procedures
 * (settings.expenseCategories, claimGroups, mileageRates, perDiemRates). They run the same services,
 * rules and settings history, acting as the system, and answer the stored rows as before. Analytic
 * axes and accounts, tax codes and the chart of accounts are shared with receivables: see
 * services/receivables/reference-data.ts.
 */

/** @deprecated call settings.expenseCategories.create (services/expenses/expense-categories.ts). */
export async function createExpenseCategory(db: Database, input: { organizationId: string; code: string; name: string; active?: boolean }) {
  const ctx = await systemContextFor(db, input.organizationId);
  const category = await createExpenseCategoryWith(ctx, { code: input.code, name: input.name });
  if (input.active === false) await deactivateExpenseCategory(ctx, { id: category.id, expected_revision: category.revision });
  return written(await findExpenseCategory(db, { organizationId: input.organizationId, id: category.id }));
}

/** @deprecated call settings.claimGroups.create (services/expenses/claim-groups.ts). */
export async function createClaimGroup(db: Database, input: { organizationId: string; name: string }) {
  const ctx = await systemContextFor(db, input.organizationId);
  const group = await createClaimGroupWith(ctx, { name: input.name });
  return written(await findClaimGroup(db, { organizationId: input.organizationId, id: group.id }));
}

/** @deprecated call settings.claimGroups.deactivate. A retired group keeps its claims and takes no new ones. */
export async function retireClaimGroup(db: Database, q: { organizationId: string; id: string; now: Date }) {
  const ctx = await systemContextFor(db, q.organizationId, q.now);
  const group = written(await findClaimGroup(db, q));
  await retireClaimGroupWith(ctx, { id: q.id, expected_revision: group.revision });
}

export interface MileageBandInput {
  band: string;
  fromKm: string;
  /** Exclusive; absent for the open-ended last band. */
  toKm?: string | null;
  ratePerKm: string;
}

/** @deprecated call settings.mileageRates.create (services/expenses/mileage-rates.ts). */
export async function createMileageRate(
  db: Database,
  input: { organizationId: string; name: string; currency: string; validFrom: string; validTo?: string | null; bands: MileageBandInput[] },
) {
  const ctx = await systemContextFor(db, input.organizationId);
  const rate = await createMileageRateWith(ctx, {
    name: input.name,
    currency: input.currency,
    valid_from: input.validFrom,
    valid_to: input.validTo ?? null,
    bands: input.bands.map((b) => ({ band: b.band, from_km: b.fromKm, to_km: b.toKm ?? null, rate_per_km: b.ratePerKm })),
  });
  return written(await findMileageRate(db, { organizationId: input.organizationId, id: rate.id }));
}

/** @deprecated call settings.perDiemRates.create (services/expenses/per-diem-rates.ts). */
export async function createPerDiemRate(
  db: Database,
  input: { organizationId: string; name: string; currency: string; validFrom: string; validTo?: string | null; bands: { band: string; amountPerDay: string }[] },
) {
  const ctx = await systemContextFor(db, input.organizationId);
  const rate = await createPerDiemRateWith(ctx, {
    name: input.name,
    currency: input.currency,
    valid_from: input.validFrom,
    valid_to: input.validTo ?? null,
    bands: input.bands.map((b) => ({ band: b.band, amount_per_day: b.amountPerDay })),
  });
  return written(await findPerDiemRate(db, { organizationId: input.organizationId, id: rate.id }));
}
