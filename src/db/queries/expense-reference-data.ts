import { and, eq } from 'drizzle-orm';
import type { Database } from '../client';
import { expenseCategories, mileageRateBands, mileageRates, perDiemRateBands, perDiemRates } from '../schema';

/** Expense reference data a claim line refers to; ids of another organization are simply not found. */

export async function findExpenseCategory(db: Database, q: { organizationId: string; id: string }) {
  const [row] = await db
    .select()
    .from(expenseCategories)
    .where(and(eq(expenseCategories.organizationId, q.organizationId), eq(expenseCategories.id, q.id)));
  return row;
}

/** A mileage rate with its bands, or undefined. */
export async function findMileageRate(db: Database, q: { organizationId: string; id: string }) {
  const [rate] = await db
    .select()
    .from(mileageRates)
    .where(and(eq(mileageRates.organizationId, q.organizationId), eq(mileageRates.id, q.id)));
  if (!rate) return undefined;
  const bands = await db
    .select()
    .from(mileageRateBands)
    .where(and(eq(mileageRateBands.organizationId, q.organizationId), eq(mileageRateBands.rateId, rate.id)));
  return { ...rate, bands };
}

/** A per-diem rate with its bands, or undefined. */
export async function findPerDiemRate(db: Database, q: { organizationId: string; id: string }) {
  const [rate] = await db
    .select()
    .from(perDiemRates)
    .where(and(eq(perDiemRates.organizationId, q.organizationId), eq(perDiemRates.id, q.id)));
  if (!rate) return undefined;
  const bands = await db
    .select()
    .from(perDiemRateBands)
    .where(and(eq(perDiemRateBands.organizationId, q.organizationId), eq(perDiemRateBands.rateId, rate.id)));
  return { ...rate, bands };
}

/** Inserts of expense reference data; each returns the new row(s) (undefined only if the database returned none). */

export async function insertExpenseCategory(db: Database, values: typeof expenseCategories.$inferInsert) {
  const [row] = await db.insert(expenseCategories).values(values).returning();
  return row;
}

export async function insertMileageRate(db: Database, values: typeof mileageRates.$inferInsert) {
  const [row] = await db.insert(mileageRates).values(values).returning();
  return row;
}

export async function insertMileageRateBands(
  db: Database,
  q: { organizationId: string; rateId: string; bands: Omit<typeof mileageRateBands.$inferInsert, 'organizationId' | 'rateId'>[] },
) {
  return db
    .insert(mileageRateBands)
    .values(q.bands.map((b) => ({ ...b, organizationId: q.organizationId, rateId: q.rateId })))
    .returning();
}

export async function insertPerDiemRate(db: Database, values: typeof perDiemRates.$inferInsert) {
  const [row] = await db.insert(perDiemRates).values(values).returning();
  return row;
}

export async function insertPerDiemRateBands(
  db: Database,
  q: { organizationId: string; rateId: string; bands: Omit<typeof perDiemRateBands.$inferInsert, 'organizationId' | 'rateId'>[] },
) {
  return db
    .insert(perDiemRateBands)
    .values(q.bands.map((b) => ({ ...b, organizationId: q.organizationId, rateId: q.rateId })))
    .returning();
}
