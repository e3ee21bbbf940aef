import { and, asc, eq, sql } from 'drizzle-orm';
import { anyOf, queryRows, type Database } from '../client';
import { claimLines, receivableDocumentLines, taxCodes } from '../schema';
import { afterKey, type SetupListQuery as ListQuery } from './keyset';

/** Tax codes: lookups, set-up lists and changes, each scoped to one organization (ids of another are simply not found). */

export async function findTaxCodesByIds(db: Database, q: { organizationId: string; ids: string[] }) {
  if (!q.ids.length) return [];
  return db.select().from(taxCodes).where(and(eq(taxCodes.organizationId, q.organizationId), anyOf(taxCodes.id, q.ids)));
}

export async function insertTaxCode(db: Database, values: typeof taxCodes.$inferInsert) {
  const [row] = await db.insert(taxCodes).values(values).returning();
  return row;
}

export type TaxCodeRow = typeof taxCodes.$inferSelect;

export async function listTaxCodes(db: Database, q: ListQuery): Promise<TaxCodeRow[]> {
  const where = [eq(taxCodes.organizationId, q.organizationId), afterKey(taxCodes.code, taxCodes.id, q.after)];
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
