import { and, eq, inArray } from 'drizzle-orm';
import type { Database } from '../client';
import { accounts, analyticAccounts, analyticAxes, customFieldDefinitions, taxCodes, tradeLines } from '../schema';

/** Lookups of reference data by id; ids of another organization are simply not found. */

export async function findAccountsByIds(db: Database, q: { organizationId: string; ids: string[] }) {
  if (!q.ids.length) return [];
  return db.select().from(accounts).where(and(eq(accounts.organizationId, q.organizationId), inArray(accounts.id, q.ids)));
}

export async function findTaxCodesByIds(db: Database, q: { organizationId: string; ids: string[] }) {
  if (!q.ids.length) return [];
  return db.select().from(taxCodes).where(and(eq(taxCodes.organizationId, q.organizationId), inArray(taxCodes.id, q.ids)));
}

export async function findAnalyticAccountsByIds(db: Database, q: { organizationId: string; ids: string[] }) {
  if (!q.ids.length) return [];
  return db
    .select({
      id: analyticAccounts.id,
      axisId: analyticAccounts.axisId,
      code: analyticAccounts.code,
      name: analyticAccounts.name,
      active: analyticAccounts.active,
      isProjectAxis: analyticAxes.isProjectAxis,
    })
    .from(analyticAccounts)
    .innerJoin(analyticAxes, and(eq(analyticAxes.organizationId, analyticAccounts.organizationId), eq(analyticAxes.id, analyticAccounts.axisId)))
    .where(and(eq(analyticAccounts.organizationId, q.organizationId), inArray(analyticAccounts.id, q.ids)));
}

/** The organization's project axis (at most one), if it has one. */
export async function findProjectAxis(db: Database, q: { organizationId: string }) {
  const [row] = await db
    .select()
    .from(analyticAxes)
    .where(and(eq(analyticAxes.organizationId, q.organizationId), eq(analyticAxes.isProjectAxis, true)));
  return row;
}

export async function findAnalyticAxisByCode(db: Database, q: { organizationId: string; code: string }) {
  const [row] = await db
    .select()
    .from(analyticAxes)
    .where(and(eq(analyticAxes.organizationId, q.organizationId), eq(analyticAxes.code, q.code)));
  return row;
}

export async function findAnalyticAccountByCode(db: Database, q: { organizationId: string; axisId: string; code: string }) {
  const [row] = await db
    .select()
    .from(analyticAccounts)
    .where(and(eq(analyticAccounts.organizationId, q.organizationId), eq(analyticAccounts.axisId, q.axisId), eq(analyticAccounts.code, q.code)));
  return row;
}

export async function findTaxCodeByCode(db: Database, q: { organizationId: string; code: string }) {
  const [row] = await db
    .select()
    .from(taxCodes)
    .where(and(eq(taxCodes.organizationId, q.organizationId), eq(taxCodes.code, q.code)));
  return row;
}

export async function findCustomFieldDefinitions(db: Database, q: { organizationId: string; recordType: 'receivable_document' | 'customer' | 'expense_claim' }) {
  return db
    .select()
    .from(customFieldDefinitions)
    .where(and(eq(customFieldDefinitions.organizationId, q.organizationId), eq(customFieldDefinitions.recordType, q.recordType)));
}

/** Trade lines taken under a row lock, so two writers cannot both take what is left of a line. */
export async function lockTradeLines(db: Database, q: { organizationId: string; ids: string[] }) {
  if (!q.ids.length) return [];
  return db
    .select()
    .from(tradeLines)
    .where(and(eq(tradeLines.organizationId, q.organizationId), inArray(tradeLines.id, q.ids)))
    .orderBy(tradeLines.id)
    .for('update');
}

export async function setTradeLineInvoiced(db: Database, q: { organizationId: string; id: string; quantityInvoiced: string }) {
  await db
    .update(tradeLines)
    .set({ quantityInvoiced: q.quantityInvoiced })
    .where(and(eq(tradeLines.organizationId, q.organizationId), eq(tradeLines.id, q.id)));
}

/** Inserts of reference data; each returns the new row (undefined only if the database returned none). */

export async function insertAccount(db: Database, values: typeof accounts.$inferInsert) {
  const [row] = await db.insert(accounts).values(values).returning();
  return row;
}

export async function insertTaxCode(db: Database, values: typeof taxCodes.$inferInsert) {
  const [row] = await db.insert(taxCodes).values(values).returning();
  return row;
}

export async function insertAnalyticAxis(db: Database, values: typeof analyticAxes.$inferInsert) {
  const [row] = await db.insert(analyticAxes).values(values).returning();
  return row;
}

export async function insertAnalyticAccount(db: Database, values: typeof analyticAccounts.$inferInsert) {
  const [row] = await db.insert(analyticAccounts).values(values).returning();
  return row;
}

export async function insertCustomFieldDefinition(db: Database, values: typeof customFieldDefinitions.$inferInsert) {
  const [row] = await db.insert(customFieldDefinitions).values(values).returning();
  return row;
}

export async function insertTradeLine(db: Database, values: typeof tradeLines.$inferInsert) {
  const [row] = await db.insert(tradeLines).values(values).returning();
  return row;
}
