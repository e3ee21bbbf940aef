import { and, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { anyOf, noneOf, type Database } from '../client';
import { claimDecisions, claims, einvoices, receivableDocuments } from '../schema';

/**
 * The counts of the console's To do (me.todo): always within one organization, each bounded by
 * `cap` (a count stops there: the screen shows "cap or more"), so none costs more than `cap` rows.
 */

async function cappedCount(db: Database, from: SQL, cap: number): Promise<number> {
  const rows = (await db.execute(sql`select count(*)::int as n from (${from} limit ${cap}) as counted`)) as unknown;
  const list = Array.isArray(rows) ? rows : ((rows as { rows?: unknown[] }).rows ?? []);
  return Number((list[0] as { n?: number } | undefined)?.n ?? 0);
}

/**
 * The member's own claims sent back to them: in a draft state now, and the latest decision on the
 * claim was a return (`returnActions`, the workflow's actions whose edge leads back to a draft).
 */
export async function countReturnedClaims(
  db: Database,
  q: { organizationId: string; memberId: string; draftStates: string[]; returnActions: string[]; cap: number },
): Promise<number> {
  if (q.draftStates.length === 0 || q.returnActions.length === 0) return 0;
  const latestIsReturn = sql`(
    select ${claimDecisions.actionKey} from ${claimDecisions}
    where ${claimDecisions.organizationId} = ${claims.organizationId} and ${claimDecisions.claimId} = ${claims.id}
    order by ${claimDecisions.seq} desc limit 1) = any(${sql.param(q.returnActions)}::text[])`;
  const from = db
    .select({ one: sql`1` })
    .from(claims)
    .where(and(eq(claims.organizationId, q.organizationId), eq(claims.claimantMemberId, q.memberId), anyOf(claims.state, q.draftStates), latestIsReturn));
  return cappedCount(db, sql`${from}`, q.cap);
}

/** Receivables documents not issued yet, in one of the workflow's draft states. */
export async function countDraftDocuments(db: Database, q: { organizationId: string; draftStates: string[]; cap: number }): Promise<number> {
  if (q.draftStates.length === 0) return 0;
  const from = db
    .select({ one: sql`1` })
    .from(receivableDocuments)
    .where(and(eq(receivableDocuments.organizationId, q.organizationId), isNull(receivableDocuments.issuedAt), anyOf(receivableDocuments.state, q.draftStates)));
  return cappedCount(db, sql`${from}`, q.cap);
}

/**
 * Documents whose e-invoice MyInvois found invalid and which have no live e-invoice since (at most
 * one e-invoice of a document is ever not invalid): someone has to correct and send it again.
 */
export async function countEinvoicesNeedingAttention(db: Database, q: { organizationId: string; excludedStates: string[]; cap: number }): Promise<number> {
  const from = sql`select distinct e.document_id from ${einvoices} e
    join ${receivableDocuments} d on d.organization_id = e.organization_id and d.id = e.document_id
    where e.organization_id = ${q.organizationId} and e.state = 'invalid'
      and d.state <> all(${sql.param(q.excludedStates)}::text[])
      and not exists (select 1 from ${einvoices} l where l.organization_id = e.organization_id and l.document_id = e.document_id and l.state <> 'invalid')`;
  return cappedCount(db, from, q.cap);
}

/** Issued invoices and debit notes with a balance still open after their due date (`today` in the organization's time zone). */
export async function countOverdueDocuments(db: Database, q: { organizationId: string; today: string; excludedStates: string[]; cap: number }): Promise<number> {
  const from = db
    .select({ one: sql`1` })
    .from(receivableDocuments)
    .where(
      and(
        eq(receivableDocuments.organizationId, q.organizationId),
        isNotNull(receivableDocuments.issuedAt),
        anyOf(receivableDocuments.kind, ['sales_invoice', 'customer_debit_note']),
        sql`${receivableDocuments.outstanding} > 0`,
        sql`${receivableDocuments.dueOn} < ${q.today}::date`,
        noneOf(receivableDocuments.state, q.excludedStates),
      ),
    );
  return cappedCount(db, sql`${from}`, q.cap);
}
