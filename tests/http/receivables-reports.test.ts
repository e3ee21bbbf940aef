import { afterEach, describe, expect, it } from 'vitest';
import { queryRows, sql } from '../../src/db/client';
import { createReceiptWorld, trpcHelpers, type ReceiptWorld } from '../factories/receipts';
import { createTestMember } from '../factories/organization';
import { issueTestDocument } from '../factories/receivables';
import { createCompanyGroup, mapCounterparty } from '../factories/setup';
import { useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';
import { expectProblem } from '../helpers/problem';

/**
 * Ageing and collection figures as at a day, to the sen. Every figure expected here is worked out
 * by hand in the comments from the documents' own amounts and dates; the clock is moved so that
 * documents are dated, receipts received and allocations reversed on the days the story needs.
 */
const t = useTestApp();
const { post, get } = httpHelpers(t);
const { call } = trpcHelpers(t);
const AGEING = '/v1/receivables/reports/ageing';
const FIGURES = '/v1/receivables/reports/figures';

/** Noon in Kuala Lumpur on `day`: the organization's today is `day`. */
const at = (day: string) => new Date(`${day}T04:00:00Z`);
const on = (day: string) => t.setNow(at(day));
afterEach(() => t.setNow(undefined));

/** Prepares and issues a document dated `day` (its invoice date is the day it is prepared). */
async function issuedOn(w: ReceiptWorld, day: string, over: Record<string, unknown> = {}) {
  on(day);
  const res = await post('/v1/receivables/invoices', w.body(over), w.token);
  expect(res.statusCode, res.body).toBe(201);
  await issueTestDocument(t.db, w.org.id, res.json().id, w.issuer.id, at(day));
  return (await get(`/v1/receivables/invoices/${res.json().id}`, w.token)).json();
}

const zero = { current: '0.00', days_1_30: '0.00', days_31_60: '0.00', days_61_90: '0.00', days_91_120: '0.00', over_120: '0.00' };
const ageing = async (w: ReceiptWorld, query: string) => {
  const res = await get(`${AGEING}?${query}`, w.token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('ageing as at a day', () => {
  it('an invoice issued, partly paid, the payment reversed: three days, three answers', async () => {
    const w = await createReceiptWorld(t);
    // 379.62 MYR dated 2026-01-10, due 2026-02-09 (30 days).
    const inv = await issuedOn(w, '2026-01-10');
    expect(inv).toMatchObject({ invoice_date: '2026-01-10', due_on: '2026-02-09', gross_amount: '379.62' });
    on('2026-02-20');
    const r = (await post('/v1/receivables/receipts', w.receiptBody({ amount: '200.00', received_on: '2026-02-20', allocations: [{ invoice_id: inv.id, amount: '200.00' }] }), w.token)).json();
    on('2026-03-15');
    const rev = await call('receivables.receipts.reverseAllocation', { allocation_id: r.allocations[0].id }, w.token);
    expect(rev.statusCode, rev.body).toBe(200);
    on('2026-05-01');
    const line = { customer_id: w.customer.id, code: w.customer.code, currency: 'MYR', is_group_company: false };

    // Before the invoice's date: nothing.
    expect(await ageing(w, 'as_of=2026-01-09')).toEqual({
      as_of: '2026-01-09',
      base_currency: 'MYR',
      edges: [30, 60, 90, 120],
      bucket_keys: ['current', 'days_1_30', 'days_31_60', 'days_61_90', 'days_91_120', 'over_120'],
      customers: [],
      totals_base: zero,
      total_base: '0.00',
    });
    // 2026-02-15: 6 days past due, nothing received yet: 379.62 in 1–30.
    const a = await ageing(w, 'as_of=2026-02-15');
    expect(a.customers).toEqual([{ ...line, legal_name: expect.any(String), buckets: { ...zero, days_1_30: '379.62' }, total: '379.62', total_base: '379.62' }]);
    expect(a.total_base).toBe('379.62');
    // 2026-03-01: 200.00 allocated on 2026-02-20: 379.62 − 200.00 = 179.62, 20 days past due.
    const b = await ageing(w, 'as_of=2026-03-01');
    expect(b.customers).toEqual([expect.objectContaining({ ...line, buckets: { ...zero, days_1_30: '179.62' }, total: '179.62', total_base: '179.62' })]);
    expect(b.total_base).toBe('179.62');
    // 2026-03-20: the allocation reversed on 2026-03-15: the invoice owes 379.62 again, 39 days past
    // due (31–60); the receipt's 200.00 is unallocated, a credit aged from 2026-02-20 (28 days).
    const c = await ageing(w, 'as_of=2026-03-20');
    expect(c.customers).toEqual([expect.objectContaining({ ...line, buckets: { ...zero, days_1_30: '-200.00', days_31_60: '379.62' }, total: '179.62', total_base: '179.62' })]);
    // Today's stored balances would give 379.62 owed for 2026-03-01: the past is rebuilt, not read.
    expect((await get(`/v1/receivables/invoices/${inv.id}`, w.token)).json()).toMatchObject({ outstanding: '379.62' });
  });

  it('a USD invoice partly paid: its line in USD, its base at the invoice rate; a credit note counts against the customer', async () => {
    const w = await createReceiptWorld(t);
    // 1000.00 USD at 4.4712 = 4471.20 MYR, dated 2026-04-01, due 2026-05-01.
    const usd = await issuedOn(w, '2026-04-01', { customer_id: w.usdCustomer.id, currency: 'USD', fx_rate: '4.4712', lines: [w.line({ quantity: '1', unit_price: '925.93', discount_amount: '0' })] });
    on('2026-04-10');
    await post('/v1/receivables/receipts', w.receiptBody({ customer_id: w.usdCustomer.id, amount: '400.00', currency: 'USD', fx_rate: '4.5', received_on: '2026-04-10', allocations: [{ invoice_id: usd.id, amount: '400.00' }] }), w.token);
    // A MYR invoice of 379.62 dated 2026-04-05 (due 2026-05-05) and a credit note of 54.00 against it dated 2026-04-20.
    const myr = await issuedOn(w, '2026-04-05');
    const note = await issuedOn(w, '2026-04-20', { kind: 'customer_credit_note', reason: 'Goods returned', original_invoice_id: myr.id, lines: [w.line({ quantity: '1', unit_price: '50.00', discount_amount: '0' })] });
    expect(note).toMatchObject({ gross_amount: '54.00', outstanding: '54.00' });
    on('2026-05-20');

    const report = await ageing(w, 'as_of=2026-05-20');
    const usdLine = report.customers.find((c: any) => c.customer_id === w.usdCustomer.id);
    // 1000.00 − 400.00 = 600.00 USD, 19 days past due; base 4471.20 − 400.00 × 4.4712 (1788.48) = 2682.72.
    expect(usdLine).toMatchObject({ currency: 'USD', buckets: { ...zero, days_1_30: '600.00' }, total: '600.00', total_base: '2682.72' });
    // 379.62 15 days past due; the credit note −54.00 aged from its date (30 days: 1–30).
    const myrLine = report.customers.find((c: any) => c.customer_id === w.customer.id);
    expect(myrLine).toMatchObject({ currency: 'MYR', buckets: { ...zero, days_1_30: '325.62' }, total: '325.62', total_base: '325.62' });
    // 2682.72 + 325.62 = 3008.34.
    expect(report.total_base).toBe('3008.34');

    // As at today the base total is Σ outstanding_base the documents store (credit notes less) less
    // what receipts have unallocated in base: checked against the rows themselves.
    const [stored] = await queryRows<{ total: string }>(
      t.db,
      sql`select (
          (select coalesce(sum(case when kind = 'customer_credit_note' then -outstanding_base else outstanding_base end), 0) from receivable_documents where organization_id = ${w.org.id} and issued_at is not null)
          - (select coalesce(sum(unallocated * fx_rate), 0) from receipts where organization_id = ${w.org.id})
        )::numeric(20,2)::text as total`,
    );
    expect(stored!.total).toBe('3008.34');
  });

  it("another organization's documents never appear", async () => {
    const w = await createReceiptWorld(t);
    const other = await createReceiptWorld(t);
    await issuedOn(other, '2026-04-01');
    await issuedOn(w, '2026-04-01');
    on('2026-04-02');
    const mine = await ageing(w, 'as_of=2026-04-02');
    expect(mine.customers.map((c: any) => c.customer_id)).toEqual([w.customer.id]);
    expect(mine.total_base).toBe('379.62');
    const theirs = await ageing(other, 'as_of=2026-04-02');
    expect(theirs.customers.map((c: any) => c.customer_id)).toEqual([other.customer.id]);
  });

  it('group companies separable: a flag per line, and group=only|none as mapped on as_of', async () => {
    const w = await createReceiptWorld(t);
    const sister = await createReceiptWorld(t);
    await createCompanyGroup(t.db, 'Reports group', [w.org.id, sister.org.id]);
    await mapCounterparty(t.db, { organizationId: w.org.id, customerId: w.usdCustomer.id, companyOrganizationId: sister.org.id, validFrom: '2026-05-01' });
    await issuedOn(w, '2026-04-01');
    await issuedOn(w, '2026-04-01', { customer_id: w.usdCustomer.id, currency: 'USD', fx_rate: '4.4712', lines: [w.line({ quantity: '1', unit_price: '925.93', discount_amount: '0' })] });
    on('2026-05-10');
    const all = await ageing(w, 'as_of=2026-05-10');
    expect(all.customers.map((c: any) => [c.customer_id, c.is_group_company])).toEqual(
      expect.arrayContaining([
        [w.customer.id, false],
        [w.usdCustomer.id, true],
      ]),
    );
    expect(all.total_base).toBe('4850.82'); // 379.62 + 4471.20
    const only = await ageing(w, 'as_of=2026-05-10&group=only');
    expect(only.customers.map((c: any) => c.customer_id)).toEqual([w.usdCustomer.id]);
    expect(only.total_base).toBe('4471.20');
    const none = await ageing(w, 'as_of=2026-05-10&group=none');
    expect(none.customers.map((c: any) => c.customer_id)).toEqual([w.customer.id]);
    expect(none.total_base).toBe('379.62');
    // Before the mapping began the USD customer was not a group company.
    const earlier = await ageing(w, 'as_of=2026-04-15&group=only');
    expect(earlier.customers).toEqual([]);
    expectProblem(await get(`${AGEING}?as_of=2026-05-10&group=some`, w.token), 400);
  });

  it('format=csv answers the same figures as text/csv; tRPC answers the object', async () => {
    const w = await createReceiptWorld(t);
    await issuedOn(w, '2026-04-01');
    on('2026-06-15');
    const res = await get(`${AGEING}?as_of=2026-06-15&format=csv`, w.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="ageing-2026-06-15.csv"');
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('customer_code,legal_name,is_group_company,currency,current,days_1_30,days_31_60,days_61_90,days_91_120,over_120,total,total_base,base_currency');
    // Due 2026-05-01: 45 days past due on 2026-06-15.
    expect(lines[1]).toMatch(new RegExp(`^${w.customer.code},.*,false,MYR,0\\.00,0\\.00,379\\.62,0\\.00,0\\.00,0\\.00,379\\.62,379\\.62,MYR$`));
    expect(lines[2]).toBe('TOTAL,,,,,,,,,,,379.62,MYR');
    const trpc = await get(`/trpc/receivables.reports.ageing?input=${encodeURIComponent(JSON.stringify({ as_of: '2026-06-15', format: 'csv' }))}`, w.token);
    expect(trpc.statusCode, trpc.body).toBe(200);
    expect(trpc.json().result.data).toMatchObject({ as_of: '2026-06-15', total_base: '379.62' });
  });

  it('a bad as_of is 400 naming it; a day after today is 422; a missing permission 403', async () => {
    const w = await createReceiptWorld(t);
    on('2026-06-15');
    for (const q of ['as_of=2026-13-01', 'as_of=15-06-2026', '']) {
      const p = expectProblem(await get(`${AGEING}?${q}`, w.token), 400);
      expect(p.errors).toEqual([expect.objectContaining({ pointer: '/query/as_of' })]);
    }
    const p = expectProblem(await get(`${AGEING}?as_of=2026-06-16`, w.token), 422, 'validation');
    expect(p.errors).toEqual([{ pointer: '/query/as_of', detail: "is after the organization's today (2026-06-15): a report is as at a day that has come" }]);
    const f = expectProblem(await get(`${FIGURES}?as_of=2026-06-16`, w.token), 422, 'validation');
    expect(f.errors).toEqual([expect.objectContaining({ pointer: '/query/as_of' })]);
    const g = expectProblem(await get(`${FIGURES}?as_of=2026-06-10&from=2026-06-11`, w.token), 422, 'validation');
    expect(g.errors).toEqual([{ pointer: '/query/from', detail: 'is after as_of' }]);
    const reader = await createTestMember(t.db, w.org.id, { role: 'owner', keyPermissions: ['receivables.receipt.read'] });
    expectProblem(await get(`${AGEING}?as_of=2026-06-15`, reader.apiKey), 403, 'forbidden');
    expectProblem(await get(`${FIGURES}?as_of=2026-06-15`, reader.apiKey), 403, 'forbidden');
  });
});

describe('collection figures', () => {
  it('the countback worked example of the README, to the sen', async () => {
    const w = await createReceiptWorld(t);
    // Three invoices, one per 30-day period before 2026-06-30, grossed up by SST 8%:
    // 2026-06-20 10,000.00 → 10,800.00; 2026-05-20 5,000.00 → 5,400.00; 2026-04-20 7,500.00 → 8,100.00.
    const one = (net: string) => ({ lines: [w.line({ quantity: '1', unit_price: net, discount_amount: '0' })] });
    const april = await issuedOn(w, '2026-04-20', one('7500.00'));
    await issuedOn(w, '2026-05-20', one('5000.00'));
    await issuedOn(w, '2026-06-20', one('10000.00'));
    // 6,075.00 received on 2026-06-25 for the April invoice: 24,300.00 − 6,075.00 = 18,225.00 owed.
    on('2026-06-25');
    const paid = await post('/v1/receivables/receipts', w.receiptBody({ amount: '6075.00', received_on: '2026-06-25', allocations: [{ invoice_id: april.id, amount: '6075.00' }] }), w.token);
    expect(paid.statusCode, paid.body).toBe(201);
    on('2026-07-01');
    const res = await get(`${FIGURES}?as_of=2026-06-30`, w.token);
    expect(res.statusCode, res.body).toBe(200);
    // Countback: 18,225.00 ≥ 10,800.00 → 30 days (7,425.00 left); ≥ 5,400.00 → 30 days (2,025.00
    // left); 2,025.00 / 8,100.00 × 30 = 7.50 days. DSO 67.50. Overdue: April's 2,025.00 (due
    // 2026-05-20) and May's 5,400.00 (due 2026-06-19) = 7,425.00; June's is not yet due.
    expect(res.json()).toEqual({
      as_of: '2026-06-30',
      base_currency: 'MYR',
      outstanding_base: '18225.00',
      credits_base: '0.00',
      overdue_base: '7425.00',
      collected: { from: '2026-04-02', to: '2026-06-30', amount_base: '6075.00' },
      dso: {
        days: '67.50',
        receivables_base: '18225.00',
        periods: [
          { from: '2026-06-01', to: '2026-06-30', sales_base: '10800.00', days_counted: '30.00' },
          { from: '2026-05-02', to: '2026-05-31', sales_base: '5400.00', days_counted: '30.00' },
          { from: '2026-04-02', to: '2026-05-01', sales_base: '8100.00', days_counted: '7.50' },
        ],
      },
    });
    // As at 2026-06-24 nothing was paid yet: 24,300.00 owed; collected in June alone is nothing.
    const before = (await get(`${FIGURES}?as_of=2026-06-24&from=2026-06-01`, w.token)).json();
    expect(before).toMatchObject({ outstanding_base: '24300.00', collected: { from: '2026-06-01', to: '2026-06-24', amount_base: '0.00' } });
  });
});
