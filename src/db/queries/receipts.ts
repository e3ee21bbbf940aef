/**
 * Receipts and their allocations (docs/design.md §16): reads, the keyset list, and the writes that
 * keep a receipt's stored `unallocated` current. Every function takes the organization id.
 */
import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import { anyOf } from '../client';
import type { Database } from '../client';
import { allocations, receipts } from '../schema';
import { KEY_VALUE_PATTERN, keysetCondition } from './keyset';

export type ReceiptRow = typeof receipts.$inferSelect;
export type AllocationRow = typeof allocations.$inferSelect;

export async function findReceipt(db: Database, q: { organizationId: string; id: string }) {
  const [row] = await db
    .select()
    .from(receipts)
    .where(and(eq(receipts.organizationId, q.organizationId), eq(receipts.id, q.id)));
  return row;
}

/** Allocations made from the receipts (reversals included), oldest first. */
export async function findReceiptAllocations(db: Database, q: { organizationId: string; receiptIds: string[] }) {
  if (!q.receiptIds.length) return [];
  return db
    .select()
    .from(allocations)
    .where(and(eq(allocations.organizationId, q.organizationId), anyOf(allocations.receiptId, q.receiptIds)))
    .orderBy(asc(allocations.createdAt), asc(allocations.id));
}

/** An allocation, unlocked: tells a reversal which receipt and documents to lock first. */
export async function findAllocation(db: Database, q: { organizationId: string; id: string }) {
  const [row] = await db
    .select()
    .from(allocations)
    .where(and(eq(allocations.organizationId, q.organizationId), eq(allocations.id, q.id)));
  return row;
}

/** Σ of the source-side base (base_amount + exchange_difference) of a source's allocations that count. */
export async function sourceBaseAllocated(db: Database, q: { organizationId: string; receiptId?: string; creditNoteId?: string }): Promise<string> {
  const source = q.receiptId ? eq(allocations.receiptId, q.receiptId) : eq(allocations.creditNoteId, q.creditNoteId ?? '');
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${allocations.baseAmount} + ${allocations.exchangeDifference}), 0)::text` })
    .from(allocations)
    .where(and(eq(allocations.organizationId, q.organizationId), source, sql`${allocations.reversesId} is null and ${allocations.reversedById} is null`));
  return row?.total ?? '0';
}

/** Stores what is left of the receipt and, with `bump`, bumps its revision (its answer changed). */
export async function updateReceiptBalance(db: Database, q: { organizationId: string; id: string; unallocated: string; bump: boolean }) {
  await db
    .update(receipts)
    .set({ unallocated: q.unallocated, ...(q.bump ? { revision: sql`${receipts.revision} + 1` } : {}) })
    .where(and(eq(receipts.organizationId, q.organizationId), eq(receipts.id, q.id)));
}

export type ReceiptListSort = 'received_on' | 'created_at';

export interface ReceiptListFilters {
  customerId?: string;
  receivedFrom?: string;
  receivedTo?: string;
  unallocated?: boolean;
}

export interface ReceiptListQuery {
  organizationId: string;
  sort: ReceiptListSort;
  order: 'asc' | 'desc';
  filters: ReceiptListFilters;
  after?: { value: string; id: string };
  take: number;
}

const SORT_KEY: Record<ReceiptListSort, SQL> = {
  received_on: sql`${receipts.receivedOn}`,
  created_at: sql`${receipts.createdAt}`,
};

/** Text form of each sort key, exact enough to compare again (timestamps keep their microseconds). */
const SORT_VALUE: Record<ReceiptListSort, SQL<string>> = {
  received_on: sql<string>`${receipts.receivedOn}::text`,
  created_at: sql<string>`${receipts.createdAt}::text`,
};

/** What a valid cursor value of each sort looks like (checked before it reaches SQL). */
export const RECEIPT_SORT_VALUE_PATTERN: Record<ReceiptListSort, RegExp> = {
  received_on: KEY_VALUE_PATTERN.date,
  created_at: KEY_VALUE_PATTERN.timestamptz,
};

function conditions(q: ReceiptListQuery): SQL[] {
  const f = q.filters;
  const out: SQL[] = [sql`${receipts.organizationId} = ${q.organizationId}`];
  if (f.customerId !== undefined) out.push(sql`${receipts.customerId} = ${f.customerId}::uuid`);
  if (f.receivedFrom !== undefined) out.push(sql`${receipts.receivedOn} >= ${f.receivedFrom}::date`);
  if (f.receivedTo !== undefined) out.push(sql`${receipts.receivedOn} <= ${f.receivedTo}::date`);
  if (f.unallocated === true) out.push(sql`${receipts.unallocated} <> 0`);
  if (f.unallocated === false) out.push(sql`${receipts.unallocated} = 0`);
  if (q.after) out.push(keysetCondition(SORT_KEY[q.sort], receipts.id, q.order, q.after, q.sort === 'created_at' ? 'timestamptz' : 'date'));
  return out;
}

/** One page (limit + 1 rows), keyset-ordered by (sort key, id). */
export async function listReceipts(db: Database, q: ReceiptListQuery) {
  const direction = q.order === 'asc' ? asc : desc;
  const rows = await db
    .select({ receipt: receipts, sortValue: SORT_VALUE[q.sort] })
    .from(receipts)
    .where(and(...conditions(q)))
    .orderBy(direction(SORT_KEY[q.sort]), direction(receipts.id))
    .limit(q.take);
  return rows.map((r) => ({ ...r.receipt, sortValue: r.sortValue }));
}
