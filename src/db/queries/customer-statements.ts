/**
 * One customer's statement rebuilt from dates, never from today's stored balances: documents count
 * from their invoice date, receipts from the day received, allocations (and their reversals, which
 * are negative allocations with their own effective day) from their effective day. Every query is
 * scoped to one organization and one customer and reads through the customer indexes
 * (receivable_documents_org_customer_created, receipts_org_customer_received_on) and the allocation
 * indexes by invoice, credit note and receipt, so a customer with thousands of documents is read in
 * one statement per part, not document by document.
 */
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../client';

export interface StatementQuery {
  organizationId: string;
  customerId: string;
  /** The workflow states whose documents count (cancelled, rejected and drafts owe nothing). */
  states: string[];
}

/** The customer's issued documents that count, dated on or before `to`. */
function documentsSql(q: StatementQuery, to: string): SQL {
  return sql`select d.id, d.kind, d.reference, d.customer_reference, d.invoice_date, d.due_on, d.currency, d.gross_amount
    from receivable_documents d
    where d.organization_id = ${q.organizationId}::uuid and d.customer_id = ${q.customerId}::uuid and d.issued_at is not null
      and d.invoice_date <= ${to}::date and d.state = any(${sql.param(q.states)}::text[])`;
}

export interface OpenItemRow {
  source: 'document' | 'receipt';
  id: string;
  kind: 'sales_invoice' | 'customer_credit_note' | 'customer_debit_note' | 'receipt';
  reference: string;
  customer_reference: string;
  date: string;
  due_on: string | null;
  currency: string;
  /** Signed from the organization's side: invoices and debit notes positive, credit notes and receipts negative. */
  amount: string;
  /** What was left open on the day, signed the same way. */
  open: string;
  /** Σ open of the row's currency (the section's closing balance), and the part of it invoices and debit notes had past due. */
  currency_open: string;
  currency_overdue: string;
}

/**
 * What was open on `asOf`: each document less the allocations to it (an invoice or debit note) or
 * from it (a credit note) effective by then, and each receipt received by then less its allocations
 * effective by then. Ordered by currency, date and reference, each row with its currency's sums
 * (window sums in numeric: the service formats them instead of adding thousands of rows itself).
 */
export async function openItemsOn(db: Database, q: StatementQuery & { asOf: string }): Promise<OpenItemRow[]> {
  const org = sql`${q.organizationId}::uuid`;
  const asOf = sql`${q.asOf}::date`;
  return queryRows<OpenItemRow>(
    db,
    sql`with docs as (${documentsSql(q, q.asOf)}),
      applied as (
        select a.invoice_id as id, sum(a.amount) as amount from allocations a join docs on docs.id = a.invoice_id
        where a.organization_id = ${org} and a.effective_on <= ${asOf} group by a.invoice_id
        union all
        select a.credit_note_id, sum(a.amount) from allocations a join docs on docs.id = a.credit_note_id
        where a.organization_id = ${org} and a.effective_on <= ${asOf} group by a.credit_note_id
      ),
      receipts_then as (
        select r.id, r.reference, r.received_on, r.currency, r.amount from receipts r
        where r.organization_id = ${org} and r.customer_id = ${q.customerId}::uuid and r.received_on <= ${asOf}
      ),
      receipt_applied as (
        select a.receipt_id as id, sum(a.amount) as amount from allocations a join receipts_then r on r.id = a.receipt_id
        where a.organization_id = ${org} and a.effective_on <= ${asOf} group by a.receipt_id
      ),
      items as (
        select 'document' as source, d.id, d.kind, coalesce(d.reference, '') as reference, d.customer_reference, d.invoice_date as date, d.due_on, d.currency,
          case when d.kind = 'customer_credit_note' then -d.gross_amount else d.gross_amount end as amount,
          case when d.kind = 'customer_credit_note' then coalesce(ap.amount, 0) - d.gross_amount else d.gross_amount - coalesce(ap.amount, 0) end as open
        from docs d left join (select id, sum(amount) as amount from applied group by id) ap on ap.id = d.id
        union all
        select 'receipt', r.id, 'receipt', r.reference, '', r.received_on, null, r.currency, -r.amount, coalesce(x.amount, 0) - r.amount
        from receipts_then r left join receipt_applied x on x.id = r.id
      )
      select source, id::text as id, kind, reference, customer_reference, date::text as date, due_on::text as due_on, currency,
        amount::text as amount, open::text as open,
        (sum(open) over section)::text as currency_open,
        coalesce(sum(open) filter (where kind in ('sales_invoice', 'customer_debit_note') and due_on < ${asOf}) over section, 0)::text as currency_overdue
      from items where open <> 0
      window section as (partition by currency)
      order by currency, date, reference collate "C", id`,
  );
}

/** Σ of what the customer owed at the end of the day before `from`, per currency (documents less receipts). */
export async function balancesBefore(db: Database, q: StatementQuery & { from: string }): Promise<Map<string, string>> {
  const before = sql`(${q.from}::date - 1)`;
  const rows = await queryRows<{ currency: string; balance: string }>(
    db,
    sql`select currency, sum(amount)::text as balance from (
        select d.currency, case when d.kind = 'customer_credit_note' then -d.gross_amount else d.gross_amount end as amount
        from (${documentsSql(q, q.from)}) d where d.invoice_date <= ${before}
        union all
        select r.currency, -r.amount from receipts r
        where r.organization_id = ${q.organizationId}::uuid and r.customer_id = ${q.customerId}::uuid and r.received_on <= ${before}
      ) x group by currency`,
  );
  return new Map(rows.map((r) => [r.currency, r.balance]));
}

export interface ActivityRow {
  kind: 'sales_invoice' | 'customer_credit_note' | 'customer_debit_note' | 'receipt' | 'allocation' | 'allocation_reversal';
  id: string;
  date: string;
  currency: string;
  reference: string;
  /** The document an allocation applied to (its reference), for allocations only. */
  applied_to: string | null;
  due_on: string | null;
  /** Signed change to what the customer owes; allocations move nothing between the two sides ("0"). */
  amount: string;
  /** The amount an allocation applied (a reversal negative); null for documents and receipts. */
  applied: string | null;
  /** For ordering within a day: documents, then receipts, then allocations. */
  rank: number;
}

/**
 * Everything that happened on the customer's account from `from` to `to`: documents dated, receipts
 * received, and allocations (receipts and credit notes applied, and their reversals) effective in
 * the period. Ordered by date, then documents, receipts and allocations, then reference.
 */
export async function activityBetween(db: Database, q: StatementQuery & { from: string; to: string }): Promise<ActivityRow[]> {
  const org = sql`${q.organizationId}::uuid`;
  const from = sql`${q.from}::date`;
  const to = sql`${q.to}::date`;
  return queryRows<ActivityRow>(
    db,
    sql`with docs as (${documentsSql(q, q.to)})
      select kind, id::text as id, date::text as date, currency, reference, applied_to, due_on::text as due_on, amount::text as amount, applied::text as applied, rank
      from (
        select d.kind, d.id, d.invoice_date as date, d.currency, coalesce(d.reference, '') as reference, null::text as applied_to, d.due_on,
          case when d.kind = 'customer_credit_note' then -d.gross_amount else d.gross_amount end as amount, null::numeric as applied, 0 as rank
        from docs d where d.invoice_date >= ${from}
        union all
        select 'receipt', r.id, r.received_on, r.currency, r.reference, null, null, -r.amount, null, 1
        from receipts r where r.organization_id = ${org} and r.customer_id = ${q.customerId}::uuid and r.received_on between ${from} and ${to}
        union all
        select case when a.reverses_id is null then 'allocation' else 'allocation_reversal' end, a.id, a.effective_on, a.currency,
          coalesce(r.reference, cn.reference, ''), inv.reference, null, 0, a.amount, 2
        from allocations a
        join docs inv on inv.id = a.invoice_id
        left join receipts r on r.organization_id = a.organization_id and r.id = a.receipt_id
        left join receivable_documents cn on cn.organization_id = a.organization_id and cn.id = a.credit_note_id
        where a.organization_id = ${org} and a.effective_on between ${from} and ${to}
      ) x
      order by currency, date, rank, reference collate "C", id`,
  );
}
