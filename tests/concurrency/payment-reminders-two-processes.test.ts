/**
 * Payment reminders from two server processes on PostgreSQL (issue 30): each has its own connection
 * pool and job runner, and over 30 days of a test clock both run the reminder job at the same
 * instants. Every scheduled step (7, 14 and 21 days past due) of every overdue document reaches the
 * customer exactly once, as the test's SMTP server received it; none for a customer whose reminders
 * are off; none after the document is paid. A document's step is claimed (a unique row, committed)
 * before its e-mail leaves, so the process that loses the claim sends nothing (a run that sent
 * though the claim was another's shows here as the same step received twice).
 *
 * A crash between claim and send (the claim row committed, no e-mail, sent_at empty) is not retried:
 * reminders are sent at most once, so that step is never sent, by either process, on any later day;
 * the document's later steps still go out when they are reached.
 *
 * Two runners at one instant would share the hourly period's single job, so each instant has two
 * reminder jobs enqueued and each runner takes one (SKIP LOCKED): the job's work really runs twice at
 * once. The clock is far in the future at 18:00 UTC and the organization keeps Gulf time (22:00
 * there): other files' runners, on the real clock or at 02:00 UTC, never reach this organization's
 * documents, and these runners skip every organization in Kuala Lumpur time (02:00 there).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimReminder } from '../../src/db/queries/payment-reminders';
import { customers, organizations, paymentReminders } from '../../src/db/schema';
import type { Database } from '../../src/db/client';
import { smtpTransport } from '../../src/integrations/mail';
import { enqueue } from '../../src/jobs/queue';
import { JobRegistry } from '../../src/jobs/registry';
import { JobRunner } from '../../src/jobs/runner';
import { buildJobRegistry, JOB_KINDS } from '../../src/jobs/standard-jobs';
import { adminContext } from '../../src/services/access/organization-setup';
import { updateReminderSchedule } from '../../src/services/receivables/payment-reminders';
import { createReceiptWorld, type ReceiptWorld } from '../factories/receipts';
import { issueTestDocument } from '../factories/receivables';
import { createTestApp, onPostgres, useTestApp, type TestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';
import { startSmtpServer } from '../helpers/smtp';

const at = (day: string) => new Date(`${day}T18:00:00Z`);
const days = (from: string, n: number) => Array.from({ length: n }, (_, i) => new Date(Date.parse(`${from}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10));

describe.skipIf(!onPostgres)('payment reminders from two processes', () => {
  const t = useTestApp();
  const { post, get } = httpHelpers(t);
  let second: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    second = await createTestApp();
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await second?.app.close();
    await second?.handle.close();
    await smtp?.close();
  });

  /** A process's runner of the production reminder job alone (other kinds stay with their own files' runners), mailing the test's SMTP server. */
  function reminderRunner(app: TestApp) {
    const standard = buildJobRegistry(app.deps.config, { mail: smtpTransport(smtp.url) }).get(JOB_KINDS.paymentReminders)!;
    const registry = new JobRegistry().register(standard.kind, standard.handler, { ownTransactions: standard.ownTransactions });
    return new JobRunner({ db: app.db, registry, random: () => 0, batchSize: 1 });
  }

  async function issuedOn(w: ReceiptWorld, day: string, over: Record<string, unknown> = {}) {
    t.setNow(at(day));
    const res = await post('/v1/receivables/invoices', w.body(over), w.token);
    expect(res.statusCode, res.body).toBe(201);
    await issueTestDocument(t.db, w.org.id, res.json().id, w.issuer.id, at(day));
    return (await get(`/v1/receivables/invoices/${res.json().id}`, w.token)).json() as { id: string; reference: string; due_on: string };
  }

  const remindersOf = (db: Database, organizationId: string) =>
    db.select({ documentId: paymentReminders.documentId, step: paymentReminders.step, sentAt: paymentReminders.sentAt }).from(paymentReminders).where(eq(paymentReminders.organizationId, organizationId));

  it('30 days: each scheduled step once, none for an excluded customer, none after payment, a crashed claim never sent', async () => {
    const w = await createReceiptWorld(t);
    const tag = w.org.id.slice(0, 8);
    const email = `ap-${tag}@pelanggan.my`;
    const excluded = `excluded-${tag}@pelanggan.my`;
    await t.db.update(organizations).set({ timeZone: 'Asia/Dubai' }).where(eq(organizations.id, w.org.id));
    await t.db.update(customers).set({ email }).where(eq(customers.id, w.customer.id));
    await t.db.update(customers).set({ email: excluded, remindersOff: true }).where(eq(customers.id, w.usdCustomer.id));
    // Several documents reach each step at once: the two processes' runs overlap on them.
    const owed = [];
    for (let i = 0; i < 4; i++) owed.push(await issuedOn(w, '2034-03-01')); // due 2034-03-31: steps on 04-07, 04-14, 04-21
    const later = await issuedOn(w, '2034-03-04'); // due 2034-04-03: steps on 04-10, 04-17, 04-24
    const paid = await issuedOn(w, '2034-03-01'); // paid on 04-10: only the step of 04-07
    const crashed = await issuedOn(w, '2034-03-01'); // its step of 04-07 claimed by a process that died
    await issuedOn(w, '2034-03-01', { customer_id: w.usdCustomer.id, currency: 'USD', fx_rate: '4.4712', lines: [w.line({ quantity: '1', unit_price: '925.93', discount_amount: '0' })] });
    expect([owed[0]!.due_on, later.due_on]).toEqual(['2034-03-31', '2034-04-03']);
    await updateReminderSchedule(await adminContext(t.db, w.org.id, at('2034-03-31')), { expected_revision: 1, enabled: true });

    const runners = [reminderRunner(t), reminderRunner(second)];
    const ran: string[] = [];
    for (const day of days('2034-03-31', 30)) {
      t.setNow(at(day));
      if (day === '2034-04-07') {
        // The dead process's claim: committed, its e-mail never sent.
        expect(await claimReminder(t.db, { organizationId: w.org.id, documentId: crashed.id, step: 7, sentTo: email, claimedAt: at(day) })).toBeDefined();
      }
      if (day === '2034-04-10') {
        const r = await post('/v1/receivables/receipts', w.receiptBody({ amount: '379.62', received_on: day, allocations: [{ invoice_id: paid.id, amount: '379.62' }] }), w.token);
        expect(r.statusCode, r.body).toBe(201);
      }
      for (let i = 0; i < 2; i++) await enqueue(t.db, { kind: JOB_KINDS.paymentReminders, now: at(day) });
      for (const r of await Promise.all(runners.map((runner) => runner.runOnce(at(day))))) ran.push(`${day} claimed ${r.claimed} done ${r.done}`);
    }

    const got = smtp
      .to(email)
      .map((m) => [m.subject.match(/: (\S+) \(/)?.[1], m.text.match(/\((\d+) days overdue\)/)?.[1]].join(' '))
      .sort();
    const steps = (doc: { reference: string }, ...n: number[]) => n.map((s) => `${doc.reference} ${s}`);
    const expected = [...owed.flatMap((d) => steps(d, 7, 14, 21)), ...steps(later, 7, 14, 21), ...steps(paid, 7), ...steps(crashed, 14, 21)].sort();
    expect(got).toEqual(expected);
    expect(smtp.to(excluded)).toEqual([]);
    // Both processes ran the job, and finished it, at every instant.
    expect(ran).toEqual(days('2034-03-31', 30).flatMap((day) => [`${day} claimed 1 done 1`, `${day} claimed 1 done 1`]));

    // The rows: one per step sent, each marked sent; the crashed claim still unsent, and nothing else.
    const rows = (await remindersOf(t.db, w.org.id)).map((r) => `${r.documentId} ${r.step} ${r.sentAt ? 'sent' : 'claimed'}`).sort();
    const ids = Object.fromEntries([...owed, later, paid, crashed].map((d) => [d.reference, d.id]));
    expect(rows).toEqual([...expected.map((e) => `${ids[e.split(' ')[0]!]} ${e.split(' ')[1]} sent`), `${crashed.id} 7 claimed`].sort());
  });
});
