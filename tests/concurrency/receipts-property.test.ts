import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { queryRows, sql } from '../../src/db/client';
import { Dec, formatAmount, roundAmount } from '../../src/lib/money';
import { createReceiptWorld, trpcHelpers, type ReceiptWorld } from '../factories/receipts';
import { onPostgres, useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';

/**
 * Balances after any sequence of allocations and reversals (docs/design.md §16), on PostgreSQL:
 * GET of each document, the invoice list and each receipt agree on every balance, and equal the sums
 * of the allocation rows; and concurrent allocations can never spend the same money twice.
 */
describe.skipIf(!onPostgres)('receipts and allocations on PostgreSQL', () => {
  const t = useTestApp();
  const { post, get } = httpHelpers(t);
  const { call } = trpcHelpers(t);

  interface Row {
    id: string;
    invoice_id: string;
    receipt_id: string | null;
    credit_note_id: string | null;
    amount: string;
    base_amount: string;
    exchange_difference: string;
    counts: boolean;
  }

  async function rowsOf(orgId: string) {
    return queryRows<Row>(
      t.db,
      sql`select id, invoice_id, receipt_id, credit_note_id, amount::text, base_amount::text, exchange_difference::text,
                 (reverses_id is null and reversed_by_id is null) as counts
          from allocations where organization_id = ${orgId}`,
    );
  }

  const sum = (xs: Row[], f: (r: Row) => string) => xs.filter((r) => r.counts).reduce((s, r) => s.plus(f(r)), new Dec(0));

  /** A USD world: three invoices at 4.4712, two credit notes at 4.4, receipts at 4.5 and 4.3. */
  async function world() {
    const w = await createReceiptWorld(t);
    const usd = { customer_id: w.usdCustomer.id, currency: 'USD' };
    const invoices = [
      await w.issued({ ...usd, fx_rate: '4.4712', lines: [w.line({ quantity: '1', unit_price: '925.93', discount_amount: '0' })] }),
      await w.issued({ ...usd, fx_rate: '4.4712', lines: [w.line({ quantity: '3', unit_price: '33.33', discount_amount: '0.01' })] }),
      await w.issued({ ...usd, fx_rate: '4.4712', lines: [w.line({ quantity: '7', unit_price: '61.17', discount_amount: '0' })] }),
    ];
    const notes = [
      await w.creditNote(invoices[0]!.id, '123.45', { ...usd, fx_rate: '4.4' }),
      await w.creditNote(invoices[2]!.id, '77.77', { ...usd, fx_rate: '4.4' }),
    ];
    const receipts = [];
    for (const [amount, rate] of [['800.00', '4.5'], ['333.33', '4.3'], ['150.01', '4.5']] as const) {
      const res = await post('/v1/receivables/receipts', w.receiptBody({ ...usd, amount, fx_rate: rate }), w.token);
      expect(res.statusCode, res.body).toBe(201);
      receipts.push(res.json());
    }
    return { w, invoices, notes, receipts };
  }

  async function checkAgreement(w: ReceiptWorld, docs: any[], receipts: any[]) {
    const rows = await rowsOf(w.org.id);
    const list = (await get('/v1/receivables/invoices?limit=100', w.token)).json().documents as any[];
    for (const d0 of docs) {
      const d = (await get(`/v1/receivables/invoices/${d0.id}`, w.token)).json();
      const isNote = d.kind === 'customer_credit_note';
      const mine = rows.filter((r) => (isNote ? r.credit_note_id === d.id : r.invoice_id === d.id));
      const expected = formatAmount(new Dec(d.gross_amount).minus(sum(mine, (r) => r.amount)), 'USD');
      const expectedBase = formatAmount(
        new Dec(d.gross_base).minus(sum(mine, (r) => (isNote ? new Dec(r.base_amount).plus(r.exchange_difference).toFixed() : r.base_amount))),
        'MYR',
      );
      expect(d.outstanding, d.id).toBe(expected);
      expect(d.outstanding_base, d.id).toBe(expectedBase);
      expect(new Dec(d.outstanding).gte(0)).toBe(true);
      // Settled in full: the base closes too, to the sen.
      if (d.outstanding === '0.00') expect(d.outstanding_base).toBe('0.00');
      expect(d.allocations).toHaveLength(mine.length);
      const listed = list.find((x) => x.id === d.id);
      expect(listed).toMatchObject({ outstanding: d.outstanding, outstanding_base: d.outstanding_base, revision: d.revision });
    }
    for (const r0 of receipts) {
      const r = (await get(`/v1/receivables/receipts/${r0.id}`, w.token)).json();
      const mine = rows.filter((x) => x.receipt_id === r.id);
      expect(r.allocated).toBe(formatAmount(sum(mine, (x) => x.amount), 'USD'));
      expect(r.unallocated).toBe(formatAmount(new Dec(r.amount).minus(r.allocated), 'USD'));
      expect(new Dec(r.unallocated).gte(0)).toBe(true);
      expect(r.allocations).toHaveLength(mine.length);
      const listed = (await get(`/v1/receivables/receipts?customer_id=${r.customer_id}&limit=100`, w.token)).json().receipts.find((x: any) => x.id === r.id);
      expect(listed).toEqual(r);
      // Spent in full: its allocations' base at the receipt's rate adds up to the receipt's own base.
      if (r.unallocated === '0.00') {
        const received = roundAmount(new Dec(r.amount).times(r.fx_rate), 'MYR');
        expect(formatAmount(sum(mine, (x) => new Dec(x.base_amount).plus(x.exchange_difference).toFixed()), 'MYR')).toBe(formatAmount(received, 'MYR'));
      }
    }
  }

  type Action =
    | { kind: 'allocate'; receipt: number; invoice: number; cents: number }
    | { kind: 'apply'; note: number; invoice: number; cents: number }
    | { kind: 'reverse'; pick: number };

  const action: fc.Arbitrary<Action> = fc.oneof(
    fc.record({ kind: fc.constant('allocate' as const), receipt: fc.nat(2), invoice: fc.nat(2), cents: fc.integer({ min: 1, max: 90_000 }) }),
    fc.record({ kind: fc.constant('apply' as const), note: fc.nat(1), invoice: fc.nat(2), cents: fc.integer({ min: 1, max: 15_000 }) }),
    fc.record({ kind: fc.constant('reverse' as const), pick: fc.nat(50) }),
  );

  it('GET of each document, the invoice list and each receipt agree with the allocation rows after any sequence', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 3, maxLength: 14 }), async (actions) => {
        const { w, invoices, notes, receipts } = await world();
        // The model: what each document and source has left, and which allocations still count.
        const left = new Map<string, Dec>([...invoices, ...notes].map((d) => [d.id, new Dec(d.outstanding)]));
        for (const r of receipts) left.set(r.id, new Dec(r.amount));
        const made: { id: string; from: string; to: string; amount: Dec; live: boolean; reversal: boolean }[] = [];
        for (const a of actions) {
          if (a.kind === 'reverse') {
            if (!made.length) continue;
            const m = made[a.pick % made.length]!;
            const res = await call('receivables.receipts.reverseAllocation', { allocation_id: m.id }, w.token);
            if (m.reversal || !m.live) {
              expect(res.statusCode, res.body).toBe(409);
              continue;
            }
            expect(res.statusCode, res.body).toBe(200);
            m.live = false;
            left.set(m.from, left.get(m.from)!.plus(m.amount));
            left.set(m.to, left.get(m.to)!.plus(m.amount));
            const reversal = (res.data.allocations as any[]).find((x) => x.reverses_id === m.id);
            made.push({ id: reversal.id, from: m.from, to: m.to, amount: m.amount.negated(), live: false, reversal: true });
            continue;
          }
          const from = a.kind === 'allocate' ? receipts[a.receipt]!.id : notes[a.note]!.id;
          const to = invoices[a.invoice]!.id;
          const amount = new Dec(a.cents).div(100);
          const fits = amount.lte(left.get(from)!) && amount.lte(left.get(to)!);
          const res =
            a.kind === 'allocate'
              ? await call('receivables.receipts.allocate', { receipt_id: from, allocations: [{ invoice_id: to, amount: amount.toFixed(2) }] }, w.token)
              : await call('receivables.receipts.applyCreditNote', { credit_note_id: from, invoice_id: to, amount: amount.toFixed(2) }, w.token);
          if (!fits) {
            expect(res.statusCode, res.body).toBe(422);
            continue;
          }
          expect(res.statusCode, res.body).toBe(200);
          left.set(from, left.get(from)!.minus(amount));
          left.set(to, left.get(to)!.minus(amount));
          const rows = await rowsOf(w.org.id);
          const fresh = rows.find((r) => !made.some((m) => m.id === r.id));
          made.push({ id: fresh!.id, from, to, amount, live: true, reversal: false });
        }
        await checkAgreement(w, [...invoices, ...notes], receipts);
        for (const d of [...invoices, ...notes]) {
          expect((await get(`/v1/receivables/invoices/${d.id}`, w.token)).json().outstanding).toBe(formatAmount(left.get(d.id)!, 'USD'));
        }
        for (const r of receipts) expect((await get(`/v1/receivables/receipts/${r.id}`, w.token)).json().unallocated).toBe(formatAmount(left.get(r.id)!, 'USD'));
      }),
      { numRuns: 12 },
    );
  }, 600_000);

  it('concurrent allocations of one receipt to two invoices that together exceed it: exactly one succeeds', async () => {
    const w = await createReceiptWorld(t);
    for (let round = 0; round < 8; round++) {
      const a = await w.invoice();
      const b = await w.invoice();
      const r = (await post('/v1/receivables/receipts', w.receiptBody({ amount: '500.00' }), w.token)).json();
      const answers = await Promise.all([
        call('receivables.receipts.allocate', { receipt_id: r.id, allocations: [{ invoice_id: a.id, amount: '300.00' }] }, w.token),
        call('receivables.receipts.allocate', { receipt_id: r.id, allocations: [{ invoice_id: b.id, amount: '300.00' }] }, w.token),
        post('/v1/receivables/receipts', w.receiptBody({ amount: '300.00' }), w.token),
      ]);
      const statuses = answers.slice(0, 2).map((x) => x.statusCode).sort();
      expect(statuses).toEqual([200, 422]);
      const after = (await get(`/v1/receivables/receipts/${r.id}`, w.token)).json();
      expect(after).toMatchObject({ allocated: '300.00', unallocated: '200.00' });
      expect(after.allocations).toHaveLength(1);
    }
  }, 300_000);

  it('concurrent allocations of two receipts to one invoice that together exceed it: exactly one succeeds; a crossed pair never deadlocks', async () => {
    const w = await createReceiptWorld(t);
    for (let round = 0; round < 5; round++) {
      const a = await w.invoice();
      const b = await w.invoice();
      const r1 = (await post('/v1/receivables/receipts', w.receiptBody({ amount: '1000.00' }), w.token)).json();
      const r2 = (await post('/v1/receivables/receipts', w.receiptBody({ amount: '1000.00' }), w.token)).json();
      // Both want 300 of invoice a (379.62): one succeeds. The crossed order of a and b never deadlocks.
      const answers = await Promise.all([
        call('receivables.receipts.allocate', { receipt_id: r1.id, allocations: [{ invoice_id: a.id, amount: '300.00' }, { invoice_id: b.id, amount: '10.00' }] }, w.token),
        call('receivables.receipts.allocate', { receipt_id: r2.id, allocations: [{ invoice_id: b.id, amount: '10.00' }, { invoice_id: a.id, amount: '300.00' }] }, w.token),
      ]);
      expect(answers.map((x) => x.statusCode).sort(), answers.map((x) => x.body).join('\n')).toEqual([200, 422]);
      const doc = (await get(`/v1/receivables/invoices/${a.id}`, w.token)).json();
      expect(doc).toMatchObject({ outstanding: '79.62', outstanding_base: '79.62' });
    }
  }, 300_000);
});
