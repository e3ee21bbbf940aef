/**
 * The journal (control accounts, entries and their lines, export batches). Every function takes the
 * organization id. Entries are only ever inserted; the one update sets the batch of entries not yet
 * in one.
 */
import { and, asc, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import { queryRows, type Database } from '../client';
import { accounts, journalAccounts, journalBatches, journalEntries, journalLines } from '../schema';
import type { JournalAccountRole } from '../../domain/journal';

export type JournalEntryRow = typeof journalEntries.$inferSelect;
export type JournalLineRow = typeof journalLines.$inferSelect;
export type JournalBatchRow = typeof journalBatches.$inferSelect;
export type JournalAccountRow = typeof journalAccounts.$inferSelect;

/** Every account of the organization's chart (a chart is small): id, code, type, active. */
export async function chartAccounts(db: Database, q: { organizationId: string }) {
  return db
    .select({ id: accounts.id, code: accounts.code, name: accounts.name, type: accounts.type, active: accounts.active })
    .from(accounts)
    .where(eq(accounts.organizationId, q.organizationId))
    .orderBy(asc(accounts.code));
}

export async function listJournalAccounts(db: Database, q: { organizationId: string }): Promise<JournalAccountRow[]> {
  return db.select().from(journalAccounts).where(eq(journalAccounts.organizationId, q.organizationId)).orderBy(asc(journalAccounts.role), asc(journalAccounts.key));
}

export async function upsertJournalAccount(db: Database, q: { organizationId: string; role: JournalAccountRole; key: string; accountId: string; now: Date }) {
  await db
    .insert(journalAccounts)
    .values({ organizationId: q.organizationId, role: q.role, key: q.key, accountId: q.accountId, updatedAt: q.now })
    .onConflictDoUpdate({ target: [journalAccounts.organizationId, journalAccounts.role, journalAccounts.key], set: { accountId: q.accountId, updatedAt: q.now } });
}

export async function deleteJournalAccount(db: Database, q: { organizationId: string; role: JournalAccountRole; key: string }) {
  await db.delete(journalAccounts).where(and(eq(journalAccounts.organizationId, q.organizationId), eq(journalAccounts.role, q.role), eq(journalAccounts.key, q.key)));
}

/**
 * Inserts an entry with its lines; an entry of the same kind and source already written is left as
 * it is (answers undefined), so writing the entries of existing records twice writes nothing.
 */
export async function insertJournalEntry(
  db: Database,
  entry: typeof journalEntries.$inferInsert,
  lines: Omit<typeof journalLines.$inferInsert, 'organizationId' | 'entryId'>[],
): Promise<JournalEntryRow | undefined> {
  const [row] = await db.insert(journalEntries).values(entry).onConflictDoNothing().returning();
  if (!row) return undefined;
  await db.insert(journalLines).values(lines.map((l) => ({ ...l, organizationId: entry.organizationId, entryId: row.id })));
  return row;
}

/** The latest entry of a kind for a source (the one a reversal reverses). */
export async function findEntryOf(db: Database, q: { organizationId: string; kind: JournalEntryRow['kind']; sourceId: string }) {
  const [row] = await db
    .select()
    .from(journalEntries)
    .where(and(eq(journalEntries.organizationId, q.organizationId), eq(journalEntries.kind, q.kind), eq(journalEntries.sourceId, q.sourceId)))
    .orderBy(desc(journalEntries.seq))
    .limit(1);
  return row;
}

export async function linesOfEntries(db: Database, q: { organizationId: string; entryIds: string[] }): Promise<JournalLineRow[]> {
  if (q.entryIds.length === 0) return [];
  return db
    .select()
    .from(journalLines)
    .where(and(eq(journalLines.organizationId, q.organizationId), inArray(journalLines.entryId, q.entryIds)))
    .orderBy(asc(journalLines.entryId), asc(journalLines.lineNo));
}

/** Entries of the organization in order of writing (tests and checks read every one). */
export async function listEntries(db: Database, q: { organizationId: string; batchNumber?: number }): Promise<JournalEntryRow[]> {
  const where = q.batchNumber === undefined ? eq(journalEntries.organizationId, q.organizationId) : and(eq(journalEntries.organizationId, q.organizationId), eq(journalEntries.batchNumber, q.batchNumber));
  return db.select().from(journalEntries).where(where).orderBy(asc(journalEntries.seq));
}

/**
 * Puts every entry not yet in a batch and dated on or before `upTo` into batch `number`; answers how
 * many. The caller holds the batch number's row lock, so two exports take turns and the second
 * finds only what the first left.
 */
export async function takeUnexported(db: Database, q: { organizationId: string; upTo: string; number: number }): Promise<number> {
  const rows = await db
    .update(journalEntries)
    .set({ batchNumber: q.number })
    .where(and(eq(journalEntries.organizationId, q.organizationId), isNull(journalEntries.batchNumber), lte(journalEntries.entryDate, q.upTo)))
    .returning({ id: journalEntries.id });
  return rows.length;
}

export async function insertBatch(db: Database, values: typeof journalBatches.$inferInsert): Promise<JournalBatchRow> {
  const [row] = await db.insert(journalBatches).values(values).returning();
  return row!;
}

export async function findBatch(db: Database, q: { organizationId: string; number: number }): Promise<JournalBatchRow | undefined> {
  const [row] = await db.select().from(journalBatches).where(and(eq(journalBatches.organizationId, q.organizationId), eq(journalBatches.number, q.number)));
  return row;
}

/** Batches newest first, `limit` of them after the number `before` (keyset on the number). */
export async function listBatches(db: Database, q: { organizationId: string; before?: number; limit: number }): Promise<JournalBatchRow[]> {
  const where = q.before === undefined ? eq(journalBatches.organizationId, q.organizationId) : and(eq(journalBatches.organizationId, q.organizationId), sql`${journalBatches.number} < ${q.before}`);
  return db.select().from(journalBatches).where(where).orderBy(desc(journalBatches.number)).limit(q.limit);
}

export interface TrialBalanceRow {
  account_id: string;
  account_code: string;
  debit: string;
  credit: string;
}

/** Σ debit and Σ credit per account over every entry dated on or before the day, by account code. */
export async function trialBalanceRows(db: Database, q: { organizationId: string; asOf: string }): Promise<TrialBalanceRow[]> {
  return queryRows<TrialBalanceRow>(
    db,
    sql`select l.account_id::text as account_id, a.code as account_code, sum(l.debit)::text as debit, sum(l.credit)::text as credit
      from journal_lines l
      join journal_entries e on e.organization_id = l.organization_id and e.id = l.entry_id
      join accounts a on a.organization_id = l.organization_id and a.id = l.account_id
      where l.organization_id = ${q.organizationId}::uuid and e.entry_date <= ${q.asOf}::date
      group by l.account_id, a.code
      order by a.code collate "C", l.account_id`,
  );
}

// The records the journal has no entry of yet (records written before the journal existed): what the
// backfill writes entries for, oldest first.

/** Organizations whose journal backfill has not completed (across organizations: a start-up task's). */
export async function organizationsToBackfill(db: Database): Promise<string[]> {
  return (await queryRows<{ id: string }>(db, sql`select id::text as id from organizations where journal_backfilled_at is null order by created_at, id`)).map((r) => r.id);
}

/** Records that the organization's journal backfill completed: later start-ups skip it. */
export async function markJournalBackfilled(db: Database, q: { organizationId: string; now: Date }): Promise<void> {
  await queryRows(db, sql`update organizations set journal_backfilled_at = ${q.now.toISOString()}::timestamptz where id = ${q.organizationId}::uuid`);
}

/**
 * Issued documents without an issue entry, with the day (in `timeZone`) they entered their present
 * state: for a cancelled one, the day of its cancellation.
 */
export async function issuedWithoutEntry(db: Database, q: { organizationId: string; timeZone: string }) {
  return queryRows<{
    id: string;
    kind: 'sales_invoice' | 'customer_credit_note' | 'customer_debit_note';
    reference: string;
    invoice_date: string;
    currency: string;
    gross_amount: string;
    gross_base: string;
    state: string;
    state_since: string | null;
  }>(
    db,
    sql`select d.id::text as id, d.kind, coalesce(d.reference, '') as reference, d.invoice_date::text as invoice_date, d.currency,
        d.gross_amount::text as gross_amount, d.gross_base::text as gross_base, d.state,
        (select (max(t.decided_at) at time zone ${q.timeZone})::date::text from receivable_timeline t
          where t.organization_id = d.organization_id and t.document_id = d.id and t.to_state = d.state) as state_since
      from receivable_documents d
      where d.organization_id = ${q.organizationId}::uuid and d.issued_at is not null
        and not exists (select 1 from journal_entries e where e.organization_id = d.organization_id and e.kind = 'document_issued' and e.source_id = d.id)
      order by d.issued_at, d.id`,
  );
}

export async function receiptsWithoutEntry(db: Database, q: { organizationId: string }) {
  return queryRows<{ id: string }>(
    db,
    sql`select r.id::text as id from receipts r
      where r.organization_id = ${q.organizationId}::uuid
        and not exists (select 1 from journal_entries e where e.organization_id = r.organization_id and e.kind = 'receipt' and e.source_id = r.id)
      order by r.created_at, r.id`,
  );
}

export async function allocationsWithoutEntry(db: Database, q: { organizationId: string }) {
  return queryRows<{ id: string; reference: string }>(
    db,
    sql`select a.id::text as id, coalesce(d.reference, d.id::text) as reference from allocations a
      join receivable_documents d on d.organization_id = a.organization_id and d.id = a.invoice_id
      where a.organization_id = ${q.organizationId}::uuid
        and not exists (select 1 from journal_entries e where e.organization_id = a.organization_id and e.source_id = a.id)
      order by a.created_at, a.reverses_id nulls first, a.id`,
  );
}

/** Claims in one of `states` without their approval entry, with the last time one was approved. */
export async function approvedClaimsWithoutEntry(db: Database, q: { organizationId: string; states: string[] }) {
  return queryRows<{ id: string; reference: string; approved_at: Date | string | null }>(
    db,
    sql`select c.id::text as id, c.reference,
        (select max(x.decided_at) from claim_decisions x where x.organization_id = c.organization_id and x.claim_id = c.id and x.action_key = 'approve') as approved_at
      from claims c
      where c.organization_id = ${q.organizationId}::uuid and c.state = any(${sql.param(q.states)}::text[])
        and not exists (select 1 from journal_entries e where e.organization_id = c.organization_id and e.kind = 'claim_approved' and e.source_id = c.id)
      order by c.created_at, c.id`,
  );
}

export async function settlementsWithoutEntry(db: Database, q: { organizationId: string }) {
  return queryRows<{ id: string; claim_id: string; amount: string; channel_key: string; settled_at: Date | string; reference: string }>(
    db,
    sql`select s.id::text as id, s.claim_id::text as claim_id, s.amount::text as amount, s.channel_key, s.settled_at, c.reference
      from claim_settlements s join claims c on c.organization_id = s.organization_id and c.id = s.claim_id
      where s.organization_id = ${q.organizationId}::uuid
        and not exists (select 1 from journal_entries e where e.organization_id = s.organization_id and e.kind = 'claim_paid' and e.source_id = s.id)
      order by s.settled_at, s.id`,
  );
}
