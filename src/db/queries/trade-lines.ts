import { and, asc, eq } from 'drizzle-orm';
import { anyOf, type Database } from '../client';
import { tradeLines } from '../schema';
import { afterKey, type SetupListQuery as ListQuery } from './keyset';

/** Trade lines (deliveries and sales returns an invoice line may draw on): lookups, set-up lists and changes, each scoped to one organization (ids of another are simply not found). */

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

export async function insertTradeLine(db: Database, values: typeof tradeLines.$inferInsert) {
  const [row] = await db.insert(tradeLines).values(values).returning();
  return row;
}

export type TradeLineRow = typeof tradeLines.$inferSelect;

export async function listTradeLines(
  db: Database,
  q: ListQuery & { customerId?: string; kind?: 'delivery' | 'sales_return' },
): Promise<TradeLineRow[]> {
  const where = [eq(tradeLines.organizationId, q.organizationId), afterKey(tradeLines.reference, tradeLines.id, q.after)];
  if (q.customerId) where.push(eq(tradeLines.customerId, q.customerId));
  if (q.kind) where.push(eq(tradeLines.kind, q.kind));
  if (!q.includeInactive) where.push(eq(tradeLines.active, true));
  return db.select().from(tradeLines).where(and(...where)).orderBy(asc(tradeLines.reference), asc(tradeLines.id)).limit(q.limit);
}

export async function updateTradeLineRow(db: Database, q: { organizationId: string; id: string }, values: Partial<typeof tradeLines.$inferInsert>) {
  const [row] = await db.update(tradeLines).set(values).where(and(eq(tradeLines.organizationId, q.organizationId), eq(tradeLines.id, q.id))).returning();
  return row;
}
