import { and, asc, desc, eq, isNotNull, lte, ne, or, sql } from 'drizzle-orm';
import { anyOf, queryRows, type Database } from '../client';
import { einvoices, receivableDocuments } from '../schema';

/**
 * The e-invoice rows (schema/einvoicing.ts): the outbox the issuing step writes and the MyInvois
 * jobs move on. Every statement is scoped by organization, except the sweep that finds which
 * organizations have work (jobs run for every organization).
 */

export type EinvoiceRow = typeof einvoices.$inferSelect;

export async function insertEinvoice(db: Database, values: typeof einvoices.$inferInsert): Promise<EinvoiceRow> {
  const [row] = await db.insert(einvoices).values(values).returning();
  return row!;
}

/** The document's current e-invoice (the live one, else the last invalid one), or undefined. */
export async function findCurrentEinvoice(db: Database, q: { organizationId: string; documentId: string }): Promise<EinvoiceRow | undefined> {
  const [row] = await db
    .select()
    .from(einvoices)
    .where(and(eq(einvoices.organizationId, q.organizationId), eq(einvoices.documentId, q.documentId)))
    .orderBy(sql`(${einvoices.state} = 'invalid')`, desc(einvoices.queuedAt), desc(einvoices.id))
    .limit(1);
  return row;
}

/** The current e-invoices of several documents, by document id. */
export async function findCurrentEinvoices(db: Database, q: { organizationId: string; documentIds: string[] }): Promise<Map<string, EinvoiceRow>> {
  const out = new Map<string, EinvoiceRow>();
  if (q.documentIds.length === 0) return out;
  const rows = await db
    .select()
    .from(einvoices)
    .where(and(eq(einvoices.organizationId, q.organizationId), anyOf(einvoices.documentId, q.documentIds)))
    .orderBy(sql`(${einvoices.state} = 'invalid')`, desc(einvoices.queuedAt), desc(einvoices.id));
  for (const row of rows) if (!out.has(row.documentId)) out.set(row.documentId, row);
  return out;
}

/** The document's live e-invoice (not invalid), locked. */
export async function lockLiveEinvoice(db: Database, q: { organizationId: string; documentId: string }): Promise<EinvoiceRow | undefined> {
  const [row] = await db
    .select()
    .from(einvoices)
    .where(and(eq(einvoices.organizationId, q.organizationId), eq(einvoices.documentId, q.documentId), ne(einvoices.state, 'invalid')))
    .for('update');
  return row;
}

export async function updateEinvoice(db: Database, q: { organizationId: string; id: string }, set: Partial<typeof einvoices.$inferInsert>): Promise<void> {
  await db
    .update(einvoices)
    .set(set)
    .where(and(eq(einvoices.organizationId, q.organizationId), eq(einvoices.id, q.id)));
}

/**
 * Claims up to `limit` rows in `states` for this organization, skipping rows another process holds
 * (FOR UPDATE SKIP LOCKED), oldest first. `sendingBefore`: only `sending` rows whose request left
 * before it (a request still in flight elsewhere is left alone).
 */
export async function claimEinvoices(
  db: Database,
  q: { organizationId: string; states: EinvoiceRow['state'][]; limit: number; sendingBefore?: Date; pollDueBy?: Date; cancelRequested?: boolean; ids?: string[] },
): Promise<EinvoiceRow[]> {
  const conditions = [eq(einvoices.organizationId, q.organizationId), anyOf(einvoices.state, q.states)];
  if (q.sendingBefore) conditions.push(or(ne(einvoices.state, 'sending'), lte(einvoices.sendingAt, q.sendingBefore))!);
  if (q.pollDueBy) conditions.push(lte(einvoices.nextPollAt, q.pollDueBy));
  if (q.cancelRequested) conditions.push(isNotNull(einvoices.cancelRequestedAt));
  if (q.ids) conditions.push(anyOf(einvoices.id, q.ids));
  return db
    .select()
    .from(einvoices)
    .where(and(...conditions))
    .orderBy(asc(einvoices.queuedAt), asc(einvoices.id))
    .limit(q.limit)
    .for('update', { skipLocked: true });
}

/** The earliest next look due at LHDN among the organization's submitted and valid e-invoices. */
export async function nextPollAt(db: Database, organizationId: string): Promise<Date | undefined> {
  const [row] = await db
    .select({ at: sql<string | null>`min(${einvoices.nextPollAt})` })
    .from(einvoices)
    .where(and(eq(einvoices.organizationId, organizationId), anyOf(einvoices.state, ['submitted', 'valid'])));
  return row?.at ? new Date(row.at) : undefined;
}

/** When the earliest of the organization's `sending` requests left (their fate unknown until looked up), or undefined. */
export async function earliestSending(db: Database, q: { organizationId: string }): Promise<Date | undefined> {
  const [row] = await db
    .select({ at: sql<string | null>`min(coalesce(${einvoices.sendingAt}, ${einvoices.queuedAt}))` })
    .from(einvoices)
    .where(and(eq(einvoices.organizationId, q.organizationId), eq(einvoices.state, 'sending')));
  return row?.at ? new Date(row.at) : undefined;
}

/** The organizations with e-invoice work due at `now` (the sweep re-enqueues their jobs). */
export async function organizationsWithEinvoiceWork(db: Database, now: Date): Promise<{ organizationId: string; kind: 'submit' | 'poll' | 'cancel' }[]> {
  return queryRows(
    db,
    sql`select distinct organization_id as "organizationId",
               case when state in ('queued', 'sending') then 'submit'
                    when cancel_requested_at is not null then 'cancel'
                    else 'poll' end as kind
        from einvoices
        where state in ('queued', 'sending')
           or (state = 'valid' and cancel_requested_at is not null)
           or (state in ('submitted', 'valid') and next_poll_at <= ${now.toISOString()}::timestamptz)`,
  );
}

/**
 * The valid e-invoices of credit and debit notes that refer to this document (LHDN refuses to
 * cancel a document such a note refers to).
 */
export async function validNotesReferring(db: Database, q: { organizationId: string; documentId: string }): Promise<{ reference: string | null }[]> {
  return db
    .select({ reference: receivableDocuments.reference })
    .from(einvoices)
    .innerJoin(receivableDocuments, and(eq(receivableDocuments.organizationId, einvoices.organizationId), eq(receivableDocuments.id, einvoices.documentId)))
    .where(and(eq(einvoices.organizationId, q.organizationId), eq(einvoices.state, 'valid'), eq(receivableDocuments.originalInvoiceId, q.documentId)));
}
