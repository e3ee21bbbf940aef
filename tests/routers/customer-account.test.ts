import { describe, expect, it } from 'vitest';
import { appRouter } from '../../src/routers/app';
import { createInProcessContext } from '../../src/routers/context';
import { createCallerFactory } from '../../src/routers/trpc';
import { createTestCustomer } from '../factories/customer';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { createReceiptWorld, trpcHelpers, type ReceiptWorld } from '../factories/receipts';
import { issueTestDocument } from '../factories/receivables';
import { useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';

/**
 * A customer's account for the console: receivables.customers.openItems (issued documents with
 * something outstanding, oldest first, a keyset page), .balance (sums per currency) and
 * .einvoiceReadiness (the buyer part of the MyInvois preflight).
 */
const t = useTestApp();
const { post } = httpHelpers(t);
const { call } = trpcHelpers(t);

/** A document prepared over REST and issued on `day` (its invoice date). */
async function issuedOn(w: ReceiptWorld, day: string, over: Record<string, unknown> = {}) {
  const res = await post('/v1/receivables/invoices', w.body(over), w.token);
  expect(res.statusCode, res.body).toBe(201);
  await issueTestDocument(t.db, w.org.id, res.json().id, w.issuer.id, new Date(`${day}T04:00:00Z`));
  return res.json() as { id: string };
}

const callerFor = (apiKey: string) => createCallerFactory(appRouter)(createInProcessContext(t.deps, { authorization: `Bearer ${apiKey}` }));

describe('receivables.customers.openItems and .balance', () => {
  it('lists issued invoices, debit notes and credit notes with something outstanding, oldest first; sums them per currency', async () => {
    const w = await createReceiptWorld(t);
    const newer = await issuedOn(w, '2025-02-10');
    const older = await issuedOn(w, '2025-01-10');
    const paid = await issuedOn(w, '2025-01-01');
    const draft = await post('/v1/receivables/invoices', w.body(), w.token);
    expect(draft.statusCode).toBe(201);
    const note = await issuedOn(w, '2025-02-11', { kind: 'customer_credit_note', reason: 'Goods returned', original_invoice_id: newer.id, lines: [w.line({ quantity: '1', unit_price: '50.00', discount_amount: '0' })] });
    await w.usdInvoice();
    const receipt = await post('/v1/receivables/receipts', w.receiptBody({ amount: '400.00', allocations: [{ invoice_id: paid.id, amount: '379.62' }] }), w.token);
    expect(receipt.statusCode, receipt.body).toBe(201);

    const caller = callerFor(w.token);
    const all = await caller.receivables.customers.openItems({ id: w.customer.id });
    expect(all.documents.map((d) => [d.id, d.outstanding])).toEqual([
      [older.id, '379.62'],
      [newer.id, '379.62'],
      [note.id, '54.00'],
    ]);
    expect(all.next_cursor).toBeNull();
    const debit = await caller.receivables.customers.openItems({ id: w.customer.id, side: 'debit', currency: 'MYR', limit: 1 });
    expect(debit.documents.map((d) => d.id)).toEqual([older.id]);
    const next = await caller.receivables.customers.openItems({ id: w.customer.id, side: 'debit', currency: 'MYR', limit: 1, cursor: debit.next_cursor! });
    expect(next.documents.map((d) => d.id)).toEqual([newer.id]);
    expect(next.next_cursor).toBeNull();
    // A cursor of another filter is refused.
    await expect(caller.receivables.customers.openItems({ id: w.customer.id, side: 'credit', limit: 1, cursor: debit.next_cursor! })).rejects.toMatchObject({ code: 'UNPROCESSABLE_CONTENT' });

    expect(await caller.receivables.customers.balance({ id: w.customer.id })).toEqual({
      customer_id: w.customer.id,
      base_currency: 'MYR',
      currencies: [
        {
          currency: 'MYR',
          open_documents: '759.24',
          open_documents_count: 2,
          open_credit_notes: '54.00',
          open_credit_notes_count: 1,
          unallocated_receipts: '20.38',
          unallocated_receipts_count: 1,
          balance: '684.86',
        },
      ],
      outstanding_base: '705.24',
    });
    const usd = await caller.receivables.customers.balance({ id: w.usdCustomer.id });
    expect(usd.currencies).toEqual([expect.objectContaining({ currency: 'USD', open_documents: '1000.00', balance: '1000.00' })]);
    expect(usd.outstanding_base).toBe('4471.20');
  });

  it("another organization's customer is 404; reading documents needs receivables.invoice.read", async () => {
    const w = await createReceiptWorld(t);
    const other = await createTestOrganization(t.db);
    const stranger = await createTestCustomer(t.db, other.id);
    const caller = callerFor(w.token);
    await expect(caller.receivables.customers.openItems({ id: stranger.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(caller.receivables.customers.balance({ id: stranger.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(caller.receivables.customers.einvoiceReadiness({ id: stranger.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const reader = await createTestMember(t.db, w.org.id, { role: 'viewer', keyPermissions: ['receivables.customer.read'] });
    const narrow = callerFor(reader.apiKey);
    await expect(narrow.receivables.customers.balance({ id: w.customer.id })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect((await narrow.receivables.customers.einvoiceReadiness({ id: w.customer.id })).customer_id).toBe(w.customer.id);
  });
});

describe('receivables.customers.einvoiceReadiness', () => {
  it("answers the preflight's buyer problems until the customer's identity is complete", async () => {
    const w = await createReceiptWorld(t);
    const caller = callerFor(w.token);
    const before = await caller.receivables.customers.einvoiceReadiness({ id: w.customer.id });
    expect(before.ready).toBe(false);
    expect(before.problems.map((p) => p.code)).toEqual(expect.arrayContaining(['buyer_tin_missing', 'buyer_registration_missing', 'phone_not_e164', 'address_line_missing']));
    expect(before.problems.find((p) => p.code === 'buyer_tin_missing')).toMatchObject({ pointer: '/customer/tin' });

    const current = await caller.receivables.customers.get({ id: w.customer.id });
    const res = await call(
      'receivables.customers.update',
      { id: w.customer.id, tin: 'C11223344050', registration_type: 'brn', registration_no: '200801012345', phone: '+60312345678', address: { line1: '12 Jalan Ampang', city: 'Kuala Lumpur', state: '14' } },
      w.token,
      { 'if-match': `"${current.revision}"` },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(await caller.receivables.customers.einvoiceReadiness({ id: w.customer.id })).toEqual({ customer_id: w.customer.id, ready: true, problems: [] });
  });
});
