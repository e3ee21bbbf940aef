/**
 * Bank accounts, statement lines and the candidates a credit line may pay (schema/bank-statements.ts).
 * Every function takes the organization id.
 */
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../client';
import { bankAccounts, bankStatementLines } from '../schema';
import { keysetCondition } from './keyset';

export type BankAccountRow = typeof bankAccounts.$inferSelect;
export type StatementLineRow = typeof bankStatementLines.$inferSelect;

export async function insertBankAccount(db: Database, values: typeof bankAccounts.$inferInsert): Promise<BankAccountRow> {
  const [row] = await db.insert(bankAccounts).values(values).returning();
  return row!;
}

export async function findBankAccount(db: Database, q: { organizationId: string; id: string; lock?: boolean }): Promise<BankAccountRow | undefined> {
  const query = db
    .select()
    .from(bankAccounts)
    .where(and(eq(bankAccounts.organizationId, q.organizationId), eq(bankAccounts.id, q.id)));
  const [row] = q.lock ? await query.for('update') : await query;
  return row;
}

export async function updateBankAccountRow(db: Database, q: { organizationId: string; id: string }, values: Partial<typeof bankAccounts.$inferInsert>) {
  const [row] = await db
    .update(bankAccounts)
    .set({ ...values, revision: sql`${bankAccounts.revision} + 1` })
    .where(and(eq(bankAccounts.organizationId, q.organizationId), eq(bankAccounts.id, q.id)))
    .returning();
  return row!;
}

/** The organization's bank accounts by name, each with its count of credits waiting for a decision. */
export async function listBankAccountRows(db: Database, q: { organizationId: string }) {
  return db
    .select({
      account: bankAccounts,
      openCredits: sql<number>`(select count(*)::int from bank_statement_lines l where l.organization_id = ${bankAccounts.organizationId}
        and l.bank_account_id = ${bankAccounts.id} and l.status = 'open' and l.amount > 0)`,
    })
    .from(bankAccounts)
    .where(eq(bankAccounts.organizationId, q.organizationId))
    .orderBy(asc(bankAccounts.name), asc(bankAccounts.id))
    .limit(500);
}

export async function countOpenCredits(db: Database, q: { organizationId: string; bankAccountId: string }): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from bank_statement_lines where organization_id = ${q.organizationId} and bank_account_id = ${q.bankAccountId} and status = 'open' and amount > 0`,
  );
  return row?.n ?? 0;
}

/** Stores the lines not already there (same account, date, amount, reference and balance); answers how many were added. */
export async function insertStatementLines(db: Database, rows: (typeof bankStatementLines.$inferInsert)[]): Promise<number> {
  let added = 0;
  for (let i = 0; i < rows.length; i += 200) {
    const inserted = await db.insert(bankStatementLines).values(rows.slice(i, i + 200)).onConflictDoNothing().returning({ id: bankStatementLines.id });
    added += inserted.length;
  }
  return added;
}

export async function findStatementLine(db: Database, q: { organizationId: string; id: string; lock?: boolean }): Promise<StatementLineRow | undefined> {
  const query = db
    .select()
    .from(bankStatementLines)
    .where(and(eq(bankStatementLines.organizationId, q.organizationId), eq(bankStatementLines.id, q.id)));
  const [row] = q.lock ? await query.for('update') : await query;
  return row;
}

export async function updateStatementLine(db: Database, q: { organizationId: string; id: string }, values: Partial<typeof bankStatementLines.$inferInsert>) {
  const [row] = await db
    .update(bankStatementLines)
    .set({ ...values, revision: sql`${bankStatementLines.revision} + 1` })
    .where(and(eq(bankStatementLines.organizationId, q.organizationId), eq(bankStatementLines.id, q.id)))
    .returning();
  return row!;
}

/** A keyset page of an account's lines by (date, id), oldest first. */
export async function listStatementLineRows(
  db: Database,
  q: { organizationId: string; bankAccountId: string; status?: string; creditsOnly?: boolean; after?: { value: string; id: string }; take: number },
) {
  const t = bankStatementLines;
  const conditions = [eq(t.organizationId, q.organizationId), eq(t.bankAccountId, q.bankAccountId)];
  if (q.status) conditions.push(sql`${t.status} = ${q.status}`);
  if (q.creditsOnly) conditions.push(sql`${t.amount} > 0`);
  if (q.after) conditions.push(keysetCondition(t.lineDate, t.id, 'asc', q.after, 'date'));
  return db
    .select()
    .from(t)
    .where(and(...conditions))
    .orderBy(asc(t.lineDate), asc(t.id))
    .limit(q.take);
}

export interface CandidateQuery {
  organizationId: string;
  lineId: string;
  currency: string;
  amount: string;
  description: string;
  reference: string;
}

/** Letters and digits only, lower case: how references are compared inside a bank's description. */
const squeezed = (v: SQL) => sql`regexp_replace(lower(${v}), '[^a-z0-9]', '', 'g')`;

export interface DocumentCandidate {
  id: string;
  reference: string | null;
  customer_id: string;
  customer_code: string;
  customer_name: string;
  outstanding: string;
  due_on: string;
  state: string;
  exact: boolean;
  exact_count: number;
  doc_no: boolean;
  ref1: boolean;
  customer_ref: boolean;
  name_similarity: number;
}

/**
 * Issued invoices and debit notes in the line's currency with something outstanding that the line
 * may pay: the same amount, the document number or customer reference inside the description or
 * reference (letters and digits compared), the customer's code or the document number as the
 * reference (JomPAY Ref-1), or the customer's name in the description (pg_trgm word similarity ≥ 0.5).
 * `exact_count` is how many open items of the currency have exactly the line's amount.
 */
export async function documentCandidates(db: Database, q: CandidateQuery): Promise<DocumentCandidate[]> {
  const text = sql`(${q.description} || ' ' || ${q.reference})`;
  return queryRows<DocumentCandidate>(
    db,
    sql`with c as (
      select d.id, d.reference, d.customer_id, cu.code as customer_code, cu.legal_name as customer_name, d.outstanding::text as outstanding,
             d.due_on::text as due_on, d.state,
             d.outstanding = ${q.amount}::numeric as exact,
             (d.reference is not null and length(${squeezed(sql`d.reference`)}) >= 4 and strpos(${squeezed(text)}, ${squeezed(sql`d.reference`)}) > 0) as doc_no,
             (${q.reference} <> '' and (${squeezed(sql`${q.reference}`)} = ${squeezed(sql`coalesce(d.reference, '')`)} or ${squeezed(sql`${q.reference}`)} = ${squeezed(sql`cu.code`)})) as ref1,
             (length(${squeezed(sql`d.customer_reference`)}) >= 4 and strpos(${squeezed(text)}, ${squeezed(sql`d.customer_reference`)}) > 0) as customer_ref,
             word_similarity(lower(cu.legal_name), lower(${q.description}))::float8 as name_similarity
        from receivable_documents d
        join customers cu on cu.organization_id = d.organization_id and cu.id = d.customer_id
       where d.organization_id = ${q.organizationId} and d.kind <> 'customer_credit_note' and d.issued_at is not null
         and d.outstanding > 0 and d.currency = ${q.currency})
    select *, (count(*) filter (where exact) over ())::int as exact_count from c
     where exact or doc_no or ref1 or customer_ref or name_similarity >= 0.5
     order by exact desc, doc_no desc, ref1 desc, name_similarity desc, due_on, id
     limit 20`,
  );
}

export interface ReceiptCandidate {
  id: string;
  reference: string;
  customer_id: string;
  customer_code: string;
  customer_name: string;
  unallocated: string;
  exact: boolean;
  ref_match: boolean;
  name_similarity: number;
}

/** Unallocated receipts in the line's currency not already the receipt of another line, that the line may be. */
export async function receiptCandidates(db: Database, q: CandidateQuery): Promise<ReceiptCandidate[]> {
  const text = sql`(${q.description} || ' ' || ${q.reference})`;
  return queryRows<ReceiptCandidate>(
    db,
    sql`select * from (
      select r.id, r.reference, r.customer_id, cu.code as customer_code, cu.legal_name as customer_name, r.unallocated::text as unallocated,
             r.unallocated = ${q.amount}::numeric as exact,
             (length(${squeezed(sql`r.reference`)}) >= 4 and strpos(${squeezed(text)}, ${squeezed(sql`r.reference`)}) > 0) as ref_match,
             word_similarity(lower(cu.legal_name), lower(${q.description}))::float8 as name_similarity
        from receipts r
        join customers cu on cu.organization_id = r.organization_id and cu.id = r.customer_id
       where r.organization_id = ${q.organizationId} and r.currency = ${q.currency} and r.unallocated > 0
         and not exists (select 1 from bank_statement_lines l where l.organization_id = r.organization_id and l.receipt_id = r.id and l.id <> ${q.lineId}::uuid)) c
     where exact or ref_match or name_similarity >= 0.5
     order by exact desc, ref_match desc, name_similarity desc, id
     limit 10`,
  );
}

/** The line, if any, whose receipt this is (a receipt is the money of at most one line). */
export async function lineOfReceipt(db: Database, q: { organizationId: string; receiptId: string }): Promise<StatementLineRow | undefined> {
  const [row] = await db
    .select()
    .from(bankStatementLines)
    .where(and(eq(bankStatementLines.organizationId, q.organizationId), eq(bankStatementLines.receiptId, q.receiptId)))
    .limit(1);
  return row;
}
