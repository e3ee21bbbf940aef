import { describe, expect, it } from 'vitest';
import { createHttpClient, type HttpClient } from '../../src/client/http';
import type { DemoMember, DemoOrganization } from '../../src/demo/types';
import { CHROMIUM_MISSING, DESKTOP, HAS_CHROMIUM, PHONE, useConsole } from './harness';

/**
 * Bank statements on the demo of a real server (Borneo Logistics: issued documents are open at
 * once): the accountant adds a CIMB BizChannel account, uploads a CSV of three lines (a credit paying
 * an invoice whose number is in its description, a credit of an amount nothing has, a debit), accepts
 * the suggested match and sees the invoice settled; the same file again adds nothing. Then on a phone
 * in Bahasa Malaysia the other credit is ignored and the match undone. Each step is checked on the page
 * and through the API, amounts as exact decimal strings; axe on every screen.
 */
if (!HAS_CHROMIUM) console.warn(`SKIPPED: ${CHROMIUM_MISSING}`);

const app = useConsole();
const poll = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });

function borneo(): DemoOrganization {
  const org = app.organizations.find((o) => o.name.startsWith('Borneo'));
  if (!org) throw new Error('no Borneo demo organization');
  return org;
}
const member = (role: 'owner' | 'accountant'): DemoMember => borneo().members.find((m) => m.role === role && m.active)!;
const client = (role: 'owner' | 'accountant'): HttpClient => createHttpClient({ baseUrl: app.url, token: member(role).session_token! });

const state = {} as { invoice: { id: string; reference: string; gross: string }; accountId: string; csv: string };

/** The owner prepares an invoice of an unusual amount, the accountant issues it. */
async function issuedInvoice(unitPrice: string) {
  const org = borneo();
  const account = org.accounts.find((a) => a.code === '4020')!;
  const tax = org.tax_codes.find((c) => c.code === 'SV-8')!;
  const draft = await client('owner').receivables.invoices.create.mutate(
    { kind: 'sales_invoice', customer_id: org.customers[0]!.id, lines: [{ account_id: account.id, description: 'Freight forwarding', quantity: '1', unit_price: unitPrice, tax_code_id: tax.id }] },
    { context: { idempotencyKey: crypto.randomUUID() } },
  );
  const issued = await client('accountant').receivables.invoices.transition.mutate({ id: draft.id, action_key: 'issue' }, { context: { ifMatch: `"${draft.revision}"` } });
  return { id: issued.id, reference: issued.reference!, gross: issued.gross_amount };
}

/** Yesterday in Kuala Lumpur as DD/MM/YYYY (a receipt is never dated after today). */
function yesterday(): string {
  const d = new Date(Date.now() + 8 * 3600_000 - 86_400_000).toISOString().slice(0, 10).split('-');
  return `${d[2]}/${d[1]}/${d[0]}`;
}

const withCommas = (v: string) => v.replace(/\B(?=(\d{3})+(?!\d))/, ',');

describe.skipIf(!HAS_CHROMIUM)('bank statements: import a CSV and accept matches', () => {
  it('adds a CIMB account, uploads a statement, accepts the suggested match; the same file again adds nothing (desktop, English)', async () => {
    state.invoice = await issuedInvoice('4321.17');
    const day = yesterday();
    state.csv = [
      'Account Statement,,,,,,',
      'Tran Date,Description,Payment Details,Doc Ref No.,Tran Amt.,Tran Type,Balance',
      `${day},"IBG CREDIT ${state.invoice.reference}",Freight,TRX-1,"${withCommas(state.invoice.gross)}",CR,"10,000.00"`,
      `${day},"DUITNOW TRANSFER",,TRX-2,"9,876.53",CR,"19,876.53"`,
      `${day},"SERVICE CHARGE",,TRX-3,"12.00",DR,"19,864.53"`,
    ].join('\r\n');

    const page = await app.newPage(DESKTOP);
    await app.signIn(page, member('accountant'));
    await page.goto(`${app.url}/bank-statements`);
    await page.getByRole('heading', { level: 1, name: 'Bank statements' }).waitFor();
    await page.getByText('No bank account yet').waitFor();
    await app.axe(page);

    await page.getByLabel('Name', { exact: true }).fill('CIMB current account');
    expect(await page.getByLabel('Date column').inputValue()).toBe('Tran Date');
    expect(await page.getByLabel('CR/DR column').inputValue()).toBe('Tran Type');
    await page.getByRole('button', { name: 'Add the account' }).click();
    // The account's select (exact: the add form, "Add a bank account", is labelled with those words too), shown once the new account is listed.
    await page.getByLabel('Bank account', { exact: true }).waitFor();
    const accounts = await client('accountant').receivables.bankStatements.listAccounts.query();
    const account = accounts.items.find((a) => a.name === 'CIMB current account')!;
    expect(account).toMatchObject({ preset: 'cimb_bizchannel', currency: 'MYR', open_credits: 0 });
    state.accountId = account.id;

    await page.getByLabel('CSV file').setInputFiles({ name: 'cimb.csv', mimeType: 'text/csv', buffer: Buffer.from(state.csv) });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await poll(() => page.getByTestId('upload-result').innerText()).toBe('3 lines added, 0 already there.');
    const line = page.locator('[data-status="open"]').filter({ hasText: `IBG CREDIT ${state.invoice.reference}` });
    await line.waitFor();
    const suggestion = line.locator(`[data-suggestion-id="${state.invoice.id}"]`);
    expect(await suggestion.innerText()).toContain('only open item of this amount, same amount, document number in the description');
    await app.axe(page);
    const before = await client('accountant').receivables.bankStatements.lines.query({ id: state.accountId });
    const bySourceRow = [...before.lines].sort((a, b) => a.source_row - b.source_row);
    expect(bySourceRow.map((l) => [l.source_row, l.amount, l.status])).toEqual([
      [3, state.invoice.gross, 'open'],
      [4, '9876.53', 'open'],
      [5, '-12.00', 'open'],
    ]);
    const paying = bySourceRow[0]!;
    expect(paying.suggestions[0]).toMatchObject({ id: state.invoice.id, reasons: ['unique_exact_amount', 'exact_amount', 'document_number'] });

    await suggestion.getByRole('button', { name: `Accept ${state.invoice.reference}` }).click();
    await poll(() => page.locator('[data-status="open"]').filter({ hasText: `IBG CREDIT ${state.invoice.reference}` }).count()).toBe(0);
    const settled = await client('accountant').receivables.invoices.get.query({ id: state.invoice.id });
    expect(settled.outstanding).toBe('0.00');
    const after = await client('accountant').receivables.bankStatements.getLine.query({ id: paying.id });
    expect(after).toMatchObject({ status: 'matched', available_transitions: ['undo'] });
    const receipt = await client('accountant').receivables.receipts.get.query({ id: after.receipt_id! });
    expect(receipt).toMatchObject({ amount: state.invoice.gross, unallocated: '0.00', method: 'bank_transfer', reference: 'TRX-1' });

    await page.getByLabel('CSV file').setInputFiles({ name: 'cimb.csv', mimeType: 'text/csv', buffer: Buffer.from(state.csv) });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await poll(() => page.getByTestId('upload-result').innerText()).toBe('0 lines added, 3 already there.');
    const bad = state.csv.replace('"9,876.53"', '"9,87x.53"');
    await page.getByLabel('CSV file').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await poll(() => page.getByTestId('upload-errors').innerText()).toBe('row 4, column "Tran Amt.": "9,87x.53" is not an amount');
    await app.axe(page);
    expect(app.pageErrors(page)).toEqual([]);
  }, 180_000);

  it('on a phone in Bahasa Malaysia: the other credit ignored, the match undone', async () => {
    expect(state.accountId).toBeTruthy();
    const page = await app.newPage({ ...PHONE, language: 'ms' });
    await app.signIn(page, member('accountant'));
    await page.goto(`${app.url}/bank-statements?account=${state.accountId}`);
    await page.getByRole('heading', { level: 1, name: 'Penyata bank' }).waitFor();
    const other = page.locator('[data-status="open"]').filter({ hasText: 'DUITNOW TRANSFER' });
    await other.waitFor();
    await app.axe(page);
    await other.getByRole('button', { name: 'Abaikan' }).click();
    await poll(() => page.locator('[data-status="open"]').count()).toBe(0);
    const lines = await client('accountant').receivables.bankStatements.lines.query({ id: state.accountId });
    expect(lines.lines.find((l) => l.amount === '9876.53')).toMatchObject({ status: 'ignored' });

    await page.getByLabel('Tunjuk').selectOption('matched');
    const matched = page.locator('[data-status="matched"]');
    await matched.waitFor();
    await app.axe(page);
    await matched.getByRole('button', { name: 'Buat asal' }).click();
    await poll(() => page.locator('[data-status="matched"]').count()).toBe(0);
    const reopened = await client('accountant').receivables.invoices.get.query({ id: state.invoice.id });
    expect(reopened.outstanding).toBe(state.invoice.gross);
    const line = (await client('accountant').receivables.bankStatements.lines.query({ id: state.accountId })).lines.find((l) => l.amount === state.invoice.gross)!;
    expect(line).toMatchObject({ status: 'open', allocation_ids: [] });
    expect(app.pageErrors(page)).toEqual([]);
  }, 180_000);
});
