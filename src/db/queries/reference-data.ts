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
