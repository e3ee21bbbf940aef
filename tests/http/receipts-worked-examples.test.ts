import { describe, expect, it } from 'vitest';
import { queryRows, sql } from '../../src/db/client';
import { createReceiptWorld, trpcHelpers, type ReceiptWorld } from '../factories/receipts';
import { useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';
import { expectProblem } from '../helpers/problem';

/**
 * Issue 10's worked examples of receipts and allocations, to the sen (docs/design.md §4 and §16).
 * The USD invoice: 925.93 net + 74.07 service tax (8%) = 1000.00 USD at 4.4712; its base is
 * 4140.02 + 331.18 = 4471.20 MYR.
 */
const t = useTestApp();
const { post, get } = httpHelpers(t);
const { call } = trpcHelpers(t);
const URL = '/v1/receivables/receipts';

const doc = async (w: ReceiptWorld, id: string) => (await get(`/v1/receivables/invoices/${id}`, w.token)).json();
const receipt = async (w: ReceiptWorld, id: string) => (await get(`${URL}/${id}`, w.token)).json();

describe('worked examples: receipts and allocations', () => {
  it('a USD invoice at 4.4712 settled by a USD receipt at 4.5000: both balances 0.00, exchange gain 28.80 on the receipt', async () => {
    const w = await createReceiptWorld(t);
    const inv = await w.usdInvoice();
    expect(inv).toMatchObject({ currency: 'USD', fx_rate: '4.4712', gross_amount: '1000.00', gross_base: '4471.20', outstanding: '1000.00', outstanding_base: '4471.20' });
    const res = await post(
      URL,
      w.receiptBody({ customer_id: w.usdCustomer.id, amount: '1000.00', currency: 'USD', fx_rate: '4.5000', allocations: [{ invoice_id: inv.id, amount: '1000.00' }] }),
      w.token,
    );
    expect(res.statusCode, res.body).toBe(201);
    const r = res.json();
    expect(r).toMatchObject({ amount: '1000.00', currency: 'USD', fx_rate: '4.5', allocated: '1000.00', unallocated: '0.00' });
    // 1000.00 × 4.5000 = 4500.00 received; 1000.00 × 4.4712 = 4471.20 booked: a realized gain of 28.80 MYR.
    expect(r.allocations).toEqual([expect.objectContaining({ invoice_id: inv.id, amount: '1000.00', currency: 'USD', base_amount: '4471.20', exchange_difference: '28.80' })]);
    const after = await doc(w, inv.id);
    expect(after).toMatchObject({ outstanding: '0.00', outstanding_base: '0.00' });
    const listed = (await get(`/v1/receivables/invoices?outstanding=false`, w.token)).json().documents.find((d: any) => d.id === inv.id);
    expect(listed).toMatchObject({ outstanding: '0.00', outstanding_base: '0.00' });
  });

  it('a partial receipt, then the rest: rounding leaves both balances at exactly 0.00', async () => {
    const w = await createReceiptWorld(t);
    const inv = await w.usdInvoice();
    // 333.33 × 4.4712 = 1490.385096 → 1490.39 booked; 333.33 × 4.5 = 1499.985 → 1499.99 received (half away from zero).
    const first = (
      await post(URL, w.receiptBody({ customer_id: w.usdCustomer.id, amount: '333.33', fx_rate: '4.5', allocations: [{ invoice_id: inv.id, amount: '333.33' }] }), w.token)
    ).json();
    expect(first.allocations[0]).toMatchObject({ amount: '333.33', base_amount: '1490.39', exchange_difference: '9.60' });
    expect(await doc(w, inv.id)).toMatchObject({ outstanding: '666.67', outstanding_base: '2980.81' });
    // The last piece takes what is left of the base (2980.81), not 666.67 × 4.4712 = 2980.814904 rounded.
    // Received at 4.40: 666.67 × 4.4 = 2933.348 → 2933.35, a loss of 47.46.
    const second = (await post(URL, w.receiptBody({ customer_id: w.usdCustomer.id, amount: '700.00', fx_rate: '4.4' }), w.token)).json();
    const alloc = await call('receivables.receipts.allocate', { receipt_id: second.id, allocations: [{ invoice_id: inv.id, amount: '666.67' }] }, w.token);
    expect(alloc.statusCode, alloc.body).toBe(200);
    expect(alloc.data).toMatchObject({ allocated: '666.67', unallocated: '33.33' });
    expect(alloc.data.allocations[0]).toMatchObject({ amount: '666.67', base_amount: '2980.81', exchange_difference: '-47.46' });
    expect(await doc(w, inv.id)).toMatchObject({ outstanding: '0.00', outstanding_base: '0.00' });
  });

  it('a partial MYR receipt leaves the rest outstanding', async () => {
    const w = await createReceiptWorld(t);
    const inv = await w.invoice();
    const r = (await post(URL, w.receiptBody({ amount: '200.00', allocations: [{ invoice_id: inv.id, amount: '200.00' }] }), w.token)).json();
    expect(r).toMatchObject({ allocated: '200.00', unallocated: '0.00' });
    expect(r.allocations[0]).toMatchObject({ base_amount: '200.00', exchange_difference: '0.00' });
    expect(await doc(w, inv.id)).toMatchObject({ gross_amount: '379.62', outstanding: '179.62', outstanding_base: '179.62' });
  });

  it('a credit note applied to an invoice: the invoice owes less, the credit note has nothing left', async () => {
    const w = await createReceiptWorld(t);
    const inv = await w.invoice();
    const note = await w.creditNote(inv.id, '50.00');
    expect(note).toMatchObject({ gross_amount: '54.00', outstanding: '54.00' });
    const res = await call('receivables.receipts.applyCreditNote', { credit_note_id: note.id, invoice_id: inv.id, amount: '54.00' }, w.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data).toMatchObject({ id: inv.id, outstanding: '325.62', outstanding_base: '325.62' });
    const cn = await doc(w, note.id);
    expect(cn).toMatchObject({ outstanding: '0.00', outstanding_base: '0.00' });
    expect(cn.allocations).toEqual([expect.objectContaining({ source_kind: 'credit_note', credit_note_id: note.id, invoice_id: inv.id, amount: '54.00', base_amount: '54.00' })]);
    expect(cn.timeline.at(-1)).toMatchObject({ action_key: 'apply_credit_note', actor_member_id: w.org.owner.id });
  });

  it('an allocation reversed: both rows present, outstanding restored, receipt free again', async () => {
    const w = await createReceiptWorld(t);
    const inv = await w.usdInvoice();
    const r = (
      await post(URL, w.receiptBody({ customer_id: w.usdCustomer.id, amount: '400.00', fx_rate: '4.5', allocations: [{ invoice_id: inv.id, amount: '400.00' }] }), w.token)
    ).json();
    // 400 × 4.4712 = 1788.48 booked, 400 × 4.5 = 1800.00 received.
    expect(r.allocations[0]).toMatchObject({ base_amount: '1788.48', exchange_difference: '11.52' });
    expect(await doc(w, inv.id)).toMatchObject({ outstanding: '600.00', outstanding_base: '2682.72' });
    const rev = await call('receivables.receipts.reverseAllocation', { allocation_id: r.allocations[0].id, reason: 'Paid for another invoice' }, w.token);
    expect(rev.statusCode, rev.body).toBe(200);
    expect(rev.data).toMatchObject({ outstanding: '1000.00', outstanding_base: '4471.20' });
    expect(rev.data.allocations).toEqual([
      expect.objectContaining({ id: r.allocations[0].id, amount: '400.00', base_amount: '1788.48', reversed_by_id: expect.any(String), reverses_id: null }),
      expect.objectContaining({ amount: '-400.00', base_amount: '-1788.48', reverses_id: r.allocations[0].id, reversed_by_id: null }),
    ]);
    const after = await receipt(w, r.id);
    expect(after).toMatchObject({ allocated: '0.00', unallocated: '400.00' });
    expect(after.allocations.map((a: any) => a.exchange_difference)).toEqual(['11.52', '-11.52']);
  });

  it('a receipt over-allocated: 422 naming the allocation, nothing written', async () => {
    const w = await createReceiptWorld(t);
    const a = await w.invoice();
    const b = await w.invoice();
    const count = async () =>
      (await queryRows<{ n: number }>(t.db, sql`select ((select count(*) from receipts where organization_id = ${w.org.id}) + (select count(*) from allocations where organization_id = ${w.org.id}))::int as n`))[0]!.n;
    const before = await count();
    const res = await post(URL, w.receiptBody({ amount: '500.00', allocations: [{ invoice_id: a.id, amount: '379.62' }, { invoice_id: b.id, amount: '120.39' }] }), w.token);
    const p = expectProblem(res, 422, 'validation');
    expect(p.errors).toEqual([{ pointer: '/allocations/1/amount', detail: 'is more than the receipt has unallocated (120.38)' }]);
    expect(await count()).toBe(before);
    expect(await doc(w, a.id)).toMatchObject({ outstanding: '379.62', allocations: [] });
    expect(await doc(w, b.id)).toMatchObject({ outstanding: '379.62', allocations: [] });
  });
});
