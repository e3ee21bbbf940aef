import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createHttpClient, type HttpClient } from '../../src/client/http';
import type { DemoMember, DemoOrganization } from '../../src/demo/types';
import { dateIn } from '../../web/src/format/date';
import { formatMoney } from '../../web/src/format/money';
import { CHROMIUM_MISSING, DESKTOP, HAS_CHROMIUM, PHONE, useConsole } from './harness';

/**
 * The accountant's ageing, on the demo of a real server (Borneo Logistics: no e-invoicing, so an
 * issued invoice is open at once): an invoice issued today for a new customer; the ageing as at
 * today shows its line and the totals the API answers, a day before it shows none; the customer's
 * name opens its open documents in the invoice list; the CSV and PDF download; the figures on To do
 * (not shown to an employee). Then on a phone in Bahasa Malaysia. Axe on every screen.
 */
if (!HAS_CHROMIUM) console.warn(`SKIPPED: ${CHROMIUM_MISSING}`);

const app = useConsole();

const poll = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });
const key = () => ({ context: { idempotencyKey: crypto.randomUUID() } });

function borneo(): DemoOrganization {
  const org = app.organizations.find((o) => o.name.startsWith('Borneo'));
  if (!org) throw new Error('no Borneo demo organization');
  return org;
}
const member = (role: 'owner' | 'accountant' | 'employee'): DemoMember => borneo().members.find((m) => m.role === role && m.active)!;
const client = (role: 'owner' | 'accountant'): HttpClient => createHttpClient({ baseUrl: app.url, token: member(role).session_token! });

/** Text with spaces normalized (Intl puts no-break spaces in amounts). */
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
const money = (amount: string, locale = 'en-MY') => squash(formatMoney(amount, 'MYR', locale));

const state = {} as { customerId: string; code: string; invoice: { id: string; reference: string; gross: string }; today: string };

async function setUp() {
  const org = borneo();
  state.today = dateIn(new Date(), 'Asia/Kuala_Lumpur');
  state.code = `AG-${Date.now().toString(36).toUpperCase()}`;
  const customer = await client('owner').receivables.customers.create.mutate({ code: state.code, legal_name: 'Syarikat Umur Hutang Sdn Bhd', payment_terms_days: 14 }, key());
  state.customerId = customer.id;
  const account = org.accounts.find((a) => a.code === '4020')!;
  const tax = org.tax_codes.find((c) => c.code === 'SV-8')!;
  const draft = await client('owner').receivables.invoices.create.mutate(
    { kind: 'sales_invoice', customer_id: customer.id, lines: [{ account_id: account.id, description: 'Warehousing', quantity: '1', unit_price: '250.00', tax_code_id: tax.id }] },
    key(),
  );
  const issued = await client('accountant').receivables.invoices.transition.mutate({ id: draft.id, action_key: 'issue' }, { context: { ifMatch: `"${draft.revision}"` } });
  state.invoice = { id: issued.id, reference: issued.reference!, gross: issued.gross_amount };
  expect(state.invoice.gross).toBe('270.00');
}

const rowOf = (page: Page) => page.locator(`[data-testid="ageing-table"] tr[data-customer-code="${state.code}"]`);

describe.skipIf(!HAS_CHROMIUM)("the accountant's ageing", () => {
  it('reads the ageing as at today and a day before, drills down to the customer, downloads it (desktop, English)', async () => {
    await setUp();
    const page = await app.newPage(DESKTOP);
    await app.signIn(page, member('accountant'));
    await page.getByRole('link', { name: 'Ageing' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Aged receivables' }).waitFor();
    await rowOf(page).waitFor();
    const report = await client('accountant').receivables.reports.ageing.query({ as_of: state.today });
    // The new invoice is not yet due: current.
    const line = report.customers.find((c) => c.customer_id === state.customerId)!;
    expect(line).toMatchObject({ currency: 'MYR', total: '270.00', total_base: '270.00', buckets: expect.objectContaining({ current: '270.00', days_1_30: '0.00' }) });
    expect(squash(await rowOf(page).locator('[data-bucket="current"]').innerText())).toBe(money('270.00'));
    expect(squash(await rowOf(page).locator('[data-bucket="total_base"]').innerText())).toBe(money('270.00'));
    expect(await page.locator('[data-testid="ageing-table"] tbody tr').count()).toBe(report.customers.length);
    const totals = page.getByTestId('ageing-totals');
    expect(squash(await totals.locator('[data-bucket="total_base"]').innerText())).toBe(money(report.total_base));
    for (const k of report.bucket_keys) expect(squash(await totals.locator(`[data-bucket="${k}"]`).innerText())).toBe(money(report.totals_base[k]!));
    await app.axe(page);

    // The CSV and the PDF of the same day, on the session.
    const csvHref = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
    expect(csvHref).toBe(`/v1/receivables/reports/ageing?as_of=${state.today}&format=csv`);
    const csv = await page.request.get(`${app.url}${csvHref}`);
    expect(csv.status()).toBe(200);
    expect(csv.headers()['content-type']).toMatch(/^text\/csv/);
    expect(await csv.text()).toContain(`${state.code},Syarikat Umur Hutang Sdn Bhd,false,MYR,270.00,`);
    const pdf = await page.request.get(`${app.url}${await page.getByRole('link', { name: 'Download PDF' }).getAttribute('href')}`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');

    // A day before the invoice: no line for the customer.
    const yesterday = new Date(Date.parse(`${state.today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('As at', { exact: true }).fill(yesterday);
    await page.getByRole('button', { name: 'Show' }).click();
    await poll(() => page.url()).toContain(`as_of=${yesterday}`);
    await poll(() => rowOf(page).count()).toBe(0);
    const before = await client('accountant').receivables.reports.ageing.query({ as_of: yesterday });
    expect(before.customers.find((c) => c.customer_id === state.customerId)).toBeUndefined();
    await app.axe(page);

    // Back to today; the customer's name opens its open documents.
    await page.getByLabel('As at', { exact: true }).fill(state.today);
    await page.getByRole('button', { name: 'Show' }).click();
    await rowOf(page).waitFor();
    await rowOf(page).getByRole('link', { name: 'Documents of Syarikat Umur Hutang Sdn Bhd' }).click();
    await poll(() => page.url()).toContain(`customer_id=${state.customerId}`);
    await page.getByText(state.invoice.reference).first().waitFor();
    const listed = await client('accountant').receivables.invoices.list.query({ customer_id: state.customerId, outstanding: true });
    expect(listed.documents.map((d) => d.id)).toEqual([state.invoice.id]);
    await app.axe(page);

    // The customer's page offers the statement as a PDF, read on the same session.
    await page.goto(`${app.url}/customers/${state.customerId}`);
    const statementLink = page.getByTestId('statement-pdf-link');
    await statementLink.waitFor();
    expect(await statementLink.innerText()).toBe('Statement (PDF)');
    const href = await statementLink.getAttribute('href');
    expect(href).toBe(`/v1/receivables/customers/${state.customerId}/statement/pdf`);
    const statement = await page.request.get(`${app.url}${href}`);
    expect(statement.status()).toBe(200);
    expect(statement.headers()['content-type']).toBe('application/pdf');
    expect((await statement.body()).subarray(0, 5).toString()).toBe('%PDF-');
    await app.axe(page);

    // Left out of the payment reminders, on the customer's own form.
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel('Send this customer no payment reminders').check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await poll(async () => (await client('accountant').receivables.customers.get.query({ id: state.customerId })).reminders_off).toBe(true);
    expect(app.pageErrors(page)).toEqual([]);
  }, 120_000);

  it('sees the receivables figures on To do; an employee does not (desktop, English)', async () => {
    expect(state.customerId).toBeTruthy();
    const page = await app.newPage(DESKTOP);
    await app.signIn(page, member('accountant'));
    await page.getByRole('heading', { level: 2, name: 'Receivables today' }).waitFor();
    const figures = await client('accountant').receivables.reports.figures.query({ as_of: state.today });
    await poll(async () => squash(await page.getByTestId('figure-outstanding').innerText())).toBe(`Outstanding ${money(figures.outstanding_base)}`);
    expect(squash(await page.getByTestId('figure-overdue').innerText())).toBe(`Overdue ${money(figures.overdue_base)}`);
    expect(squash(await page.getByTestId('figure-collected').innerText())).toBe(`Collected in the last 90 days ${money(figures.collected.amount_base)}`);
    expect(squash(await page.getByTestId('figure-dso').innerText())).toBe(`Days sales outstanding ${figures.dso.days === null ? 'No sales in 90 days' : `${figures.dso.days} days`}`);
    await app.axe(page);

    const employee = await app.newPage(DESKTOP);
    await app.signIn(employee, member('employee'));
    await employee.getByRole('heading', { level: 1, name: 'To do' }).waitFor();
    await app.settled(employee);
    expect(await employee.getByRole('heading', { name: 'Receivables today' }).count()).toBe(0);
    expect(await employee.getByRole('link', { name: 'Ageing' }).count()).toBe(0);
    expect(app.pageErrors(page)).toEqual([]);
  }, 120_000);

  it('on a phone in Bahasa Malaysia: the ageing and its line for the customer', async () => {
    expect(state.customerId).toBeTruthy();
    const page = await app.newPage({ ...PHONE, language: 'ms' });
    await app.signIn(page, member('accountant'));
    await page.goto(`${app.url}/ageing?as_of=${state.today}`);
    await page.getByRole('heading', { level: 1, name: 'Penghutang mengikut umur' }).waitFor();
    await rowOf(page).waitFor();
    expect(squash(await rowOf(page).locator('[data-bucket="total"]').innerText())).toBe(money('270.00', 'ms-MY'));
    expect(await page.getByRole('columnheader', { name: 'Semasa' }).count()).toBe(1);
    await page.getByRole('link', { name: 'Muat turun PDF' }).waitFor();
    await app.axe(page);
    expect(app.pageErrors(page)).toEqual([]);
  }, 120_000);
});

/**
 * The accountant exports the journal (Borneo's demo, with the invoice issued above): the first batch
 * takes every entry up to today and downloads as Xero's template, the same bytes twice; a second
 * export with nothing left is refused with the server's sentence; on a phone in Bahasa Malaysia the
 * batch is listed. Axe on each screen.
 */
describe.skipIf(!HAS_CHROMIUM)("the accountant's journal export", () => {
  it('exports a batch, downloads it as Xero’s template twice alike, and is told when nothing is left (desktop, English)', async () => {
    const page = await app.newPage(DESKTOP);
    await app.signIn(page, member('accountant'));
    await page.getByRole('link', { name: 'Journal' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Journal export' }).waitFor();
    await poll(() => page.getByText('No batch exported yet.').count()).toBe(1);
    await app.axe(page);
    const form = page.getByTestId('journal-create');
    await form.getByRole('button', { name: 'Export' }).click();
    await poll(() => page.locator('[data-batch="1"]').count()).toBe(1);
    const listed = await client('accountant').journal.exports.list.query({});
    expect(listed.items.map((b) => b.number)).toEqual([1]);
    const batch = listed.items[0]!;
    expect(batch.entry_count).toBeGreaterThan(0);
    await poll(() => page.locator('[aria-live="polite"]').innerText()).toContain(`Batch 1 exported with ${batch.entry_count} entries.`);
    const xero = page.getByRole('link', { name: 'Download batch 1 for Xero' });
    const href = await xero.getAttribute('href');
    expect(href).toBe('/v1/journal/exports/1?format=xero');
    const first = await page.request.get(`${app.url}${href}`);
    const second = await page.request.get(`${app.url}${href}`);
    expect(first.status()).toBe(200);
    expect(first.headers()['content-disposition']).toContain('journal-1-xero');
    expect(Buffer.compare(await first.body(), await second.body())).toBe(0);
    await app.axe(page);
    // Nothing left up to today: the server says so, and no batch 2 appears.
    await form.getByRole('button', { name: 'Export' }).click();
    await poll(() => form.getByRole('alert').count()).toBe(1);
    expect((await client('accountant').journal.exports.list.query({})).items.map((b) => b.number)).toEqual([1]);
    await app.axe(page);
    expect(app.pageErrors(page)).toEqual([]);
  }, 120_000);

  it('on a phone in Bahasa Malaysia: the batch with its downloads', async () => {
    const page = await app.newPage({ ...PHONE, language: 'ms' });
    await app.signIn(page, member('accountant'));
    await page.goto(`${app.url}/journal`);
    await page.getByRole('heading', { level: 1, name: 'Eksport jurnal' }).waitFor();
    await poll(() => page.locator('[data-batch="1"] h3').innerText()).toBe('Kelompok 1');
    expect(await page.locator('[data-batch="1"] a[data-format]').count()).toBe(4);
    await app.axe(page);
    expect(app.pageErrors(page)).toEqual([]);
  }, 120_000);
});
