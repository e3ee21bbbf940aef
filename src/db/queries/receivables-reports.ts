/**
 * Receivables reports rebuilt as at a day: what each issued document and each receipt had left on
 * that day, from the document's own gross figures less the allocations effective on or before the
 * day (a reversal is a negative allocation with its own effective day, so summing every allocation
 * row effective by then gives the balance of that day). Today's stored `outstanding` is never read.
 * One statement per report: the documents' and receipts' own amounts and the allocations' are
 * summed per customer, currency and bucket side by side (the parts of an open amount add up to it).
 */
import { eq, sql, type SQL } from 'drizzle-orm';
import { ageingSettings } from '../schema';
import { queryRows, type Database } from '../client';
import { groupCustomerIdsSql, isGroupCompanySql } from './customers';

export interface AsAtQuery {
  organizationId: string;
  /** YYYY-MM-DD: documents dated, receipts received and allocations effective on or before it. */
  asOf: string;
  /** The workflow states whose documents can still be settled (cancelled, rejected and drafts owe nothing). */
  states: string[];
  /** The organization's time zone: a decision counts on the day it was taken there. */
  timeZone: string;
}

/**
 * The day as a date literal, not a parameter: a text parameter cast to date is evaluated again on
 * every row it is compared with (the cast is not immutable, so the planner cannot fold it), and the
 * ageing compares a million documents with it several times each (at a million documents it took
 * more CPU than the grouping). Checked to be a plain YYYY-MM-DD first.
 */
function dayLiteral(day: string): SQL {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new Error(`not a YYYY-MM-DD day: ${JSON.stringify(day)}`);
  return sql.raw(`date '${day}'`);
}

/** The first instant after the day, in the organization's time zone: a constant of the statement (see dayLiteral). */
function dayEnd(q: AsAtQuery): SQL {
  if (!/^[A-Za-z0-9_+\-/]+$/.test(q.timeZone)) throw new Error(`not a time zone name: ${JSON.stringify(q.timeZone)}`);
  return sql`((${dayLiteral(q.asOf)} + 1)::timestamp at time zone ${sql.raw(`'${q.timeZone}'`)})`;
}

/**
 * The documents issued by the day that changed state since (state_changed_at: a document's newest
 * change of state after its issue), each with the state the first decision taken since the day's
 * end left: its state then (the first by decided_at, then seq: the one with no earlier decision
 * since the day). Found by the partial index of state_changed_at and read by the timeline's
 * per-document index, so the timeline is read only for the few documents moved since the day, not
 * for every decision taken since (one per document issued since); every other document was then in
 * the state it is in now. Joins only (no DISTINCT ON, no correlated subquery), so the statement
 * stays one parallel plan: PostgreSQL runs neither a correlated subquery nor a subquery with a
 * Gather of its own in a parallel worker, and the documents were then read and grouped in one process.
 */
function movedSince(q: AsAtQuery): SQL {
  return sql`
    select m.id, t.from_state
    from receivable_documents m
    join receivable_timeline t on t.organization_id = m.organization_id and t.document_id = m.id and t.decided_at >= ${dayEnd(q)}
    where m.organization_id = ${q.organizationId}::uuid and m.state_changed_at >= ${dayEnd(q)} and m.issued_at < ${dayEnd(q)}
      and not exists (
        select 1 from receivable_timeline e
        where e.organization_id = t.organization_id and e.document_id = t.document_id
          and e.decided_at >= ${dayEnd(q)} and (e.decided_at, e.seq) < (t.decided_at, t.seq))`;
}

/**
 * What each document that counts had open as at the day, one row per document, signed from the
 * organization's side: invoices and debit notes positive, credit notes negative, with its `days`
 * past the day it is aged from (an invoice or debit note its due day, a credit note its date). The
 * open amount is the gross amount less what allocations effective by the day took off it (as an
 * invoice or debit note) or applied of it (as a credit note, at the note's own rate); a reversal is a
 * negative allocation, so it gives back. The allocations are summed per document first (a few
 * thousand sums, hashed), so the documents are read in one parallel scan, and a document with none
 * (most of them) is its gross amount, with no arithmetic.
 *
 * A document counts when it was issued by the day's end, dated on or before it, and in a state then
 * that could still be settled (the state movedSince says, or its state now: one cancelled since
 * still owed then). `amount` and `base`
 * are null for a document that does not count: the test is kept out of the filter, where the planner
 * cannot estimate it and chose sorts that spilled to disk, and sums skip nulls.
 */
function documentItemsAsAt(q: AsAtQuery): SQL {
  const org = q.organizationId;
  const asOf = dayLiteral(q.asOf);
  const counts = sql`coalesce(l.from_state, d.state) = any(${sql.param(q.states)}::text[])`;
  const open = (gross: SQL, allocated: SQL) => {
    const signed = sql`case when d.kind = 'customer_credit_note' then -${gross} else ${gross} end`;
    return sql`case when ${counts} then case when ap.id is null then ${signed} else ${signed} - ${allocated} end end`;
  };
  return sql`
    select d.customer_id, d.currency, ${open(sql`d.gross_amount`, sql`ap.amount`)} as amount, ${open(sql`d.gross_base`, sql`ap.base`)} as base,
      ${asOf} - case when d.kind = 'customer_credit_note' then d.invoice_date else d.due_on end as days,
      d.kind <> 'customer_credit_note' as owed
    from receivable_documents d
    left join (${movedSince(q)}) l on l.id = d.id
    left join (
      select id, sum(amount) as amount, sum(base) as base from (
        select a.invoice_id as id, a.amount, a.base_amount as base
        from allocations a where a.organization_id = ${org}::uuid and a.effective_on <= ${asOf}
        union all
        select a.credit_note_id, -a.amount, -(a.base_amount + a.exchange_difference)
        from allocations a where a.organization_id = ${org}::uuid and a.effective_on <= ${asOf} and a.credit_note_id is not null
      ) x group by id
    ) ap on ap.id = d.id
    where d.organization_id = ${org}::uuid and d.issued_at < ${dayEnd(q)} and d.invoice_date <= ${asOf}`;
}

/**
 * The receipts received on or before the day, in parts as the documents are: each receipt's amount
 * (negative: credit to allocate), less what allocations effective by the day took of it (at the
 * receipt's own rate); aged from the day received.
 */
function receiptItemsAsAt(q: AsAtQuery): SQL {
  const org = q.organizationId;
  const asOf = dayLiteral(q.asOf);
  const items = (amount: SQL, base: SQL, join: SQL) => sql`
    select r.customer_id, r.currency, ${amount} as amount, ${base} as base, ${asOf} - r.received_on as days, false as owed
    from receipts r ${join}
    where r.organization_id = ${org}::uuid and r.received_on <= ${asOf}`;
  return sql`${items(sql`-r.amount`, sql`-r.base_amount`, sql``)}
    union all
    ${items(sql`a.amount`, sql`a.base_amount + a.exchange_difference`, sql`join allocations a on a.organization_id = ${org}::uuid and a.receipt_id = r.id and a.effective_on <= ${asOf}`)}`;
}

/** Every open item as at the day: the documents' and the receipts'. */
function openItemsAsAt(q: AsAtQuery): SQL {
  return sql`${documentItemsAsAt(q)} union all ${receiptItemsAsAt(q)}`;
}

/** Bucket 0 (current: not yet due), then one per edge (days past due, inclusive), the last over the last edge. */
function bucketOf(days: SQL, edges: readonly number[]): SQL {
  const upper = [0, ...edges];
  const whens = upper.map((edge, i) => sql`when ${days} <= ${sql.raw(String(Math.trunc(edge)))} then ${sql.raw(String(i))}`);
  return sql`case ${sql.join(whens, sql` `)} else ${sql.raw(String(upper.length))} end`;
}

export interface AgeingRow {
  customer_id: string;
  code: string;
  legal_name: string;
  currency: string;
  is_group_company: boolean;
  /**
   * Σ amount per bucket (0 current, then one per edge, the last over the last edge), each as text
   * (null: nothing in it); a JSON array, which every driver answers alike as an array of strings.
   */
  amounts: (string | null)[];
  /** Σ amount and Σ base of the line, over its buckets. */
  line_amount: string;
  line_base: string;
  /** Σ base of each bucket over every line (as `amounts`), and Σ base of every line (the same on each row). */
  bucket_base: (string | null)[];
  total_base: string;
}

/**
 * The ageing as at the day: one row per customer and currency with anything open then (a line whose
 * buckets all sum to nothing is left out), ordered by customer code and currency, with its sum per
 * bucket, the line's sums, each bucket's over every line and the report's (window sums: the
 * statement adds them up in numeric, so the service only formats them; summing some 25,000 rows in
 * decimal.js took longer than the grouping). `group`: only the customers that were group companies
 * on the day, or none of them.
 */
export async function ageingAsAt(db: Database, q: AsAtQuery & { edges: readonly number[]; group?: 'only' | 'none' | undefined }): Promise<AgeingRow[]> {
  const groupIds = groupCustomerIdsSql(q.organizationId, q.asOf);
  const groupWhere = q.group === 'only' ? sql`and c.id = any(${groupIds})` : q.group === 'none' ? sql`and c.id <> all(${groupIds})` : sql``;
  const n = q.edges.length + 2;
  const each = (f: (i: number) => string) => sql.raw(Array.from({ length: n }, (_, i) => f(i)).join(', '));
  // Grouped by bucket where the rows are many (a group key computed once a row: one sum per bucket
  // with FILTER evaluated the bucket's expression once per bucket and row, three times the CPU);
  // each line's buckets are then turned into columns over the few groups left.
  const perBucket = (items: SQL) => sql`
    select customer_id, currency, ${bucketOf(sql.raw('days'), q.edges)} as bucket, sum(amount) as amount, sum(base) as base
    from (${items}) i group by 1, 2, 3`;
  const lineAmount = sql.raw(Array.from({ length: n }, (_, i) => `coalesce(g.a${i}, 0)`).join(' + '));
  const lineBase = sql.raw(Array.from({ length: n }, (_, i) => `coalesce(g.b${i}, 0)`).join(' + '));
  return reportTransaction(db, (tx) => queryRows<AgeingRow>(
    tx,
    sql`select g.customer_id::text as customer_id, c.code, c.legal_name, g.currency,
        json_build_array(${each((i) => `g.a${i}::text`)}) as amounts,
        (${lineAmount})::text as line_amount, (${lineBase})::text as line_base,
        json_build_array(${each((i) => `(sum(g.b${i}) over ())::text`)}) as bucket_base, (sum(${lineBase}) over ())::text as total_base,
        ${isGroupCompanySql('c.organization_id', 'c.id', q.asOf)} as is_group_company
      from (
        select customer_id, currency, ${each((i) => `sum(amount) filter (where bucket = ${i}) as a${i}, sum(base) filter (where bucket = ${i}) as b${i}`)}
        from (${perBucket(documentItemsAsAt(q))} union all ${perBucket(receiptItemsAsAt(q))}) items
        group by 1, 2
      ) g
      join customers c on c.organization_id = ${q.organizationId}::uuid and c.id = g.customer_id
      where (${sql.raw(Array.from({ length: n }, (_, i) => `g.a${i} <> 0 or g.b${i} <> 0`).join(' or '))}) ${groupWhere}
      order by c.code collate "C", c.id, g.currency`,
  ));
}

/**
 * Runs a report's statement with settings of its own. JIT off: a scan of every document of an
 * organization costs enough to trigger it, and compiling took longer than the scan itself (the
 * ageing benchmark: hundreds of milliseconds to seconds of a statement's time). 64 MB of work
 * memory: with the default 4 MB the planner groups the documents by sorting them, and the sorts of a
 * few hundred thousand rows per worker spilled to disk; with 64 MB it groups them in a hash table
 * (some 25,000 customer × currency × bucket groups at a million documents) and keeps the decisions
 * taken since the day in memory. A custom plan each time: the statement is a prepared statement
 * (src/db/client.ts), and from its sixth run PostgreSQL may keep a generic plan, made without the
 * day and the organization, which the ageing benchmark caught running without parallel workers at
 * several times the time. In a transaction of its own (or a savepoint of the caller's) so that the
 * settings end with it.
 */
async function reportTransaction<T>(db: Database, run: (tx: Database) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('jit', 'off', true), set_config('work_mem', '64MB', true), set_config('plan_cache_mode', 'force_custom_plan', true)`);
    return run(tx as unknown as Database);
  });
}

/**
 * The organization's totals as at the day in base: net (everything open, credits less), what
 * invoices and debit notes owe, and the part of that past due.
 */
export async function balancesAsAt(db: Database, q: AsAtQuery): Promise<{ net: string; owed: string; overdue: string }> {
  const [row] = await reportTransaction(db, (tx) => queryRows<{ net: string | null; owed: string | null; overdue: string | null }>(
    tx,
    sql`select sum(base)::text as net, sum(base) filter (where owed)::text as owed, sum(base) filter (where owed and days > 0)::text as overdue
      from (${openItemsAsAt(q)}) items`,
  ));
  return { net: row?.net ?? '0', owed: row?.owed ?? '0', overdue: row?.overdue ?? '0' };
}

/**
 * Sales in base per window of `days` days counted back from the day (window 0 ends on the day):
 * invoices and debit notes dated in it less credit notes dated in it, for `windows` windows.
 */
export async function salesByWindow(db: Database, q: AsAtQuery & { days: number; windows: number }): Promise<Map<number, string>> {
  const rows = await queryRows<{ w: number; sales: string }>(
    db,
    sql`select ((${dayLiteral(q.asOf)} - d.invoice_date) / ${q.days}::int)::int as w,
        sum(case when d.kind = 'customer_credit_note' then -d.gross_base else d.gross_base end)::text as sales
      from receivable_documents d
      where d.organization_id = ${q.organizationId}::uuid
        and d.issued_at < ${dayEnd(q)}
        and d.state = any(${sql.param(q.states)}::text[])
        and d.invoice_date <= ${dayLiteral(q.asOf)} and d.invoice_date > ${dayLiteral(q.asOf)} - ${q.days * q.windows}::int
      group by 1`,
  );
  return new Map(rows.map((r) => [Number(r.w), r.sales]));
}

/** Σ of the receipts received from `from` to `to` (inclusive), in base. */
export async function collectedBetween(db: Database, q: { organizationId: string; from: string; to: string }): Promise<string> {
  const [row] = await queryRows<{ collected: string | null }>(
    db,
    sql`select sum(base_amount)::text as collected from receipts
      where organization_id = ${q.organizationId}::uuid and received_on between ${q.from}::date and ${q.to}::date`,
  );
  return row?.collected ?? '0';
}

/** The organization's ageing edges as set (none: the defaults). */
export async function findAgeingSettings(db: Database, q: { organizationId: string; forUpdate?: boolean }): Promise<AgeingSettingsRow | undefined> {
  const base = db.select().from(ageingSettings).where(eq(ageingSettings.organizationId, q.organizationId));
  const [row] = q.forUpdate ? await base.for('update') : await base;
  return row;
}

export async function upsertAgeingSettings(db: Database, values: { organizationId: string; edges: number[]; revision: number }): Promise<AgeingSettingsRow | undefined> {
  const [row] = await db
    .insert(ageingSettings)
    .values(values)
    .onConflictDoUpdate({ target: ageingSettings.organizationId, set: { edges: values.edges, revision: values.revision } })
    .returning();
  return row;
}
export type AgeingSettingsRow = typeof ageingSettings.$inferSelect;
