import type { Database } from '../../db/client';
import { insertClaimGroup, retireClaimGroupRow } from '../../db/queries/claims';
import {
  insertExpenseCategory,
  insertMileageRate,
  insertMileageRateBands,
  insertPerDiemRate,
  insertPerDiemRateBands,
} from '../../db/queries/expense-reference-data';
import { AppError, validationError } from '../../lib/errors';
import { checkAmountPlaces, checkRatePlaces } from '../../lib/money';

/**
 * Set-up of the claims area's own reference data (demo, tests, later the set-up operations). Analytic
 * axes and accounts, tax codes and the chart of accounts are shared with receivables: see
 * services/receivables/reference-data.ts. Documents are uploaded through services/documents.
 */

function one<T>(row: T | undefined): T {
  if (!row) throw new AppError('internal');
  return row;
}

export async function createExpenseCategory(db: Database, input: { organizationId: string; code: string; name: string; active?: boolean }) {
  if (!input.name.trim()) throw validationError('/name', 'must not be blank');
  return one(
    await insertExpenseCategory(db, {
      organizationId: input.organizationId,
      code: input.code.trim(),
      name: input.name.trim(),
      active: input.active ?? true,
    }),
  );
}

export async function createClaimGroup(db: Database, input: { organizationId: string; name: string }) {
  if (!input.name.trim()) throw validationError('/name', 'must not be blank');
  return one(await insertClaimGroup(db, { organizationId: input.organizationId, name: input.name.trim() }));
}

/** A retired group keeps its claims and takes no new ones. */
export async function retireClaimGroup(db: Database, q: { organizationId: string; id: string; now: Date }) {
  await retireClaimGroupRow(db, q);
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
    await insertMileageRate(db, {
      organizationId: input.organizationId,
      name: input.name,
      currency: input.currency,
      validFrom: input.validFrom,
      validTo: input.validTo ?? null,
    }),
  );
  await insertMileageRateBands(db, {
    organizationId: input.organizationId,
    rateId: rate.id,
    bands: input.bands.map((b) => ({ band: b.band, fromKm: b.fromKm, toKm: b.toKm ?? null, ratePerKm: b.ratePerKm })),
  });
  return rate;
}

export async function createPerDiemRate(
  db: Database,
  input: { organizationId: string; name: string; currency: string; validFrom: string; validTo?: string | null; bands: { band: string; amountPerDay: string }[] },
) {
  if (input.bands.length === 0) throw validationError('/bands', 'must have at least one band');
  for (const [i, b] of input.bands.entries()) {
    if (!checkAmountPlaces(b.amountPerDay, input.currency)) {
      throw validationError(`/bands/${i}/amount_per_day`, `must be a decimal amount with at most the places of ${input.currency}`);
    }
  }
  const rate = one(
    await insertPerDiemRate(db, {
      organizationId: input.organizationId,
      name: input.name,
      currency: input.currency,
      validFrom: input.validFrom,
      validTo: input.validTo ?? null,
    }),
  );
  await insertPerDiemRateBands(db, {
    organizationId: input.organizationId,
    rateId: rate.id,
    bands: input.bands.map((b) => ({ band: b.band, amountPerDay: b.amountPerDay })),
  });
  return rate;
}
