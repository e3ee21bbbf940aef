import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { anyOf, queryRows, type Database } from '../client';
import {
  accounts,
  analyticAccounts,
  analyticAxes,
  claimLines,
  customers,
  customFieldDefinitions,
  receivableDocumentLines,
  receivableLineShares,
  taxCodes,
  tradeLines,
} from '../schema';

/** Lookups of reference data by id; ids of another organization are simply not found. */

export async function findAccountsByIds(db: Database, q: { organizationId: string; ids: string[] }) {
  if (!q.ids.length) return [];
  return db.select().from(accounts).where(and(eq(accounts.organizationId, q.organizationId), anyOf(accounts.id, q.ids)));
}

export async function findTaxCodesByIds(db: Database, q: { organizationId: string; ids: string[] }) {
  if (!q.ids.length) return [];
  return db.select().from(taxCodes).where(and(eq(taxCodes.organizationId, q.organizationId), anyOf(taxCodes.id, q.ids)));
}

export async function findAnalyticAccountsByIds(db: Database, q: { organizationId: string; ids: string[] }) {
  if (!q.ids.length) return [];
  return db
    .select({
      id: analyticAccounts.id,
      axisId: analyticAccounts.axisId,
      code: analyticAccounts.code,
      name: analyticAccounts.name,
      // An account of an inactive axis is as unusable as an inactive account.
      active: sql<boolean>`(${analyticAccounts.active} and ${analyticAxes.active})`.mapWith(Boolean),
      isProjectAxis: analyticAxes.isProjectAxis,
    })
    .from(analyticAccounts)
    .innerJoin(analyticAxes, and(eq(analyticAxes.organizationId, analyticAccounts.organizationId), eq(analyticAxes.id, analyticAccounts.axisId)))
    .where(and(eq(analyticAccounts.organizationId, q.organizationId), anyOf(analyticAccounts.id, q.ids)));
}

/** The organization's project axis (at most one), if it has one. */
export async function findProjectAxis(db: Database, q: { organizationId: string }) {
  const [row] = await db
    .select()
    .from(analyticAxes)
    .where(and(eq(analyticAxes.organizationId, q.organizationId), eq(analyticAxes.isProjectAxis, true)));
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
    .where(and(eq(tradeLines.organizationId, q.organizationId), anyOf(tradeLines.id, q.ids)))
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

// Set-up lists and changes (settings.<entity>.*) ------------------------------------------------

/** The last row of the previous page: lists are ordered by (sort key, id). */
export interface KeysetAfter {
  value: string;
  id: string;
}

function keysetAfter(key: AnyPgColumn, id: AnyPgColumn, after: KeysetAfter | undefined): SQL | undefined {
  return after ? sql`(${key}, ${id}) > (${after.value}, ${after.id}::uuid)` : undefined;
}

export type AccountRow = typeof accounts.$inferSelect;
export type TaxCodeRow = typeof taxCodes.$inferSelect;
export type AnalyticAxisRow = typeof analyticAxes.$inferSelect;
export type AnalyticAccountRow = typeof analyticAccounts.$inferSelect;
export type CustomFieldDefinitionRow = typeof customFieldDefinitions.$inferSelect;
export type TradeLineRow = typeof tradeLines.$inferSelect;

interface ListQuery {
  organizationId: string;
  includeInactive: boolean;
  after?: KeysetAfter;
  limit: number;
}

export async function listAccounts(db: Database, q: ListQuery): Promise<AccountRow[]> {
  const where = [eq(accounts.organizationId, q.organizationId), keysetAfter(accounts.code, accounts.id, q.after)];
  if (!q.includeInactive) where.push(eq(accounts.active, true));
  return db.select().from(accounts).where(and(...where)).orderBy(asc(accounts.code), asc(accounts.id)).limit(q.limit);
}

/** One account under a row lock (a change reads, checks and writes it in one transaction). */
export async function lockAccount(db: Database, q: { organizationId: string; id: string }): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(and(eq(accounts.organizationId, q.organizationId), eq(accounts.id, q.id))).for('update');
  return row;
}

export async function updateAccountRow(db: Database, q: { organizationId: string; id: string }, values: Partial<typeof accounts.$inferInsert>) {
  const [row] = await db.update(accounts).set(values).where(and(eq(accounts.organizationId, q.organizationId), eq(accounts.id, q.id))).returning();
  return row;
}

/** Several accounts at once (the defaults every new organization starts with). */
export async function insertAccounts(db: Database, values: (typeof accounts.$inferInsert)[]) {
  if (!values.length) return [];
  return db.insert(accounts).values(values).returning();
}

export async function listTaxCodes(db: Database, q: ListQuery): Promise<TaxCodeRow[]> {
  const where = [eq(taxCodes.organizationId, q.organizationId), keysetAfter(taxCodes.code, taxCodes.id, q.after)];
  if (!q.includeInactive) where.push(eq(taxCodes.active, true));
  return db.select().from(taxCodes).where(and(...where)).orderBy(asc(taxCodes.code), asc(taxCodes.id)).limit(q.limit);
}

export async function lockTaxCode(db: Database, q: { organizationId: string; id: string }): Promise<TaxCodeRow | undefined> {
  const [row] = await db.select().from(taxCodes).where(and(eq(taxCodes.organizationId, q.organizationId), eq(taxCodes.id, q.id))).for('update');
  return row;
}

export async function updateTaxCodeRow(db: Database, q: { organizationId: string; id: string }, values: Partial<typeof taxCodes.$inferInsert>) {
  const [row] = await db.update(taxCodes).set(values).where(and(eq(taxCodes.organizationId, q.organizationId), eq(taxCodes.id, q.id))).returning();
  return row;
}

export async function insertTaxCodes(db: Database, values: (typeof taxCodes.$inferInsert)[]) {
  if (!values.length) return [];
  return db.insert(taxCodes).values(values).returning();
}

/** Whether any document line or claim line names the tax code (drafts included). */
export async function isTaxCodeUsed(db: Database, q: { organizationId: string; id: string }): Promise<boolean> {
  const [row] = await queryRows<{ used: boolean }>(db, sql`select (
      exists (select 1 from ${receivableDocumentLines} where ${receivableDocumentLines.organizationId} = ${q.organizationId} and ${receivableDocumentLines.taxCodeId} = ${q.id})
      or exists (select 1 from ${claimLines} where ${claimLines.organizationId} = ${q.organizationId} and ${claimLines.taxCodeId} = ${q.id})
    ) as used`);
  return Boolean(row?.used);
}

export async function listAnalyticAxes(db: Database, q: ListQuery): Promise<AnalyticAxisRow[]> {
  const where = [eq(analyticAxes.organizationId, q.organizationId), keysetAfter(analyticAxes.code, analyticAxes.id, q.after)];
  if (!q.includeInactive) where.push(eq(analyticAxes.active, true));
  return db.select().from(analyticAxes).where(and(...where)).orderBy(asc(analyticAxes.code), asc(analyticAxes.id)).limit(q.limit);
}

export async function findAnalyticAxis(db: Database, q: { organizationId: string; id: string }): Promise<AnalyticAxisRow | undefined> {
  const [row] = await db.select().from(analyticAxes).where(and(eq(analyticAxes.organizationId, q.organizationId), eq(analyticAxes.id, q.id)));
  return row;
}

export async function lockAnalyticAxis(db: Database, q: { organizationId: string; id: string }): Promise<AnalyticAxisRow | undefined> {
  const [row] = await db.select().from(analyticAxes).where(and(eq(analyticAxes.organizationId, q.organizationId), eq(analyticAxes.id, q.id))).for('update');
  return row;
}

export async function updateAnalyticAxisRow(db: Database, q: { organizationId: string; id: string }, values: Partial<typeof analyticAxes.$inferInsert>) {
  const [row] = await db.update(analyticAxes).set(values).where(and(eq(analyticAxes.organizationId, q.organizationId), eq(analyticAxes.id, q.id))).returning();
  return row;
}

/** Whether a document line shares an account of the axis (its project summary was computed with the axis's flag). */
export async function isAnalyticAxisUsed(db: Database, q: { organizationId: string; axisId: string }): Promise<boolean> {
  const [row] = await queryRows<{ used: boolean }>(db, sql`select exists (
      select 1 from ${receivableLineShares}
      where ${receivableLineShares.organizationId} = ${q.organizationId}
        and ${receivableLineShares.analyticAccountId} in (
          select ${analyticAccounts.id} from ${analyticAccounts}
          where ${analyticAccounts.organizationId} = ${q.organizationId} and ${analyticAccounts.axisId} = ${q.axisId})
    ) as used`);
  return Boolean(row?.used);
}

export async function listAnalyticAccounts(db: Database, q: ListQuery & { axisId?: string }): Promise<AnalyticAccountRow[]> {
  const where = [eq(analyticAccounts.organizationId, q.organizationId), keysetAfter(analyticAccounts.code, analyticAccounts.id, q.after)];
  if (q.axisId) where.push(eq(analyticAccounts.axisId, q.axisId));
  if (!q.includeInactive) where.push(eq(analyticAccounts.active, true));
  return db.select().from(analyticAccounts).where(and(...where)).orderBy(asc(analyticAccounts.code), asc(analyticAccounts.id)).limit(q.limit);
}

export async function lockAnalyticAccount(db: Database, q: { organizationId: string; id: string }): Promise<AnalyticAccountRow | undefined> {
  const [row] = await db
    .select()
    .from(analyticAccounts)
    .where(and(eq(analyticAccounts.organizationId, q.organizationId), eq(analyticAccounts.id, q.id)))
    .for('update');
  return row;
}

export async function updateAnalyticAccountRow(db: Database, q: { organizationId: string; id: string }, values: Partial<typeof analyticAccounts.$inferInsert>) {
  const [row] = await db
    .update(analyticAccounts)
    .set(values)
    .where(and(eq(analyticAccounts.organizationId, q.organizationId), eq(analyticAccounts.id, q.id)))
    .returning();
  return row;
}

export async function listCustomFieldDefinitions(
  db: Database,
  q: ListQuery & { recordType?: 'receivable_document' | 'customer' | 'expense_claim' },
): Promise<CustomFieldDefinitionRow[]> {
  const where = [eq(customFieldDefinitions.organizationId, q.organizationId), keysetAfter(customFieldDefinitions.key, customFieldDefinitions.id, q.after)];
  if (q.recordType) where.push(eq(customFieldDefinitions.recordType, q.recordType));
  if (!q.includeInactive) where.push(eq(customFieldDefinitions.active, true));
  return db
    .select()
    .from(customFieldDefinitions)
    .where(and(...where))
    .orderBy(asc(customFieldDefinitions.key), asc(customFieldDefinitions.id))
    .limit(q.limit);
}

export async function lockCustomFieldDefinition(db: Database, q: { organizationId: string; id: string }): Promise<CustomFieldDefinitionRow | undefined> {
  const [row] = await db
    .select()
    .from(customFieldDefinitions)
    .where(and(eq(customFieldDefinitions.organizationId, q.organizationId), eq(customFieldDefinitions.id, q.id)))
    .for('update');
  return row;
}

export async function updateCustomFieldDefinitionRow(
  db: Database,
  q: { organizationId: string; id: string },
  values: Partial<typeof customFieldDefinitions.$inferInsert>,
) {
  const [row] = await db
    .update(customFieldDefinitions)
    .set(values)
    .where(and(eq(customFieldDefinitions.organizationId, q.organizationId), eq(customFieldDefinitions.id, q.id)))
    .returning();
  return row;
}

export async function listTradeLines(
  db: Database,
  q: ListQuery & { customerId?: string; kind?: 'delivery' | 'sales_return' },
): Promise<TradeLineRow[]> {
  const where = [eq(tradeLines.organizationId, q.organizationId), keysetAfter(tradeLines.reference, tradeLines.id, q.after)];
  if (q.customerId) where.push(eq(tradeLines.customerId, q.customerId));
  if (q.kind) where.push(eq(tradeLines.kind, q.kind));
  if (!q.includeInactive) where.push(eq(tradeLines.active, true));
  return db.select().from(tradeLines).where(and(...where)).orderBy(asc(tradeLines.reference), asc(tradeLines.id)).limit(q.limit);
}

export async function updateTradeLineRow(db: Database, q: { organizationId: string; id: string }, values: Partial<typeof tradeLines.$inferInsert>) {
  const [row] = await db.update(tradeLines).set(values).where(and(eq(tradeLines.organizationId, q.organizationId), eq(tradeLines.id, q.id))).returning();
  return row;
}

/** Whether the customer is one of the organization's (a trade line or mapping names it). */
export async function customerExists(db: Database, q: { organizationId: string; id: string }): Promise<boolean> {
  const [row] = await db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.organizationId, q.organizationId), eq(customers.id, q.id)));
  return Boolean(row);
}
