import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { customers } from '../../src/db/schema';
import { createReceiptWorld, trpcHelpers, type ReceiptWorld } from '../factories/receipts';
import { createTestMember } from '../factories/organization';
import { issueTestDocument } from '../factories/receivables';
import { useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';
import { setSeller } from '../helpers/einvoicing';
import { pdfText } from '../helpers/pdf';
import { expectProblem } from '../helpers/problem';

/**
 * Customer statements to the sen, open items and activity, rebuilt from invoice dates, days received
 * and allocation effective days. The story: invoice A (379.62, 2026-01-10, due 2026-02-09), invoice B
 * (379.62, 2026-02-05, due 2026-03-07), 200.00 received and allocated to A on 2026-02-20, a credit
 * note of 54.00 against B dated 2026-02-25 and applied on 2026-02-26, the 200.00 allocation reversed
 * on 2026-03-15, and 100.00 received unallocated on 2026-03-20.
 */
const t = useTestApp();
const { post, get } = httpHelpers(t);
const { call } = trpcHelpers(t);

const at = (day: string) => new Date(`${day}T04:00:00Z`);
const on = (day: string) => t.setNow(at(day));
afterEach(() => t.setNow(undefined));

async function issuedOn(w: ReceiptWorld, day: string, over: Record<string, unknown> = {}) {
  on(day);
  const res = await post('/v1/receivables/invoices', w.body(over), w.token);
  expect(res.statusCode, res.body).toBe(201);
  await issueTestDocument(t.db, w.org.id, res.json().id, w.issuer.id, at(day));
  return (await get(`/v1/receivables/invoices/${res.json().id}`, w.token)).json();
}

async function story(w: ReceiptWorld) {
  const a = await issuedOn(w, '2026-01-10');
  const b = await issuedOn(w, '2026-02-05');
  on('2026-02-20');
  const r1 = (await post('/v1/receivables/receipts', w.receiptBody({ amount: '200.00', received_on: '2026-02-20', allocations: [{ invoice_id: a.id, amount: '200.00' }] }), w.token)).json();
  const note = await issuedOn(w, '2026-02-25', { kind: 'customer_credit_note', reason: 'Goods returned', original_invoice_id: b.id, lines: [w.line({ quantity: '1', unit_price: '50.00', discount_amount: '0' })] });
  on('2026-02-26');
  const applied = await call('receivables.receipts.applyCreditNote', { credit_note_id: note.id, invoice_id: b.id, amount: '54.00' }, w.token);
  expect(applied.statusCode, applied.body).toBe(200);
  on('2026-03-15');
  const rev = await call('receivables.receipts.reverseAllocation', { allocation_id: r1.allocations[0].id }, w.token);
  expect(rev.statusCode, rev.body).toBe(200);
  on('2026-03-20');
  const r2 = (await post('/v1/receivables/receipts', w.receiptBody({ amount: '100.00', received_on: '2026-03-20' }), w.token)).json();
  on('2026-04-02');
  return { a, b, note, r1, r2 };
}

const statement = async (w: ReceiptWorld, query: string) => {
  const res = await get(`/v1/receivables/customers/${w.customer.id}/statement${query}`, w.token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('customer statements', () => {
  it('open items as at a day: what was open then, days overdue, closing balance and the overdue part', async () => {
    const w = await createReceiptWorld(t);
    const { a, b, r1, r2 } = await story(w);

    // 2026-03-01: A 379.62 − 200.00 = 179.62, 20 days past due; B 379.62 − 54.00 = 325.62, not yet
    // due; the credit note and the receipt are used up. 179.62 + 325.62 = 505.24.
    const march1 = await statement(w, '?type=open_items&to=2026-03-01');
    expect(march1).toMatchObject({ type: 'open_items', from: null, to: '2026-03-01', customer: { id: w.customer.id, code: w.customer.code } });
    expect(march1.currencies).toEqual([
      {
        currency: 'MYR',
        opening_balance: null,
        lines: [
          expect.objectContaining({ kind: 'sales_invoice', id: a.id, reference: a.reference, due_on: '2026-02-09', days_overdue: 20, amount: '379.62', open: '179.62' }),
          expect.objectContaining({ kind: 'sales_invoice', id: b.id, reference: b.reference, due_on: '2026-03-07', days_overdue: 0, amount: '379.62', open: '325.62' }),
        ],
        closing_balance: '505.24',
        overdue: '179.62',
      },
    ]);

    // 2026-03-31 (the default type): the reversal put A back to 379.62 (50 days past due), B is 24
    // days past due, both receipts are credits: 379.62 + 325.62 − 200.00 − 100.00 = 405.24.
    const march31 = await statement(w, '?to=2026-03-31');
    expect(march31.currencies[0].lines.map((l: any) => [l.kind, l.id, l.open, l.days_overdue])).toEqual([
      ['sales_invoice', a.id, '379.62', 50],
      ['sales_invoice', b.id, '325.62', 24],
      ['receipt', r1.id, '-200.00', null],
      ['receipt', r2.id, '-100.00', null],
    ]);
    expect(march31.currencies[0]).toMatchObject({ closing_balance: '405.24', overdue: '705.24' });

    // Before the first invoice: nothing.
    expect((await statement(w, '?to=2026-01-09')).currencies).toEqual([]);
  });

  it('activity over a period: opening balance, each document, receipt, credit and reversal, running and closing balance', async () => {
    const w = await createReceiptWorld(t);
    const { a, b, note, r1, r2 } = await story(w);
    const s = await statement(w, '?type=activity&from=2026-02-01&to=2026-03-31');
    expect(s).toMatchObject({ type: 'activity', from: '2026-02-01', to: '2026-03-31' });
    const [myr] = s.currencies;
    // Opening: A alone, 379.62.
    expect(myr.opening_balance).toBe('379.62');
    const lines = myr.lines.map((l: any) => [l.date, l.kind, l.reference, l.applied_to, l.amount, l.applied, l.balance]);
    expect(lines).toEqual([
      ['2026-02-05', 'sales_invoice', b.reference, null, '379.62', null, '759.24'],
      ['2026-02-20', 'receipt', r1.reference, null, '-200.00', null, '559.24'],
      ['2026-02-20', 'allocation', r1.reference, a.reference, '0.00', '200.00', '559.24'],
      ['2026-02-25', 'customer_credit_note', note.reference, null, '-54.00', null, '505.24'],
      ['2026-02-26', 'allocation', note.reference, b.reference, '0.00', '54.00', '505.24'],
      ['2026-03-15', 'allocation_reversal', r1.reference, a.reference, '0.00', '-200.00', '505.24'],
      ['2026-03-20', 'receipt', r2.reference, null, '-100.00', null, '405.24'],
    ]);
    // The closing balance of the activity is the open items' closing balance on the same day.
    expect(myr.closing_balance).toBe('405.24');
    expect((await statement(w, '?to=2026-03-31')).currencies[0].closing_balance).toBe('405.24');
    // From the start of March (the default `from` of a March `to`): opened at 505.24.
    const march = await statement(w, '?type=activity&to=2026-03-31');
    expect(march).toMatchObject({ from: '2026-03-01', currencies: [{ opening_balance: '505.24', closing_balance: '405.24' }] });
    expect(march.currencies[0].lines).toHaveLength(2);
  });

  it('the same through tRPC; a USD customer in USD', async () => {
    const w = await createReceiptWorld(t);
    await issuedOn(w, '2026-04-01', { customer_id: w.usdCustomer.id, currency: 'USD', fx_rate: '4.4712', lines: [w.line({ quantity: '1', unit_price: '925.93', discount_amount: '0' })] });
    on('2026-04-02');
    const res = await get(`/trpc/receivables.customers.statement?input=${encodeURIComponent(JSON.stringify({ id: w.usdCustomer.id }))}`, w.token);
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json().result.data;
    expect(s.currencies).toEqual([expect.objectContaining({ currency: 'USD', closing_balance: '1000.00', overdue: '0.00' })]);
  });

  it('refusals: a day after today, from after to, from with open items (422); a bad day (400); no permission (403); another organization’s customer (404)', async () => {
    const w = await createReceiptWorld(t);
    on('2026-04-02');
    const url = `/v1/receivables/customers/${w.customer.id}/statement`;
    expect(expectProblem(await get(`${url}?to=2026-04-03`, w.token), 422, 'validation').errors).toEqual([expect.objectContaining({ pointer: '/query/to' })]);
    expect(expectProblem(await get(`${url}?type=activity&from=2026-03-02&to=2026-03-01`, w.token), 422, 'validation').errors).toEqual([expect.objectContaining({ pointer: '/query/from' })]);
    expect(expectProblem(await get(`${url}?from=2026-03-01`, w.token), 422, 'validation').errors).toEqual([expect.objectContaining({ pointer: '/query/from' })]);
    expectProblem(await get(`${url}?to=2026-13-01`, w.token), 400);
    expectProblem(await get(`${url}?type=balance_forward`, w.token), 400);
    const reader = await createTestMember(t.db, w.org.id, { role: 'owner', keyPermissions: ['receivables.receipt.read'] });
    expectProblem(await get(url, reader.apiKey), 403, 'forbidden');
    const other = await createReceiptWorld(t);
    expectProblem(await get(`/v1/receivables/customers/${other.customer.id}/statement`, w.token), 404);
  });

  it('the statement as a bilingual PDF: opening and closing balances, and a Chinese and a Tamil name as written', async () => {
    const w = await createReceiptWorld(t);
    await setSeller(t.db, w.org.id);
    await t.db.update(customers).set({ legalName: '陳大文貿易 Sdn. Bhd.', address: { line1: 'No. 8, Jalan Ipoh', city: 'Kuala Lumpur', postcode: '51200' } }).where(eq(customers.id, w.customer.id));
    await story(w);
    const res = await get(`/v1/receivables/customers/${w.customer.id}/statement/pdf?type=activity&from=2026-02-01&to=2026-03-31`, w.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`inline; filename="statement-${w.customer.code}-2026-03-31.pdf"`);
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('Statement of Account / Penyata Akaun');
    expect(text).toContain('陳大文貿易 Sdn. Bhd.');
    expect(text).toContain('No. 8, Jalan Ipoh');
    expect(text).toMatch(/Opening balance \/ Baki awal 379\.62/);
    expect(text).toMatch(/Closing balance \/ Baki akhir 405\.24/);

    // Open items (the default), for a Tamil customer.
    await t.db.update(customers).set({ legalName: 'முருகன் சுப்பிரமணியம் Enterprise' }).where(eq(customers.id, w.customer.id));
    const open = await get(`/v1/receivables/customers/${w.customer.id}/statement/pdf?to=2026-03-01`, w.token);
    expect(open.statusCode, open.body).toBe(200);
    const openText = await pdfText(open.rawPayload);
    expect(openText).toContain('முருகன் சுப்பிரமணியம் Enterprise');
    expect(openText).toMatch(/Overdue \/ Tertunggak 179\.62/);
    expect(openText).toMatch(/Closing balance \/ Baki akhir 505\.24/);

    // The query as the JSON statement takes it: 400 for a bad one, 422 for a rule; 404 elsewhere.
    expectProblem(await get(`/v1/receivables/customers/${w.customer.id}/statement/pdf?type=weekly`, w.token), 400);
    expectProblem(await get(`/v1/receivables/customers/${w.customer.id}/statement/pdf?to=2030-01-01`, w.token), 422, 'validation');
    expectProblem(await get(`/v1/receivables/customers/${(await createReceiptWorld(t)).customer.id}/statement/pdf`, w.token), 404);
  });

  it('the official receipt PDF lists what the receipt settled and what it left on account; receipt.read needed', async () => {
    const w = await createReceiptWorld(t);
    await setSeller(t.db, w.org.id);
    await t.db.update(customers).set({ legalName: '黄丽华 Trading' }).where(eq(customers.id, w.customer.id));
    const a = await issuedOn(w, '2026-01-10');
    const b = await issuedOn(w, '2026-01-12');
    on('2026-02-20');
    const r = (await post('/v1/receivables/receipts', w.receiptBody({ amount: '500.00', received_on: '2026-02-20', allocations: [{ invoice_id: a.id, amount: '379.62' }, { invoice_id: b.id, amount: '100.00' }] }), w.token)).json();
    const res = await get(`/v1/receivables/receipts/${r.id}/pdf`, w.token);
    expect(res.statusCode, res.body).toBe(200);
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('Official Receipt / Resit Rasmi');
    expect(text).toContain('黄丽华 Trading');
    expect(text).toContain(`Receipt No. / No. Resit: ${r.reference}`);
    expect(text).toContain('Amount received / Jumlah diterima (MYR): 500.00');
    expect(text).toContain(`${a.reference} 2026-01-10 379.62`);
    expect(text).toContain(`${b.reference} 2026-01-12 100.00`);
    // 500.00 − 379.62 − 100.00 = 20.38 left on account.
    expect(text).toContain('On account / Baki dalam akaun 20.38');

    const invoiceReader = await createTestMember(t.db, w.org.id, { role: 'owner', keyPermissions: ['receivables.invoice.read'] });
    expectProblem(await get(`/v1/receivables/receipts/${r.id}/pdf`, invoiceReader.apiKey), 403, 'forbidden');
    expectProblem(await get('/v1/receivables/receipts/not-a-uuid/pdf', w.token), 400);
    const other = await createReceiptWorld(t);
    expectProblem(await get(`/v1/receivables/receipts/${r.id}/pdf`, other.token), 404);
  });
});
