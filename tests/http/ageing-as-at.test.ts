import { afterEach, describe, expect, it } from 'vitest';
import { queryRows, sql } from '../../src/db/client';
import { Dec } from '../../src/lib/money';
import { createReceiptWorld, trpcHelpers, type ReceiptWorld } from '../factories/receipts';
import { issueTestDocument } from '../factories/receivables';
import { useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';
import { expectProblem } from '../helpers/problem';
import { historyOf } from '../helpers/settings';

/**
 * The ageing as at three days over one seeded history (issues, partial allocations, a reversal, a
 * credit note applied, a US dollar receipt at another rate than its invoice's, a receipt on account,
 * an invoice cancelled later), each day checked to the sen against a computation written here from
 * the facts as they were seeded: what each document and receipt had open on the day is its amount
 * less the allocations effective by then, aged from its due day (a credit note or a receipt from its
 * own date) into the buckets.
 */
const t = useTestApp();
const { post, get } = httpHelpers(t);
const { call } = trpcHelpers(t);
const AGEING = '/v1/receivables/reports/ageing';

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

// The independent computation ----------------------------------------------------------------

/** An open item as seeded: signed amount and base (credits negative), the day it is aged from, the day it counts from and, if so, until. */
interface Fact {
  customer: string;
  currency: string;
  amount: string;
  base: string;
  agedFrom: string;
  from: string;
  until?: string;
}
/** An allocation as seeded, against one item: what it takes off (positive), effective on a day. */
interface Settled {
  item: string;
  amount: string;
  base: string;
  effective: string;
}

const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

function bucketIndex(days: number, edges: number[]): number {
  const upper = [0, ...edges];
  const i = upper.findIndex((e) => days <= e);
  return i === -1 ? upper.length : i;
}

function expectedAgeing(facts: Record<string, Fact>, settled: Settled[], asOf: string, keys: string[], edges: number[]) {
  const lines = new Map<string, { customer: string; currency: string; buckets: Dec[]; total: Dec; base: Dec }>();
  const totals = keys.map(() => new Dec(0));
  let totalBase = new Dec(0);
  for (const [id, f] of Object.entries(facts)) {
    if (f.from > asOf || (f.until && f.until <= asOf)) continue;
    const sign = new Dec(f.amount).isNegative() ? -1 : 1;
    let amount = new Dec(f.amount);
    let base = new Dec(f.base);
    for (const s of settled.filter((x) => x.item === id && x.effective <= asOf)) {
      amount = amount.minus(new Dec(s.amount).times(sign));
      base = base.minus(new Dec(s.base).times(sign));
    }
    if (amount.isZero() && base.isZero()) continue;
    const b = bucketIndex(daysBetween(f.agedFrom, asOf), edges);
    const key = `${f.customer}/${f.currency}`;
    const line = lines.get(key) ?? { customer: f.customer, currency: f.currency, buckets: keys.map(() => new Dec(0)), total: new Dec(0), base: new Dec(0) };
    line.buckets[b] = line.buckets[b]!.plus(amount);
    line.total = line.total.plus(amount);
    line.base = line.base.plus(base);
    lines.set(key, line);
    totals[b] = totals[b]!.plus(base);
    totalBase = totalBase.plus(base);
  }
  return {
    lines: [...lines.values()].map((l) => ({
      customer_id: l.customer,
      currency: l.currency,
      buckets: Object.fromEntries(keys.map((k, i) => [k, l.buckets[i]!.toFixed(2)])),
      total: l.total.toFixed(2),
      total_base: l.base.toFixed(2),
    })),
    totals_base: Object.fromEntries(keys.map((k, i) => [k, totals[i]!.toFixed(2)])),
    total_base: totalBase.toFixed(2),
  };
}

const sortLines = (lines: { customer_id: string; currency: string }[]) => [...lines].sort((a, b) => `${a.customer_id}${a.currency}`.localeCompare(`${b.customer_id}${b.currency}`));

// The history ----------------------------------------------------------------------------------

async function seedHistory() {
  const w = await createReceiptWorld(t);
  const me = w.customer.id;
  const usd = w.usdCustomer.id;
  // Invoices of 379.62 MYR (30 days' terms), a credit note of 54.00 and one of 1000.00 USD at 4.4712.
  const a = await issuedOn(w, '2026-01-05');
  const b = await issuedOn(w, '2026-01-20');
  const u = await issuedOn(w, '2026-01-25', { customer_id: usd, currency: 'USD', fx_rate: '4.4712', lines: [w.line({ quantity: '1', unit_price: '925.93', discount_amount: '0' })] });
  expect([a.gross_amount, b.gross_amount, u.gross_amount, u.gross_base]).toEqual(['379.62', '379.62', '1000.00', '4471.20']);
  // 150.00 received on 2026-02-10 for A.
  on('2026-02-10');
  const r1 = await post('/v1/receivables/receipts', w.receiptBody({ amount: '150.00', received_on: '2026-02-10', allocations: [{ invoice_id: a.id, amount: '150.00' }] }), w.token);
  expect(r1.statusCode, r1.body).toBe(201);
  // A credit note of 54.00 against B on 2026-02-15, applied to B on 2026-02-20.
  const n = await issuedOn(w, '2026-02-15', { kind: 'customer_credit_note', reason: 'Goods returned', original_invoice_id: b.id, lines: [w.line({ quantity: '1', unit_price: '50.00', discount_amount: '0' })] });
  expect(n.gross_amount).toBe('54.00');
  on('2026-02-20');
  const applied = await call('receivables.receipts.applyCreditNote', { credit_note_id: n.id, invoice_id: b.id, amount: '54.00' }, w.token);
  expect(applied.statusCode, applied.body).toBe(200);
  // 600.00 USD received on 2026-03-01 at 4.50 (2700.00 MYR) for U: at U's rate 2682.72, 17.28 exchange difference.
  on('2026-03-01');
  const r2 = await post('/v1/receivables/receipts', w.receiptBody({ customer_id: usd, currency: 'USD', amount: '600.00', fx_rate: '4.5', received_on: '2026-03-01', allocations: [{ invoice_id: u.id, amount: '600.00' }] }), w.token);
  expect(r2.statusCode, r2.body).toBe(201);
  expect(r2.json().allocations[0]).toMatchObject({ amount: '600.00', base_amount: '2682.72' });
  // Invoice C issued on 2026-03-05, cancelled on 2026-03-20 (it owed until then).
  const c = await issuedOn(w, '2026-03-05');
  // The allocation of 2026-02-10 reversed on 2026-03-10: A owes 379.62 again, the 150.00 is on account.
  on('2026-03-10');
  const reversed = await call('receivables.receipts.reverseAllocation', { allocation_id: r1.json().allocations[0].id }, w.token);
  expect(reversed.statusCode, reversed.body).toBe(200);
  // 100.00 received on 2026-03-12, not allocated.
  on('2026-03-12');
  const r3 = await post('/v1/receivables/receipts', w.receiptBody({ amount: '100.00', received_on: '2026-03-12' }), w.token);
  expect(r3.statusCode, r3.body).toBe(201);
  on('2026-03-20');
  const cancel = await t.app.inject({
    method: 'POST',
    url: '/trpc/receivables.invoices.transition',
    headers: { authorization: `Bearer ${w.org.owner.session}`, 'content-type': 'application/json', 'if-match': `"${(await get(`/v1/receivables/invoices/${c.id}`, w.token)).json().revision}"` },
    payload: JSON.stringify({ id: c.id, action_key: 'cancel', reason: 'Issued in error' }),
  });
  expect(cancel.statusCode, cancel.body).toBe(200);

  const facts: Record<string, Fact> = {
    A: { customer: me, currency: 'MYR', amount: '379.62', base: '379.62', agedFrom: '2026-02-04', from: '2026-01-05' },
    B: { customer: me, currency: 'MYR', amount: '379.62', base: '379.62', agedFrom: '2026-02-19', from: '2026-01-20' },
    U: { customer: usd, currency: 'USD', amount: '1000.00', base: '4471.20', agedFrom: '2026-02-24', from: '2026-01-25' },
    N: { customer: me, currency: 'MYR', amount: '-54.00', base: '-54.00', agedFrom: '2026-02-15', from: '2026-02-15' },
    C: { customer: me, currency: 'MYR', amount: '379.62', base: '379.62', agedFrom: '2026-04-04', from: '2026-03-05', until: '2026-03-20' },
    R1: { customer: me, currency: 'MYR', amount: '-150.00', base: '-150.00', agedFrom: '2026-02-10', from: '2026-02-10' },
    R2: { customer: usd, currency: 'USD', amount: '-600.00', base: '-2700.00', agedFrom: '2026-03-01', from: '2026-03-01' },
    R3: { customer: me, currency: 'MYR', amount: '-100.00', base: '-100.00', agedFrom: '2026-03-12', from: '2026-03-12' },
  };
  const settled: Settled[] = [
    // R1 → A on 2026-02-10, reversed on 2026-03-10 (a negative allocation).
    { item: 'A', amount: '150.00', base: '150.00', effective: '2026-02-10' },
    { item: 'R1', amount: '150.00', base: '150.00', effective: '2026-02-10' },
    { item: 'A', amount: '-150.00', base: '-150.00', effective: '2026-03-10' },
    { item: 'R1', amount: '-150.00', base: '-150.00', effective: '2026-03-10' },
    // N → B on 2026-02-20.
    { item: 'B', amount: '54.00', base: '54.00', effective: '2026-02-20' },
    { item: 'N', amount: '54.00', base: '54.00', effective: '2026-02-20' },
    // R2 → U on 2026-03-01: U at its own rate (600.00 × 4.4712), the receipt at its (600.00 × 4.50).
    { item: 'U', amount: '600.00', base: '2682.72', effective: '2026-03-01' },
    { item: 'R2', amount: '600.00', base: '2700.00', effective: '2026-03-01' },
  ];
  on('2026-07-01');
  return { w, facts, settled };
}

describe('ageing as at three days over a seeded history, to the sen', () => {
  it('the change of state is dated on the document: the cancellation of C (state_changed_at), nothing for issuing, allocating or reversing', async () => {
    const { w } = await seedHistory();
    const rows = await queryRows<{ kind: string; state: string; unmarked: boolean; on_cancel: boolean | null }>(
      t.db,
      sql`select kind, state, state_changed_at is null as unmarked, state_changed_at = ${'2026-03-20T04:00:00Z'}::timestamptz as on_cancel
        from receivable_documents where organization_id = ${w.org.id} order by invoice_date`,
    );
    expect(rows.map((r) => [r.kind, r.state, r.unmarked, r.on_cancel])).toEqual([
      ['sales_invoice', 'issued', true, null],
      ['sales_invoice', 'issued', true, null],
      ['sales_invoice', 'issued', true, null],
      ['customer_credit_note', 'issued', true, null],
      ['sales_invoice', 'cancelled', false, true],
    ]);
    // As at the day before the cancellation C still owes (current: due 2026-04-04).
    const before = (await get(`${AGEING}?as_of=2026-03-19`, w.token)).json();
    expect(before.customers.find((c: any) => c.currency === 'MYR').buckets.current).toBe('379.62');
  });

  it('each day as the facts give it, in document currency and in base; the base total is the sum of what was open', async () => {
    const { w, facts, settled } = await seedHistory();
    const keys = ['current', 'days_1_30', 'days_31_60', 'days_61_90', 'days_91_120', 'over_120'];
    const edges = [30, 60, 90, 120];
    for (const asOf of ['2026-02-12', '2026-03-15', '2026-06-30']) {
      const report = (await get(`${AGEING}?as_of=${asOf}`, w.token)).json();
      const want = expectedAgeing(facts, settled, asOf, keys, edges);
      expect(sortLines(report.customers.map((c: any) => ({ customer_id: c.customer_id, currency: c.currency, buckets: c.buckets, total: c.total, total_base: c.total_base }))), asOf).toEqual(
        sortLines(want.lines),
      );
      expect(report.totals_base, asOf).toEqual(want.totals_base);
      expect(report.total_base, asOf).toBe(want.total_base);
    }
    // The figures by hand for one day, so that the computation above is itself checked. 2026-03-15:
    // A 379.62 (39 days past due: 31–60); B 379.62 − 54.00 = 325.62 (24 days: 1–30); C 379.62 (not
    // yet due); R1 −150.00 (33 days: 31–60); R3 −100.00 (3 days: 1–30); N applied in full; U 400.00
    // USD (19 days: 1–30), base 4471.20 − 2682.72 = 1788.48; R2 allocated in full.
    const mid = (await get(`${AGEING}?as_of=2026-03-15`, w.token)).json();
    expect(mid.customers.find((c: any) => c.currency === 'MYR')).toMatchObject({
      buckets: { current: '379.62', days_1_30: '225.62', days_31_60: '229.62', days_61_90: '0.00', days_91_120: '0.00', over_120: '0.00' },
      total: '834.86',
      total_base: '834.86',
    });
    expect(mid.customers.find((c: any) => c.currency === 'USD')).toMatchObject({ buckets: expect.objectContaining({ days_1_30: '400.00' }), total: '400.00', total_base: '1788.48' });
    expect(mid.total_base).toBe('2623.34');
    // 2026-06-30: C was cancelled on 2026-03-20 and owes nothing (nothing current); A (146 days),
    // B (131) and R1 (140) over 120: 379.62 + 325.62 − 150.00 = 555.24; R3 (110 days) −100.00.
    const late = (await get(`${AGEING}?as_of=2026-06-30`, w.token)).json();
    expect(late.customers.find((c: any) => c.currency === 'MYR')).toMatchObject({
      buckets: { current: '0.00', days_1_30: '0.00', days_31_60: '0.00', days_61_90: '0.00', days_91_120: '-100.00', over_120: '555.24' },
      total: '455.24',
    });
    // The figures as at 2026-03-15 (in base): outstanding A 379.62 + B 325.62 + C 379.62 + U 1788.48
    // = 2873.34; credits R1 150.00 + R3 100.00 = 250.00; overdue A, B and U = 2493.72; collected from
    // 2026-02-01: 150.00 + 2700.00 + 100.00 = 2950.00.
    const figures = (await get(`/v1/receivables/reports/figures?as_of=2026-03-15&from=2026-02-01`, w.token)).json();
    expect(figures).toMatchObject({
      outstanding_base: '2873.34',
      credits_base: '250.00',
      overdue_base: '2493.72',
      collected: { from: '2026-02-01', to: '2026-03-15', amount_base: '2950.00' },
      dso: { receivables_base: '2623.34' },
    });
    expect(figures.dso.receivables_base).toBe(mid.total_base);
  });

  it('edges the organization set: the same history in its buckets; refused edges name the one at fault; an API key may not change them', async () => {
    const { w, facts, settled } = await seedHistory();
    const session = w.org.owner.session;
    const setEdges = (edges: unknown, revision: number) =>
      t.app.inject({
        method: 'POST',
        url: '/trpc/settings.ageing.update',
        headers: { authorization: `Bearer ${session}`, 'content-type': 'application/json', 'if-match': `"${revision}"` },
        payload: JSON.stringify({ edges }),
      });
    const before = await get(`/trpc/settings.ageing.get`, w.token);
    expect(before.json().result.data).toEqual({ edges: [30, 60, 90, 120], bucket_keys: ['current', 'days_1_30', 'days_31_60', 'days_61_90', 'days_91_120', 'over_120'], revision: 1 });

    for (const [edges, pointer] of [
      [[30, 30], '/edges/1'],
      [[60, 30], '/edges/1'],
      [[0, 30], '/edges/0'],
      [[-5], '/edges/0'],
      [[], '/edges'],
      [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], '/edges'],
      [[4000], '/edges/0'],
    ] as const) {
      const res = await setEdges(edges, 1);
      expect(res.statusCode, `${JSON.stringify(edges)} ${res.body}`).toBe(422);
      expect(res.json().error.data.problem.errors).toEqual([expect.objectContaining({ pointer })]);
    }
    expect((await setEdges([7.5], 1)).statusCode).toBe(400);
    const byKey = await t.app.inject({
      method: 'POST',
      url: '/trpc/settings.ageing.update',
      headers: { authorization: `Bearer ${w.org.owner.apiKey}`, 'content-type': 'application/json', 'if-match': '"1"' },
      payload: JSON.stringify({ edges: [14, 45] }),
    });
    expect(byKey.statusCode, byKey.body).toBe(403);
    expect(byKey.json().error.data.problem.code).toBe('person_required');
    expect((await setEdges([14, 45], 7)).statusCode).toBe(409);

    const set = await setEdges([14, 45], 1);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().result.data).toEqual({ edges: [14, 45], bucket_keys: ['current', 'days_1_14', 'days_15_45', 'over_45'], revision: 2 });
    // Kept in the settings history; setting the same edges again writes nothing.
    expect((await setEdges([14, 45], 2)).json().result.data.revision).toBe(2);
    const history = await historyOf(t, session, 'ageingSettings', w.org.id);
    expect(history.map((h) => [h.action, h.before?.edges, h.after?.edges])).toEqual([['update', [30, 60, 90, 120], [14, 45]]]);
    const keys = ['current', 'days_1_14', 'days_15_45', 'over_45'];
    for (const asOf of ['2026-02-12', '2026-03-15', '2026-06-30']) {
      const report = (await get(`${AGEING}?as_of=${asOf}`, w.token)).json();
      expect(report.edges).toEqual([14, 45]);
      expect(report.bucket_keys).toEqual(keys);
      const want = expectedAgeing(facts, settled, asOf, keys, [14, 45]);
      expect(sortLines(report.customers.map((c: any) => ({ customer_id: c.customer_id, currency: c.currency, buckets: c.buckets, total: c.total, total_base: c.total_base }))), asOf).toEqual(
        sortLines(want.lines),
      );
      expect(report.total_base, asOf).toBe(want.total_base);
    }
    const csv = await get(`${AGEING}?as_of=2026-03-15&format=csv`, w.token);
    expect(csv.body.split('\r\n')[0]).toBe('customer_code,legal_name,is_group_company,currency,current,days_1_14,days_15_45,over_45,total,total_base,base_currency');
  });

  it('format=pdf answers a PDF of the report', async () => {
    const { w } = await seedHistory();
    const res = await get(`${AGEING}?as_of=2026-03-15&format=pdf`, w.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="ageing-2026-03-15.pdf"');
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(res.rawPayload.length).toBeGreaterThan(1000);
    expectProblem(await get(`${AGEING}?as_of=2026-03-15&format=xlsx`, w.token), 400);
  });
});
