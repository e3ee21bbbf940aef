/**
 * POST/GET /v1/journal/exports and GET /v1/journal/trial-balance: a batch takes every entry not yet
 * exported up to a day (201), nothing left is 409, numbers follow on; the same batch downloads as the
 * same bytes in every layout; the trial balance counts every entry, exported or not; the permission
 * receivables.journal.export (an employee is 403).
 */
import { describe, expect, it } from 'vitest';
import { createReceiptWorld } from '../factories/receipts';
import { createTestMember } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';

const t = useTestApp();
const { post, get } = httpHelpers(t);
const put = (url: string, body: unknown, token: string) =>
  t.app.inject({ method: 'PUT', url, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() }, payload: JSON.stringify(body) });

describe('journal exports', () => {
  it('exports what is not yet exported up to a day, refuses an empty batch, downloads the same bytes again', async () => {
    const w = await createReceiptWorld(t);
    const inv = await w.invoice();
    const early = await post('/v1/receivables/receipts', w.receiptBody({ amount: '100.00', received_on: '2025-03-01' }), w.token);
    expect(early.statusCode, early.body).toBe(201);
    const late = await post('/v1/receivables/receipts', w.receiptBody({ amount: '279.62', received_on: '2025-04-01' }), w.token);
    expect(late.statusCode, late.body).toBe(201);

    // Up to 2025-03-31: the receipt of 1 March only (the invoice is dated today, the other receipt in April).
    const first = await post('/v1/journal/exports', { up_to: '2025-03-31' }, w.token);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers.location).toBe('/v1/journal/exports/1');
    const b1 = first.json();
    expect(b1).toMatchObject({ number: 1, up_to: '2025-03-31' });
    expect(b1.entries.map((e: any) => [e.kind, e.date, e.source])).toEqual([['receipt', '2025-03-01', { type: 'receipt', id: early.json().id }]]);
    expect(b1.entries[0].lines).toEqual([
      { account_id: expect.any(String), account_code: '1020', debit: '100.00', credit: '0.00', currency: 'MYR', amount: '100.00', analytic_account_id: null },
      { account_id: expect.any(String), account_code: '2040', debit: '0.00', credit: '100.00', currency: 'MYR', amount: '100.00', analytic_account_id: null },
    ]);
    const again = await post('/v1/journal/exports', { up_to: '2025-03-31' }, w.token);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('conflict');

    // The invoice's day of issue is the organization's today (from 16:00 UTC already tomorrow in Kuala Lumpur).
    const today = inv.invoice_date as string;
    const second = await post('/v1/journal/exports', { up_to: '9999-12-31' }, w.token);
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json().number).toBe(2);
    expect(second.json().entries.map((e: any) => e.kind).sort()).toEqual(['document_issued', 'receipt']);
    expect(second.json().entries.find((e: any) => e.kind === 'document_issued').source.id).toBe(inv.id);

    const list = await get('/v1/journal/exports', w.token);
    expect(list.statusCode).toBe(200);
    expect(list.json().items.map((b: any) => [b.number, b.entry_count])).toEqual([[2, 2], [1, 1]]);
    const paged = await get('/v1/journal/exports?limit=1', w.token);
    expect(paged.json()).toMatchObject({ items: [{ number: 2 }], next_before: 2 });
    expect((await get('/v1/journal/exports?limit=1&before=2', w.token)).json()).toMatchObject({ items: [{ number: 1 }], next_before: null });

    for (const format of ['json', 'csv', 'sql_account', 'autocount', 'xero']) {
      const a = await get(`/v1/journal/exports/2?format=${format}`, w.token);
      const b = await get(`/v1/journal/exports/2?format=${format}`, w.token);
      expect(a.statusCode, a.body).toBe(200);
      expect(b.body).toBe(a.body);
    }
    const csv = await get('/v1/journal/exports/2?format=csv', w.token);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body.split('\r\n')[0]).toBe('batch,entry_id,date,kind,source_type,source_id,reference,line,account_code,account_id,debit,credit,currency,amount,analytic_account_id');
    // AutoCount's rows carry the organization's base currency at rate 1: every amount is in base.
    const autocount = await get('/v1/journal/exports/2?format=autocount', w.token);
    expect(autocount.body.split('\r\n')[0]).toBe('DocNo,DocDate,JournalType,CurrencyCode,CurrencyRate,Description,AccNo,DetailDescription,Ref,DR,CR');
    expect(autocount.body.split('\r\n')[1]).toMatch(/^JE2-0001,\d\d\/\d\d\/\d{4},GENERAL,MYR,1,/);
    expect((await get('/v1/journal/exports/3', w.token)).statusCode).toBe(404);
    // Numbers past a 32-bit integer are refused as bad input, never looked up (a 500 before).
    for (const url of ['/v1/journal/exports/9007199254740991', '/v1/journal/exports/2147483648', '/v1/journal/exports?before=2147483648']) {
      const big = await get(url, w.token);
      expect(big.statusCode, url).toBe(422);
      expect(big.json().code, url).toBe('validation');
    }

    const tb = await get(`/v1/journal/trial-balance?as_of=${today}`, w.token);
    expect(tb.statusCode, tb.body).toBe(200);
    expect(tb.json().accounts.map((a: any) => [a.account_code, a.debit, a.credit, a.balance])).toEqual([
      ['1020', '379.62', '0.00', '379.62'],
      ['1110', '379.62', '0.00', '379.62'],
      ['2040', '0.00', '379.62', '-379.62'],
      ['2110', '0.00', '28.12', '-28.12'],
      ['4000', '0.00', '351.50', '-351.50'],
    ]);
    expect((await get('/v1/journal/trial-balance?as_of=2025-03-15', w.token)).json().accounts.map((a: any) => a.balance)).toEqual(['100.00', '-100.00']);
  });

  it('needs receivables.journal.export (an employee is 403); the control accounts are read and chosen in set-up', async () => {
    const w = await createReceiptWorld(t);
    const employee = await createTestMember(t.db, w.org.id, { role: 'employee' });
    expect((await post('/v1/journal/exports', { up_to: '2025-01-01' }, employee.apiKey)).statusCode).toBe(403);
    expect((await get('/v1/journal/exports', employee.apiKey)).statusCode).toBe(403);
    expect((await get('/v1/journal/trial-balance?as_of=2025-01-01', employee.apiKey)).statusCode).toBe(403);
    expect((await post('/v1/journal/exports', { up_to: '2025-13-01' }, w.token)).statusCode).toBe(400);

    const accounts = await get('/v1/journal/accounts', w.token);
    expect(accounts.statusCode, accounts.body).toBe(200);
    const items = accounts.json().items as { role: string; key: string; account_code: string | null; source: string }[];
    expect(items.find((a) => a.role === 'receivables_control')).toMatchObject({ account_code: '1110', source: 'default' });
    expect(items.find((a) => a.role === 'receipt_clearing' && a.key === 'cash')).toMatchObject({ account_code: '1020', source: 'default' });
    const chart = (await get('/v1/settings/accounts?limit=100', w.token)).json().items as { id: string; code: string }[];
    const cash = chart.find((a) => a.code === '1010')!;
    const set = await put('/v1/journal/accounts', { role: 'receipt_clearing', key: 'cash', account_id: cash.id }, w.token);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().items.find((a: any) => a.role === 'receipt_clearing' && a.key === 'cash')).toMatchObject({ account_code: '1010', source: 'setup' });
    const receipt = await post('/v1/receivables/receipts', w.receiptBody({ amount: '10.00', method: 'cash' }), w.token);
    expect(receipt.statusCode).toBe(201);
    const batch = (await post('/v1/journal/exports', { up_to: '2025-03-01' }, w.token)).json();
    expect(batch.entries[0].lines[0]).toMatchObject({ account_code: '1010', debit: '10.00' });

    expect((await put('/v1/journal/accounts', { role: 'sst_payable', key: 'cash', account_id: cash.id }, w.token)).json().errors[0].pointer).toBe('/key');
    expect((await put('/v1/journal/accounts', { role: 'receipt_clearing', key: 'cash', account_id: crypto.randomUUID() }, w.token)).json().errors[0].pointer).toBe('/account_id');
    expect((await put('/v1/journal/accounts', { role: 'receipt_clearing', key: 'cash', account_id: cash.id }, employee.apiKey)).statusCode).toBe(403);
  });
});
