import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { customers } from '../../src/db/schema';
import type { MailTransport, OutgoingMail } from '../../src/integrations/mail';
import { adminContext } from '../../src/services/access/organization-setup';
import { sendDueReminders, updateReminderSchedule } from '../../src/services/receivables/payment-reminders';
import { createReceiptWorld, trpcHelpers, type ReceiptWorld } from '../factories/receipts';
import { issueTestDocument } from '../factories/receivables';
import { useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';
import { pdfText } from '../helpers/pdf';

/**
 * Payment reminders over a month on a test clock: exactly the scheduled steps (7, 14 and 21 days past
 * due), none for a customer whose reminders are off, none once paid, none twice however many runs
 * (two at once included: the claim of a document's step is a unique row committed before the e-mail).
 */
const t = useTestApp();
const { post, get } = httpHelpers(t);
const { call } = trpcHelpers(t);
const at = (day: string, hourUtc = 2) => new Date(`${day}T${String(hourUtc).padStart(2, '0')}:00:00Z`);
afterEach(() => t.setNow(undefined));

function capture(): MailTransport & { sent: OutgoingMail[] } {
  const sent: OutgoingMail[] = [];
  return { description: 'test', sent, send: async (m) => void sent.push(m), close: () => undefined };
}

async function issuedOn(w: ReceiptWorld, day: string, over: Record<string, unknown> = {}) {
  t.setNow(at(day));
  const res = await post('/v1/receivables/invoices', w.body(over), w.token);
  expect(res.statusCode, res.body).toBe(201);
  await issueTestDocument(t.db, w.org.id, res.json().id, w.issuer.id, at(day));
  return (await get(`/v1/receivables/invoices/${res.json().id}`, w.token)).json();
}

const days = (from: string, n: number) => Array.from({ length: n }, (_, i) => new Date(Date.parse(`${from}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10));

describe('payment reminders', () => {
  it('30 days: the scheduled steps once each, none for an excluded customer, none after payment, none before 08:00 local', async () => {
    const w = await createReceiptWorld(t);
    const email = `ap-${w.org.id.slice(0, 8)}@pelanggan.my`;
    await t.db.update(customers).set({ email, legalName: '陳大文貿易 Sdn. Bhd.' }).where(eq(customers.id, w.customer.id));
    await t.db.update(customers).set({ email: 'excluded@pelanggan.my', remindersOff: true }).where(eq(customers.id, w.usdCustomer.id));
    // Off until turned on: nothing is sent.
    const owed = await issuedOn(w, '2026-01-10'); // due 2026-02-09
    const paid = await issuedOn(w, '2026-01-10');
    await issuedOn(w, '2026-01-10', { customer_id: w.usdCustomer.id, currency: 'USD', fx_rate: '4.4712', lines: [w.line({ quantity: '1', unit_price: '925.93', discount_amount: '0' })] });
    const mail = { transport: capture(), from: 'billing@contoh.my', baseUrl: 'http://localhost:3000' };
    // (On PostgreSQL every test file shares the tables: only this organization's messages are counted.)
    const ours = () => mail.transport.sent.filter((m) => m.to === email || m.to === 'excluded@pelanggan.my');
    await sendDueReminders(t.db, mail, at('2026-02-20'));
    expect(ours()).toEqual([]);

    await updateReminderSchedule(await adminContext(t.db, w.org.id, at('2026-02-09')), { expected_revision: 1, enabled: true });
    for (const day of days('2026-02-09', 30)) {
      if (day === '2026-02-20') {
        t.setNow(at(day));
        const r = await post('/v1/receivables/receipts', w.receiptBody({ amount: '379.62', received_on: day, allocations: [{ invoice_id: paid.id, amount: '379.62' }] }), w.token);
        expect(r.statusCode, r.body).toBe(201);
      }
      // 06:00 in Kuala Lumpur: not yet; 10:00 twice, and a third run at 10:00 beside another.
      const before = ours().length;
      await sendDueReminders(t.db, mail, new Date(`${day}T06:00:00+08:00`));
      expect(ours()).toHaveLength(before);
      await sendDueReminders(t.db, mail, at(day));
      await Promise.all([sendDueReminders(t.db, mail, at(day)), sendDueReminders(t.db, mail, at(day))]);
    }
    const sent = ours()
      .map((m) => [m.to, m.subject.match(/: (\S+)/)?.[1], m.text.match(/\((\d+) days overdue\)/)?.[1]] as string[])
      .sort((a, b) => Number(a[2]) - Number(b[2]) || a[1]!.localeCompare(b[1]!));
    // The owed invoice: 7, 14 and 21 days past 2026-02-09; the paid one only before it was paid (7 days, 2026-02-16).
    expect(sent).toEqual([
      ...[[email, owed.reference, '7'], [email, paid.reference, '7']].sort((a, b) => a[1].localeCompare(b[1])),
      [email, owed.reference, '14'],
      [email, owed.reference, '21'],
    ]);
    const first = mail.transport.sent.find((m) => m.subject.includes(owed.reference))!;
    expect(first.attachments).toHaveLength(1);
    const statement = await pdfText(first.attachments![0]!.content);
    expect(statement).toContain('Statement of Account / Penyata Akaun');
    expect(statement).toContain('陳大文貿易 Sdn. Bhd.');
    expect(first.text).toContain('Peringatan bayaran');
    expect(first.text).toContain(`MYR 379.62 is still owed (7 days overdue)`);

    // Each on the document's timeline; the set-up screen's list has them.
    const timeline = (await get(`/v1/receivables/invoices/${owed.id}`, w.token)).json().timeline.filter((e: any) => e.action_key === 'payment_reminder');
    expect(timeline.map((e: any) => e.reason)).toEqual([7, 14, 21].map((d) => `Payment reminder (${d} days overdue) sent to ${email}`));
    const list = await get(`/trpc/settings.paymentReminders.sent?input=${encodeURIComponent(JSON.stringify({}))}`, w.token);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().result.data).toHaveLength(4);
  });

  it('the schedule: read by a key, changed only in a session; steps checked', async () => {
    const w = await createReceiptWorld(t);
    const read = await get('/trpc/settings.paymentReminders.get', w.token);
    expect(read.json().result.data).toEqual({ enabled: false, steps: [7, 14, 21], revision: 1 });
    const byKey = await call('settings.paymentReminders.update', { enabled: true }, w.token, { 'if-match': '"1"' });
    expect(byKey.statusCode).toBe(403);
    const ctx = await adminContext(t.db, w.org.id, new Date());
    await expect(updateReminderSchedule(ctx, { expected_revision: 1, steps: [0, 14, 14] })).rejects.toMatchObject({ appCode: 'validation', fieldErrors: [expect.objectContaining({ pointer: '/steps/0' }), expect.objectContaining({ pointer: '/steps' })] });
    expect(await updateReminderSchedule(ctx, { expected_revision: 1, enabled: true, steps: [30, 3] })).toEqual({ enabled: true, steps: [3, 30], revision: 2 });
    await expect(updateReminderSchedule(ctx, { expected_revision: 1, enabled: false })).rejects.toMatchObject({ status: 409 });
    // The job leaves an organization whose schedule is off alone, and the update is in the settings history.
    expect(await updateReminderSchedule(ctx, { expected_revision: 2, enabled: false })).toMatchObject({ enabled: false, revision: 3 });
  });
});
