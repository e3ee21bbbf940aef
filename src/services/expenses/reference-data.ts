import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  claimAnalyticAccounts,
  claimAnalyticAxes,
  claimFiles,
  claimGroups,
  expenseCategories,
  mileageRateBands,
  mileageRates,
  perDiemRateBands,
  perDiemRates,
} from '../../db/schema';
import { sha256Hex } from '../../lib/crypto';
import { AppError, validationError } from '../../lib/errors';
import { checkRatePlaces } from '../../lib/money';

/** Set-up of the claims area's reference data (demo, tests, later the set-up operations). */

function one<T>(rows: T[]): T {
  const [row] = rows;
  if (!row) throw new AppError('internal');
  return row;
}

export async function createExpenseCategory(db: Database, input: { organizationId: string; code: string; name: string; active?: boolean }) {
  if (!input.name.trim()) throw validationError('/name', 'must not be blank');
  return one(
    await db
      .insert(expenseCategories)
      .values({ organizationId: input.organizationId, code: input.code.trim(), name: input.name.trim(), active: input.active ?? true })
      .returning(),
  );
}

export async function createClaimGroup(db: Database, input: { organizationId: string; name: string }) {
  if (!input.name.trim()) throw validationError('/name', 'must not be blank');
  return one(await db.insert(claimGroups).values({ organizationId: input.organizationId, name: input.name.trim() }).returning());
}

/** A retired group keeps its claims and takes no new ones. */
export async function retireClaimGroup(db: Database, q: { organizationId: string; id: string; now: Date }) {
  await db
    .update(claimGroups)
    .set({ retiredAt: q.now })
    .where(and(eq(claimGroups.organizationId, q.organizationId), eq(claimGroups.id, q.id)));
}

export async function createClaimAnalyticAxis(db: Database, input: { organizationId: string; name: string; isProjectAxis?: boolean }) {
  return one(
    await db
      .insert(claimAnalyticAxes)
      .values({ organizationId: input.organizationId, name: input.name, isProjectAxis: input.isProjectAxis ?? false })
      .returning(),
  );
}

export async function createClaimAnalyticAccount(db: Database, input: { organizationId: string; axisId: string; code: string; name: string }) {
  return one(
    await db
      .insert(claimAnalyticAccounts)
      .values({ organizationId: input.organizationId, axisId: input.axisId, code: input.code, name: input.name })
      .returning(),
  );
}

export interface MileageBandInput {
  band: string;
  fromKm: string;
  /** Exclusive; absent for the open-ended last band. */
  toKm?: string | null;
  ratePerKm: string;
}

export async function createMileageRate(
  db: Database,
  input: { organizationId: string; name: string; currency: string; validFrom: string; validTo?: string | null; bands: MileageBandInput[] },
) {
  if (input.bands.length === 0) throw validationError('/bands', 'must have at least one band');
  for (const [i, b] of input.bands.entries()) {
    if (!checkRatePlaces(b.ratePerKm)) throw validationError(`/bands/${i}/rate_per_km`, 'must be a decimal with up to 10 places');
  }
  const rate = one(
    await db
      .insert(mileageRates)
      .values({ organizationId: input.organizationId, name: input.name, currency: input.currency, validFrom: input.validFrom, validTo: input.validTo ?? null })
      .returning(),
  );
  await db.insert(mileageRateBands).values(
    input.bands.map((b) => ({ organizationId: input.organizationId, rateId: rate.id, band: b.band, fromKm: b.fromKm, toKm: b.toKm ?? null, ratePerKm: b.ratePerKm })),
  );
  return rate;
}

export async function createPerDiemRate(
  db: Database,
  input: { organizationId: string; name: string; currency: string; validFrom: string; validTo?: string | null; bands: { band: string; amountPerDay: string }[] },
) {
  if (input.bands.length === 0) throw validationError('/bands', 'must have at least one band');
  const rate = one(
    await db
      .insert(perDiemRates)
      .values({ organizationId: input.organizationId, name: input.name, currency: input.currency, validFrom: input.validFrom, validTo: input.validTo ?? null })
      .returning(),
  );
  await db
    .insert(perDiemRateBands)
    .values(input.bands.map((b) => ({ organizationId: input.organizationId, rateId: rate.id, band: b.band, amountPerDay: b.amountPerDay })));
  return rate;
}

/** Records an uploaded file (its SHA-256) that may support claim lines. */
export async function storeClaimFile(db: Database, input: { organizationId: string; uploadedBy: string; content: Buffer | string }) {
  return one(
    await db
      .insert(claimFiles)
      .values({ organizationId: input.organizationId, uploadedBy: input.uploadedBy, sha256: sha256Hex(input.content) })
      .returning(),
  );
}
