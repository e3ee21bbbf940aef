/**
 * Payment reminders: the organizations whose schedule is on, the documents due a reminder today, and
 * the claim of one reminder (a unique row per document and step, committed before the e-mail).
 */
import { and, eq, sql } from 'drizzle-orm';
import { queryRows, type Database } from '../client';
import { paymentReminders, reminderSchedules } from '../schema';

export async function findReminderSchedule(db: Database, q: { organizationId: string; forUpdate?: boolean }) {
  const query = db.select().from(reminderSchedules).where(eq(reminderSchedules.organizationId, q.organizationId));
  const [row] = q.forUpdate ? await query.for('update') : await query;
  return row;
}

export async function upsertReminderSchedule(db: Database, values: typeof reminderSchedules.$inferInsert) {
  const [row] = await db
    .insert(reminderSchedules)
    .values(values)
    .onConflictDoUpdate({ target: reminderSchedules.organizationId, set: { enabled: values.enabled, steps: values.steps, revision: values.revision } })
    .returning();
  return row;
}

/** The organizations whose reminders are on, with their schedule. */
export async function listReminderOrganizations(db: Database) {
  return db.select({ organizationId: reminderSchedules.organizationId, steps: reminderSchedules.steps }).from(reminderSchedules).where(eq(reminderSchedules.enabled, true));
}

export interface DueReminderRow {
  document_id: string;
  customer_id: string;
  email: string;
  reference: string;
  due_on: string;
  outstanding: string;
  currency: string;
  step: number;
}

/**
 * The issued invoices and debit notes with something still owed whose latest step reached by today
 * (days past due) has not been claimed, of customers with an e-mail address and reminders not off.
 * A step a missed day skipped is not caught up: only the latest one reached is sent.
 */
export async function dueReminders(db: Database, q: { organizationId: string; today: string; steps: number[]; states: string[] }): Promise<DueReminderRow[]> {
  if (q.steps.length === 0) return [];
  return queryRows<DueReminderRow>(
    db,
    sql`select x.document_id::text as document_id, x.customer_id::text as customer_id, x.email, x.reference, x.due_on::text as due_on,
        x.outstanding::text as outstanding, x.currency, x.step
      from (
        select d.id as document_id, d.customer_id, c.email, d.reference, d.due_on, d.outstanding, d.currency,
          (select max(s) from unnest(${sql.param(q.steps)}::int[]) s where s <= ${q.today}::date - d.due_on) as step
        from receivable_documents d
        join customers c on c.organization_id = d.organization_id and c.id = d.customer_id
        where d.organization_id = ${q.organizationId}::uuid and d.issued_at is not null and d.kind <> 'customer_credit_note'
          and d.due_on <= ${q.today}::date - ${Math.min(...q.steps)}::int and d.outstanding > 0
          and d.state = any(${sql.param(q.states)}::text[])
          and not c.reminders_off and coalesce(c.email, '') <> ''
      ) x
      where x.step is not null
        and not exists (select 1 from payment_reminders p where p.organization_id = ${q.organizationId}::uuid and p.document_id = x.document_id and p.step = x.step)
      order by x.customer_id, x.due_on, x.document_id`,
  );
}

/** Claims one reminder: the row's id, or undefined when another run already holds this step. */
export async function claimReminder(db: Database, values: { organizationId: string; documentId: string; step: number; sentTo: string; claimedAt: Date }): Promise<string | undefined> {
  const [row] = await db.insert(paymentReminders).values(values).onConflictDoNothing().returning({ id: paymentReminders.id });
  return row?.id;
}

export async function markReminderSent(db: Database, q: { organizationId: string; id: string; sentAt: Date }) {
  await db.update(paymentReminders).set({ sentAt: q.sentAt }).where(and(eq(paymentReminders.organizationId, q.organizationId), eq(paymentReminders.id, q.id)));
}

/** A claim whose e-mail did not leave: released so a later run sends it. */
export async function releaseReminder(db: Database, q: { organizationId: string; id: string }) {
  await db.delete(paymentReminders).where(and(eq(paymentReminders.organizationId, q.organizationId), eq(paymentReminders.id, q.id)));
}

/** The reminders sent, newest first (the set-up screen's list). */
export async function listSentReminders(db: Database, q: { organizationId: string; limit: number }) {
  return db
    .select()
    .from(paymentReminders)
    .where(and(eq(paymentReminders.organizationId, q.organizationId), sql`${paymentReminders.sentAt} is not null`))
    .orderBy(sql`${paymentReminders.claimedAt} desc`, sql`${paymentReminders.id} desc`)
    .limit(q.limit);
}
