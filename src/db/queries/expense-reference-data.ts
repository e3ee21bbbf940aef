import { and, asc, eq, gte, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { insertInChunks, anyOf, queryRows, type Database } from '../client';
import { claimGroups, expenseCategories, mileageRateBands, mileageRates, perDiemRateBands, perDiemRates } from '../schema';
import { afterKey } from './keyset';

/**
 * The claims area's own reference data: expense categories, claim groups, mileage and per-diem
 * rates with their bands. Ids of another organization are simply not found.
 */

type After = { value: string | null; id: string } | undefined;

// ---------------------------------------------------------------------------------------------
// Expense categories

export type ExpenseCategoryRow = typeof expenseCategories.$inferSelect;

export async function findExpenseCategory(db: Database, q: { organizationId: string; id: string }) {
  const [row] = await db
    .select()
    .from(expenseCategories)
    .where(and(eq(expenseCategories.organizationId, q.organizationId), eq(expenseCategories.id, q.id)));
  return row;
}

export async function lockExpenseCategory(db: Database, q: { organizationId: string; id: string }) {
  const [row] = await db
    .select()
    .from(expenseCategories)
    .where(and(eq(expenseCategories.organizationId, q.organizationId), eq(expenseCategories.id, q.id)))
    .for('update');
  return row;
}

/** Categories ordered by code (unique in the organization). */
export async function listExpenseCategories(db: Database, q: { organizationId: string; includeInactive: boolean; after: After; limit: number }) {
  const c = expenseCategories;
  const where: (SQL | undefined)[] = [eq(c.organizationId, q.organizationId), afterKey(c.code, c.id, q.after)];
  if (!q.includeInactive) where.push(eq(c.active, true));
  return db.select().from(c).where(and(...where)).orderBy(asc(c.code), asc(c.id)).limit(q.limit);
}

/** Inserts a category; a code in use raises the unique violation `expense_categories_org_code`. */
export async function insertExpenseCategory(db: Database, values: typeof expenseCategories.$inferInsert) {
  const [row] = await db.insert(expenseCategories).values(values).returning();
  return row;
}

export async function updateExpenseCategoryRow(
  db: Database,
  q: { organizationId: string; id: string; set: Partial<Pick<ExpenseCategoryRow, 'code' | 'name' | 'active'>> },
) {
  const [row] = await db
    .update(expenseCategories)
    .set({ ...q.set, revision: sql`${expenseCategories.revision} + 1` })
    .where(and(eq(expenseCategories.organizationId, q.organizationId), eq(expenseCategories.id, q.id)))
    .returning();
  return row;
}

// ---------------------------------------------------------------------------------------------
// Claim groups (finding one for a claim: db/queries/claims.ts)

export type ClaimGroupRow = typeof claimGroups.$inferSelect;

export async function lockClaimGroup(db: Database, q: { organizationId: string; id: string }) {
  const [row] = await db
    .select()
    .from(claimGroups)
    .where(and(eq(claimGroups.organizationId, q.organizationId), eq(claimGroups.id, q.id)))
    .for('update');
  return row;
}

/** Groups ordered by name, then id; retired ones only when asked. */
export async function listClaimGroups(db: Database, q: { organizationId: string; includeRetired: boolean; after: After; limit: number }) {
  const g = claimGroups;
  const where: (SQL | undefined)[] = [eq(g.organizationId, q.organizationId), afterKey(g.name, g.id, q.after)];
  if (!q.includeRetired) where.push(isNull(g.retiredAt));
  return db.select().from(g).where(and(...where)).orderBy(asc(g.name), asc(g.id)).limit(q.limit);
}

export async function updateClaimGroupRow(db: Database, q: { organizationId: string; id: string; set: Partial<Pick<ClaimGroupRow, 'name' | 'retiredAt'>> }) {
  const [row] = await db
    .update(claimGroups)
    .set({ ...q.set, revision: sql`${claimGroups.revision} + 1` })
    .where(and(eq(claimGroups.organizationId, q.organizationId), eq(claimGroups.id, q.id)))
    .returning();
  return row;
}

// ---------------------------------------------------------------------------------------------
// Mileage and per-diem rates

export type MileageRateRow = typeof mileageRates.$inferSelect;
export type MileageBandRow = typeof mileageRateBands.$inferSelect;
export type PerDiemRateRow = typeof perDiemRates.$inferSelect;
export type PerDiemBandRow = typeof perDiemRateBands.$inferSelect;

async function mileageBandsOf(db: Database, organizationId: string, rateIds: string[]): Promise<MileageBandRow[]> {
  if (!rateIds.length) return [];
  return db
    .select()
    .from(mileageRateBands)
    .where(and(eq(mileageRateBands.organizationId, organizationId), anyOf(mileageRateBands.rateId, rateIds)))
    .orderBy(asc(mileageRateBands.fromKm));
}

async function perDiemBandsOf(db: Database, organizationId: string, rateIds: string[]): Promise<PerDiemBandRow[]> {
  if (!rateIds.length) return [];
  return db
    .select()
    .from(perDiemRateBands)
    .where(and(eq(perDiemRateBands.organizationId, organizationId), anyOf(perDiemRateBands.rateId, rateIds)))
    .orderBy(asc(perDiemRateBands.band));
}

function withBands<R extends { id: string }, B extends { rateId: string }>(rates: R[], bands: B[]): (R & { bands: B[] })[] {
  return rates.map((r) => ({ ...r, bands: bands.filter((b) => b.rateId === r.id) }));
}

/** A mileage rate with its bands (ascending from 0 km), or undefined. */
export async function findMileageRate(db: Database, q: { organizationId: string; id: string }) {
  const [rate] = await db
    .select()
    .from(mileageRates)
    .where(and(eq(mileageRates.organizationId, q.organizationId), eq(mileageRates.id, q.id)));
  if (!rate) return undefined;
  return { ...rate, bands: await mileageBandsOf(db, q.organizationId, [rate.id]) };
}

/** A per-diem rate with its bands (by label), or undefined. */
export async function findPerDiemRate(db: Database, q: { organizationId: string; id: string }) {
  const [rate] = await db
    .select()
    .from(perDiemRates)
    .where(and(eq(perDiemRates.organizationId, q.organizationId), eq(perDiemRates.id, q.id)));
  if (!rate) return undefined;
  return { ...rate, bands: await perDiemBandsOf(db, q.organizationId, [rate.id]) };
}

export async function lockMileageRate(db: Database, q: { organizationId: string; id: string }) {
  const [row] = await db
    .select()
    .from(mileageRates)
    .where(and(eq(mileageRates.organizationId, q.organizationId), eq(mileageRates.id, q.id)))
    .for('update');
  return row;
}

export async function lockPerDiemRate(db: Database, q: { organizationId: string; id: string }) {
  const [row] = await db
    .select()
    .from(perDiemRates)
    .where(and(eq(perDiemRates.organizationId, q.organizationId), eq(perDiemRates.id, q.id)))
    .for('update');
  return row;
}

interface RateListQuery {
  organizationId: string;
  includeInactive: boolean;
  /** Only rates in force on this day. */
  on?: string;
  after: After;
  limit: number;
}

function rateListWhere(t: typeof mileageRates | typeof perDiemRates, q: RateListQuery): (SQL | undefined)[] {
  const where: (SQL | undefined)[] = [eq(t.organizationId, q.organizationId), afterKey(t.validFrom, t.id, q.after, 'date')];
  if (!q.includeInactive) where.push(eq(t.active, true));
  if (q.on) where.push(lte(t.validFrom, q.on), or(isNull(t.validTo), gte(t.validTo, q.on)));
  return where;
}

/** Mileage rates with their bands, ordered by valid_from, then id. */
export async function listMileageRates(db: Database, q: RateListQuery) {
  const rates = await db
    .select()
    .from(mileageRates)
    .where(and(...rateListWhere(mileageRates, q)))
    .orderBy(asc(mileageRates.validFrom), asc(mileageRates.id))
    .limit(q.limit);
  return withBands(rates, await mileageBandsOf(db, q.organizationId, rates.map((r) => r.id)));
}

/** Per-diem rates with their bands, ordered by valid_from, then id. */
export async function listPerDiemRates(db: Database, q: RateListQuery) {
  const rates = await db
    .select()
    .from(perDiemRates)
    .where(and(...rateListWhere(perDiemRates, q)))
    .orderBy(asc(perDiemRates.validFrom), asc(perDiemRates.id))
    .limit(q.limit);
  return withBands(rates, await perDiemBandsOf(db, q.organizationId, rates.map((r) => r.id)));
}

export async function insertMileageRate(db: Database, values: typeof mileageRates.$inferInsert) {
  const [row] = await db.insert(mileageRates).values(values).returning();
  return row;
}

export async function insertMileageRateBands(
  db: Database,
  q: { organizationId: string; rateId: string; bands: Omit<typeof mileageRateBands.$inferInsert, 'organizationId' | 'rateId'>[] },
) {
  const rows = q.bands.map((b) => ({ ...b, organizationId: q.organizationId, rateId: q.rateId }));
  return insertInChunks(rows, (chunk) => db.insert(mileageRateBands).values(chunk).returning());
}

export async function insertPerDiemRate(db: Database, values: typeof perDiemRates.$inferInsert) {
  const [row] = await db.insert(perDiemRates).values(values).returning();
  return row;
}

export async function insertPerDiemRateBands(
  db: Database,
  q: { organizationId: string; rateId: string; bands: Omit<typeof perDiemRateBands.$inferInsert, 'organizationId' | 'rateId'>[] },
) {
  const rows = q.bands.map((b) => ({ ...b, organizationId: q.organizationId, rateId: q.rateId }));
  return insertInChunks(rows, (chunk) => db.insert(perDiemRateBands).values(chunk).returning());
}

type RateFields = Partial<Pick<MileageRateRow, 'name' | 'currency' | 'validFrom' | 'validTo' | 'active'>>;

export async function updateMileageRateRow(db: Database, q: { organizationId: string; id: string; set: RateFields }) {
  const [row] = await db
    .update(mileageRates)
    .set({ ...q.set, revision: sql`${mileageRates.revision} + 1` })
    .where(and(eq(mileageRates.organizationId, q.organizationId), eq(mileageRates.id, q.id)))
    .returning();
  return row;
}

export async function updatePerDiemRateRow(db: Database, q: { organizationId: string; id: string; set: RateFields }) {
  const [row] = await db
    .update(perDiemRates)
    .set({ ...q.set, revision: sql`${perDiemRates.revision} + 1` })
    .where(and(eq(perDiemRates.organizationId, q.organizationId), eq(perDiemRates.id, q.id)))
    .returning();
  return row;
}

/** Replaces every band of a mileage rate (only while no claim line uses the rate). */
export async function replaceMileageRateBands(
  db: Database,
  q: { organizationId: string; rateId: string; bands: Omit<typeof mileageRateBands.$inferInsert, 'organizationId' | 'rateId'>[] },
) {
  await db.delete(mileageRateBands).where(and(eq(mileageRateBands.organizationId, q.organizationId), eq(mileageRateBands.rateId, q.rateId)));
  return insertMileageRateBands(db, q);
}

/** Replaces every band of a per-diem rate (only while no claim line uses the rate). */
export async function replacePerDiemRateBands(
  db: Database,
  q: { organizationId: string; rateId: string; bands: Omit<typeof perDiemRateBands.$inferInsert, 'organizationId' | 'rateId'>[] },
) {
  await db.delete(perDiemRateBands).where(and(eq(perDiemRateBands.organizationId, q.organizationId), eq(perDiemRateBands.rateId, q.rateId)));
  return insertPerDiemRateBands(db, q);
}

/**
 * How claim lines use a rate: how many (withdrawn ones included, they were priced with it too) and
 * the first and last expense dates, which any new period of the rate must still cover.
 */
export async function claimLineUseOfRate(db: Database, q: { organizationId: string; rateId: string; type: 'mileage' | 'per_diem' }) {
  const [row] = await queryRows<{ lines: number; first_day: string | null; last_day: string | null }>(
    db,
    sql`select count(*)::int as lines, min(expense_date)::text as first_day, max(expense_date)::text as last_day
        from claim_lines where organization_id = ${q.organizationId} and rate_id = ${q.rateId} and type = ${q.type}`,
  );
  return { lines: Number(row?.lines ?? 0), firstDay: row?.first_day ?? null, lastDay: row?.last_day ?? null };
}
