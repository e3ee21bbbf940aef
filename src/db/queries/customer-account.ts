import { and, asc, eq, inArray, isNotNull, ne, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../client';
import { analyticAccounts, receipts, receivableDocuments } from '../schema';
import { isGroupCompanySql } from './customers';
import { attachmentIdsColumn, decodeAttachmentIds } from './files';
import { keysetCondition } from './keyset';

/**
 * A customer's account: the issued documents with something left open (invoices and debit notes owed,
 * credit notes not yet applied) and the sums of what is open, per currency. "Open" is the stored
 * `outstanding` every allocation write keeps, of documents in a state that can still be settled
 * (`states`, the caller's reading of the workflow); nothing here computes a balance from allocations.
 */

export interface OpenItemsFilter {
  organizationId: string;
  customerId: string;
  /** The workflow states whose documents can still be settled. */
  states: string[];
  currency?: string | undefined;
  /** debit: invoices and debit notes; credit: credit notes; both when absent. */
  side?: 'debit' | 'credit' | undefined;
}

function openWhere(q: OpenItemsFilter): SQL[] {
  const d = receivableDocuments;
  const where = [eq(d.organizationId, q.organizationId), eq(d.customerId, q.customerId), isNotNull(d.issuedAt), ne(d.outstanding, '0'), inArray(d.state, q.states)];
  if (q.currency !== undefined) where.push(eq(d.currency, q.currency));
  if (q.side === 'credit') where.push(eq(d.kind, 'customer_credit_note'));
  if (q.side === 'debit') where.push(ne(d.kind, 'customer_credit_note'));
  return where;
}

/** One page of open documents, oldest invoice date first (then id): limit + 1 rows as `take`. */
export async function listOpenItems(db: Database, q: OpenItemsFilter & { today: string; after?: { value: string; id: string } | undefined; take: number }) {
  const d = receivableDocuments;
  const where = openWhere(q);
  if (q.after) where.push(keysetCondition(d.invoiceDate, d.id, 'asc', q.after, 'date'));
  const rows = await db
    .select({
      doc: d,
      projectCode: analyticAccounts.code,
      projectName: analyticAccounts.name,
      isGroupTransaction: isGroupCompanySql('receivable_documents.organization_id', 'receivable_documents.customer_id', q.today),
      attachmentIds: attachmentIdsColumn(d.organizationId, 'receivable_document', d.id),
    })
    .from(d)
    .leftJoin(analyticAccounts, and(eq(analyticAccounts.organizationId, d.organizationId), eq(analyticAccounts.id, d.projectId)))
    .where(and(...where))
    .orderBy(asc(d.invoiceDate), asc(d.id))
    .limit(q.take);
  return rows.map((r) => ({
    ...r.doc,
    projectCode: r.projectCode,
    projectName: r.projectName,
    isGroupTransaction: Boolean(r.isGroupTransaction),
    attachmentIds: decodeAttachmentIds(r.attachmentIds),
  }));
}

/** Σ outstanding (and its base) of the open documents, per currency and side. */
export async function sumOpenItems(db: Database, q: OpenItemsFilter) {
  const d = receivableDocuments;
  const credit = sql<boolean>`${d.kind} = 'customer_credit_note'`;
  return db
    .select({ currency: d.currency, credit, outstanding: sql<string>`sum(${d.outstanding})::text`, outstandingBase: sql<string>`sum(${d.outstandingBase})::text`, count: sql<number>`count(*)::int` })
    .from(d)
    .where(and(...openWhere(q)))
    .groupBy(d.currency, credit);
}

/** Σ unallocated of the customer's receipts with something left, per currency. */
export async function sumUnallocatedReceipts(db: Database, q: { organizationId: string; customerId: string }) {
  return db
    .select({ currency: receipts.currency, unallocated: sql<string>`sum(${receipts.unallocated})::text`, count: sql<number>`count(*)::int` })
    .from(receipts)
    .where(and(eq(receipts.organizationId, q.organizationId), eq(receipts.customerId, q.customerId), ne(receipts.unallocated, '0')))
    .groupBy(receipts.currency);
}
