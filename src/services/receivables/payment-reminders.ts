/**
 * Payment reminders: the organization's schedule (settings.paymentReminders; off until turned on,
 * steps of 7, 14 and 21 days past due by default) and the job that sends them. Once a day in the
 * organization's time zone (from 08:00 local time), each issued invoice or debit note still owed,
 * of a customer with an e-mail address and reminders not off, that has reached a step of the
 * schedule gets one e-mail with the customer's statement (open items) attached, and the document's
 * timeline says so. A reminder is claimed (a unique row per document and step, committed) before the
 * e-mail is sent, so two processes, or a run after a crash, never send one step twice; a message the
 * mail server refused releases its claim for a later run.
 */
import type { Database } from '../../db/client';
import { claimReminder, dueReminders, findReminderSchedule, listReminderOrganizations, listSentReminders, markReminderSent, releaseReminder, upsertReminderSchedule, type DueReminderRow } from '../../db/queries/payment-reminders';
import { insertTimelineEntry, findDocumentRow } from '../../db/queries/receivable-documents';
import { lockSetupScope } from '../../db/queries/keyset';
import { formatAmount } from '../../lib/money';
import { Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { adminContext } from '../access/organization-setup';
import type { MailSettings } from '../mail/send-mail';
import { cachedWorkflow } from '../org-config-cache';
import { checkRevision } from '../revision';
import { recordSettingsChange } from '../settings/history';
import { leavesUnchanged } from '../settings/setup';
import { SETTLEABLE } from './allocations';
import { statementPdf } from './statement-pdf';

export const REMINDER_JOB = 'receivables.payment-reminders';
export const REMINDER_DEFAULT_STEPS = [7, 14, 21] as const;
/** The local hour from which a day's reminders go out. */
export const REMINDER_LOCAL_HOUR = 8;

export type ReminderScheduleView = {
  enabled: boolean;
  steps: number[];
  revision: number;
};

export async function getReminderSchedule(ctx: ServiceContext): Promise<ReminderScheduleView> {
  const row = await findReminderSchedule(ctx.db, { organizationId: ctx.org.id });
  return row ? { enabled: row.enabled, steps: row.steps, revision: row.revision } : { enabled: false, steps: [...REMINDER_DEFAULT_STEPS], revision: 1 };
}

export async function updateReminderSchedule(ctx: ServiceContext, input: { expected_revision: number; enabled?: boolean; steps?: number[] }): Promise<ReminderScheduleView> {
  const r = new Refusals();
  if (input.steps !== undefined && r.check(input.steps.length >= 1 && input.steps.length <= 8, '/steps', 'must name 1 to 8 steps')) {
    input.steps.forEach((s, i) => r.check(Number.isInteger(s) && s >= 1 && s <= 365, `/steps/${i}`, 'must be a whole number of days past due from 1 to 365'));
    r.check(new Set(input.steps).size === input.steps.length, '/steps', 'must not name a day twice');
  }
  await lockSetupScope(ctx.db, ctx.org.id, 'payment-reminders');
  const before = await getReminderSchedule(ctx);
  checkRevision(before.revision, input.expected_revision);
  r.throwIfAny();
  const sent = { enabled: input.enabled, steps: input.steps && [...input.steps].sort((a, b) => a - b) };
  if (leavesUnchanged(before, sent)) return before;
  const row = await upsertReminderSchedule(ctx.db, { organizationId: ctx.org.id, enabled: sent.enabled ?? before.enabled, steps: sent.steps ?? before.steps, revision: before.revision + 1 });
  const after = { enabled: row!.enabled, steps: row!.steps, revision: row!.revision };
  await recordSettingsChange(ctx, { entity: 'paymentReminders', record_id: ctx.org.id, action: 'update', before, after });
  return after;
}

/** The reminders sent, newest first. */
export async function sentReminders(ctx: ServiceContext, input: { limit?: number | undefined }) {
  const rows = await listSentReminders(ctx.db, { organizationId: ctx.org.id, limit: input.limit ?? 50 });
  return rows.map((p) => ({ id: p.id, document_id: p.documentId, step: p.step, sent_to: p.sentTo, sent_at: p.sentAt!.toISOString() }));
}

function localHour(now: Date, timeZone: string): number {
  return Number(new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(now));
}

function reminderWords(ctx: ServiceContext, due: DueReminderRow) {
  const org = ctx.org.seller.name ?? ctx.org.name;
  const subject = `Payment reminder / Peringatan bayaran: ${due.reference} (${org})`;
  const owed = formatAmount(due.outstanding, due.currency);
  const text = [
    'Payment reminder',
    `Invoice ${due.reference} was due on ${due.due_on}; ${due.currency} ${owed} is still owed (${due.step} days overdue).`,
    'Your statement is attached. Please disregard this message if you have already paid.',
    '',
    'Peringatan bayaran',
    `Invois ${due.reference} perlu dibayar pada ${due.due_on}; ${due.currency} ${owed} masih belum dijelaskan (lewat ${due.step} hari).`,
    'Penyata akaun anda dilampirkan. Sila abaikan mesej ini jika bayaran telah dibuat.',
    '',
    org,
  ].join('\n');
  const html = text
    .split('\n')
    .map((l) => (l ? `<p>${l.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>` : ''))
    .join('');
  return { subject, text, html };
}

/** One reminder: claim, send with the statement attached, then mark it sent and log it on the document. */
async function sendOne(ctx: ServiceContext, mail: MailSettings, due: DueReminderRow): Promise<boolean> {
  const organizationId = ctx.org.id;
  const id = await claimReminder(ctx.db, { organizationId, documentId: due.document_id, step: due.step, sentTo: due.email, claimedAt: ctx.now });
  if (!id) return false;
  try {
    const pdf = await statementPdf(ctx, { id: due.customer_id });
    await mail.transport.send({
      from: mail.from,
      to: due.email,
      ...reminderWords(ctx, due),
      messageId: `<reminder-${id}@${new URL(mail.baseUrl).hostname}>`,
      language: 'en',
      attachments: [{ filename: pdf.filename, content: pdf.content, contentType: 'application/pdf' }],
    });
  } catch (e) {
    await releaseReminder(ctx.db, { organizationId, id });
    throw e;
  }
  await ctx.db.transaction(async (tx) => {
    await markReminderSent(tx, { organizationId, id, sentAt: ctx.now });
    const doc = await findDocumentRow(tx, { organizationId, id: due.document_id });
    if (!doc) return;
    await insertTimelineEntry(tx, {
      organizationId,
      documentId: doc.id,
      actionKey: 'payment_reminder',
      actorMemberId: ctx.principal.memberId,
      decidedAt: ctx.now,
      fromState: doc.state,
      toState: doc.state,
      reason: `Payment reminder (${due.step} days overdue) sent to ${due.email}`,
      via: 'system',
    });
  });
  return true;
}

/** The job: every organization whose reminders are on and whose local day has reached the hour. Answers how many were sent. */
export async function sendDueReminders(db: Database, mail: MailSettings, now: Date): Promise<number> {
  let sent = 0;
  for (const schedule of await listReminderOrganizations(db)) {
    const ctx = await adminContext(db, schedule.organizationId, now);
    if (localHour(now, ctx.org.timeZone) < REMINDER_LOCAL_HOUR) continue;
    const def = await cachedWorkflow(ctx, 'receivable_document');
    const states = def.states.filter((s) => SETTLEABLE.has(s.semantic)).map((s) => s.key);
    for (const due of await dueReminders(db, { organizationId: ctx.org.id, today: ctx.today, steps: schedule.steps, states })) {
      if (await sendOne(ctx, mail, due)) sent += 1;
    }
  }
  return sent;
}
