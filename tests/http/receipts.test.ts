import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { queryRows, sql } from '../../src/db/client';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { createReceiptWorld, trpcHelpers, type ReceiptWorld } from '../factories/receipts';
import { useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';
import { expectProblem } from '../helpers/problem';

/**
 * Receipts (docs/design.md §16): POST /v1/receivables/receipts (optionally allocated at once),
 * GET /v1/receivables/receipts/{id}, GET /v1/receivables/receipts (keyset), and the tRPC operations
 * that spend money: receivables.receipts.allocate, applyCreditNote, reverseAllocation.
 */
const t = useTestApp();
const { post, get } = httpHelpers(t);
const { call } = trpcHelpers(t);
const URL = '/v1/receivables/receipts';

async function counts(orgId: string) {
  const [row] = await queryRows<{ receipts: number; allocations: number; timeline: number }>(
    t.db,
    sql`select (select count(*)::int from receipts where organization_id = ${orgId}) as receipts,
               (select count(*)::int from allocations where organization_id = ${orgId}) as allocations,
               (select count(*)::int from receivable_timeline where organization_id = ${orgId}) as timeline`,
  );
  return row!;
}

const doc = async (w: ReceiptWorld, id: string) => (await get(`/v1/receivables/invoices/${id}`, w.token)).json();

describe('POST /v1/receivables/receipts', () => {
  it('records a receipt without allocations: 201, Location, ETag, every field', async () => {
    const w = await createReceiptWorld(t);
    const res = await post(URL, w.receiptBody({ amount: '250.5', reference: 'OR-0001' }), w.token);
    expect(res.statusCode, res.body).toBe(201);
    const r = res.json();
    expect(res.headers.location).toBe(`${URL}/${r.id}`);
    expect(res.headers.etag).toBe('"1"');
    expect(r).toEqual({
      id: expect.any(String),
      customer_id: w.customer.id,
      amount: '250.50',
      currency: 'MYR',
      fx_rate: '1',
      received_on: '2025-03-01',
      method: 'bank_transfer',
      reference: 'OR-0001',
      created_at: expect.any(String),
      created_by: w.org.owner.id,
      revision: 1,
      allocated: '0.00',
      unallocated: '250.50',
      allocations: [],
    });
    const again = await get(`${URL}/${r.id}`, w.token);
    expect(again.statusCode).toBe(200);
    expect(again.headers.etag).toBe('"1"');
    expect(again.json()).toEqual(r);
  });

  it('allocates at once in the same transaction: balances, allocation rows and timeline entries', async () => {
    const w = await createReceiptWorld(t);
    const a = await w.invoice();
    const b = await w.invoice();
    const res = await post(
      URL,
      w.receiptBody({ amount: '500.00', method: 'duitnow', allocations: [{ invoice_id: a.id, amount: '379.62' }, { invoice_id: b.id, amount: '100' }] }),
      w.token,
    );
    expect(res.statusCode, res.body).toBe(201);
    const r = res.json();
    expect(r).toMatchObject({ amount: '500.00', allocated: '479.62', unallocated: '20.38', revision: 1 });
    expect(res.headers.etag).toBe('"1"');
    // Rows written in one request share created_at: oldest first, then by id.
    const mine = (id: string) => r.allocations.find((x: any) => x.invoice_id === id);
    expect(r.allocations).toHaveLength(2);
    expect([mine(a.id), mine(b.id)]).toEqual([
      expect.objectContaining({ invoice_id: a.id, amount: '379.62', base_amount: '379.62', exchange_difference: '0.00', source_kind: 'receipt', receipt_id: r.id, credit_note_id: null, reverses_id: null, reversed_by_id: null, effective_on: '2025-03-01', currency: 'MYR', created_by: w.org.owner.id }),
      expect.objectContaining({ invoice_id: b.id, amount: '100.00', base_amount: '100.00', exchange_difference: '0.00' }),
    ]);
    const da = await doc(w, a.id);
    expect(da).toMatchObject({ outstanding: '0.00', outstanding_base: '0.00', revision: a.revision });
    expect(da.allocations).toEqual([expect.objectContaining({ id: mine(a.id).id, amount: '379.62', receipt_id: r.id })]);
    expect(da.timeline.at(-1)).toMatchObject({ action_key: 'allocate', actor_member_id: w.org.owner.id, from: 'issued', to: 'issued' });
    expect(await doc(w, b.id)).toMatchObject({ outstanding: '279.62', outstanding_base: '279.62' });
  });

  it('in a foreign currency: fx_rate required, base at the receipt rate, exchange difference per allocation', async () => {
    const w = await createReceiptWorld(t);
    const missing = await post(URL, w.receiptBody({ customer_id: w.usdCustomer.id }), w.token);
    expect(expectProblem(missing, 422, 'validation').errors).toEqual([{ pointer: '/fx_rate', detail: expect.stringMatching(/required/) }]);
    const onBase = await post(URL, w.receiptBody({ fx_rate: '4.5' }), w.token);
    expect(expectProblem(onBase, 422, 'validation').errors).toEqual([{ pointer: '/fx_rate', detail: expect.stringMatching(/must be 1/) }]);
    const ok = await post(URL, w.receiptBody({ customer_id: w.usdCustomer.id, fx_rate: '4.50000' }), w.token);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({ currency: 'USD', fx_rate: '4.5', amount: '100.00' });
  });

  it('session callers need no Idempotency-Key; API keys do (422 idempotency_key_required)', async () => {
    const w = await createReceiptWorld(t);
    const bySession = await post(URL, w.receiptBody(), w.org.owner.session, { 'idempotency-key': '' });
    expect(bySession.statusCode, bySession.body).toBe(201);
    const byKey = await post(URL, w.receiptBody(), w.token, { 'idempotency-key': '' });
    expectProblem(byKey, 422, 'idempotency_key_required');
  });

  it('replays an idempotent retry: same answer, Idempotent-Replayed, one receipt and one allocation', async () => {
    const w = await createReceiptWorld(t);
    const a = await w.invoice();
    const body = w.receiptBody({ allocations: [{ invoice_id: a.id, amount: '100.00' }] });
    const key = randomUUID();
    const first = await post(URL, body, w.token, { 'idempotency-key': key });
    expect(first.statusCode, first.body).toBe(201);
    const before = await counts(w.org.id);
    const second = await post(URL, body, w.token, { 'idempotency-key': key });
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.headers.location).toBe(first.headers.location);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.json()).toEqual(first.json());
    expect(await counts(w.org.id)).toEqual(before);
    expect(before.receipts).toBe(1);
    expect(before.allocations).toBe(1);
    const other = await post(URL, { ...body, amount: '101.00' }, w.token, { 'idempotency-key': key });
    expectProblem(other, 409, 'idempotency_key_reused');
  });

  describe('refusals', () => {
    it('an unknown field, at the top or in an allocation, is 400', async () => {
      const w = await createReceiptWorld(t);
      const a = await w.invoice();
      expectProblem(await post(URL, { ...w.receiptBody(), note: 'x' }, w.token), 400);
      expectProblem(await post(URL, w.receiptBody({ allocations: [{ invoice_id: a.id, amount: '1.00', memo: 'x' }] }), w.token), 400);
      expect((await counts(w.org.id)).receipts).toBe(0);
    });

    it('a wrong type is 400 naming the field', async () => {
      const w = await createReceiptWorld(t);
      for (const [field, value] of [
        ['amount', 100],
        ['amount', '1e3'],
        ['method', 'wire'],
        ['received_on', '2025-02-30x'],
        ['customer_id', 'not-a-uuid'],
        ['reference', 12],
        ['allocations', {}],
      ] as const) {
        const res = await post(URL, w.receiptBody({ [field]: value }), w.token);
        const p = expectProblem(res, 400);
        expect(p.detail).toContain(field);
      }
      expect((await counts(w.org.id)).receipts).toBe(0);
    });

    it('blank and over-long text, and bad amounts and dates, are 422 naming every field', async () => {
      const w = await createReceiptWorld(t);
      const blank = await post(URL, w.receiptBody({ reference: '   ' }), w.token);
      expect(expectProblem(blank, 422, 'validation').errors).toEqual([{ pointer: '/reference', detail: 'must not be blank' }]);
      const long = await post(URL, w.receiptBody({ reference: 'R'.repeat(101) }), w.token);
      expect(expectProblem(long, 422, 'validation').errors?.map((e) => e.pointer)).toEqual(['/reference']);
      const many = await post(URL, w.receiptBody({ amount: '10.005', currency: 'XYZ', received_on: '2999-01-01' }), w.token);
      expect(expectProblem(many, 422, 'validation').errors?.map((e) => e.pointer).sort()).toEqual(['/currency', '/received_on']);
      for (const amount of ['10.005', '0', '0.00', '-5.00']) {
        const res = await post(URL, w.receiptBody({ amount }), w.token);
        expect(expectProblem(res, 422, 'validation').errors?.map((e) => e.pointer)).toEqual(['/amount']);
      }
      expect((await counts(w.org.id)).receipts).toBe(0);
    });

    it("another organization's customer is 422 at /customer_id; another organization's receipt is 404", async () => {
      const w = await createReceiptWorld(t);
      const other = await createReceiptWorld(t);
      const res = await post(URL, w.receiptBody({ customer_id: other.customer.id }), w.token);
      expect(expectProblem(res, 422, 'validation').errors).toEqual([{ pointer: '/customer_id', detail: expect.any(String) }]);
      const theirs = (await post(URL, other.receiptBody(), other.token)).json();
      expectProblem(await get(`${URL}/${theirs.id}`, w.token), 404, 'not_found');
      expectProblem(await get(`${URL}/${randomUUID()}`, w.token), 404, 'not_found');
      const inv = await w.invoice();
      const alloc = await call('receivables.receipts.allocate', { receipt_id: theirs.id, allocations: [{ invoice_id: inv.id, amount: '1.00' }] }, w.token);
      expect(alloc.statusCode).toBe(404);
      expect(alloc.problem.code).toBe('not_found');
      // Their invoice is no document of ours: 422 at the allocation, and their invoice is untouched.
      const theirInvoice = await other.invoice();
      const onTheirs = await post(URL, w.receiptBody({ allocations: [{ invoice_id: theirInvoice.id, amount: '1.00' }] }), w.token);
      expect(expectProblem(onTheirs, 422, 'validation').errors).toEqual([{ pointer: '/allocations/0/invoice_id', detail: expect.stringMatching(/no invoice or debit note/) }]);
      expect((await get(`/v1/receivables/invoices/${theirInvoice.id}`, other.token)).json()).toMatchObject({ outstanding: '379.62', allocations: [] });
    });

    it('without the permission: 403 (a viewer reads but cannot record; an employee does neither)', async () => {
      const w = await createReceiptWorld(t);
      const mine = (await post(URL, w.receiptBody(), w.token)).json();
      const viewer = await createTestMember(t.db, w.org.id, { role: 'viewer' });
      const employee = await createTestMember(t.db, w.org.id, { role: 'employee' });
      expectProblem(await post(URL, w.receiptBody(), viewer.apiKey), 403);
      expect((await get(`${URL}/${mine.id}`, viewer.apiKey)).statusCode).toBe(200);
      expect((await get(URL, viewer.apiKey)).statusCode).toBe(200);
      expectProblem(await get(`${URL}/${mine.id}`, employee.apiKey), 403);
      expectProblem(await get(URL, employee.apiKey), 403);
      expectProblem(await post(URL, w.receiptBody(), employee.session), 403);
      const inv = await w.invoice();
      const alloc = await call('receivables.receipts.allocate', { receipt_id: mine.id, allocations: [{ invoice_id: inv.id, amount: '1.00' }] }, viewer.apiKey);
      expect(alloc.statusCode).toBe(403);
      expectProblem(await post(URL, w.receiptBody(), 'fk_nope_nope'), 401);
    });

    it('over-allocation is 422 naming the allocation, and nothing is written', async () => {
      const w = await createReceiptWorld(t);
      const a = await w.invoice();
      const b = await w.invoice();
      const before = await counts(w.org.id);
      const overReceipt = await post(URL, w.receiptBody({ amount: '100.00', allocations: [{ invoice_id: a.id, amount: '60.00' }, { invoice_id: b.id, amount: '50.00' }] }), w.token);
      expect(expectProblem(overReceipt, 422, 'validation').errors).toEqual([{ pointer: '/allocations/1/amount', detail: expect.stringMatching(/unallocated \(40\.00\)/) }]);
      const overDoc = await post(URL, w.receiptBody({ amount: '1000.00', allocations: [{ invoice_id: a.id, amount: '300.00' }, { invoice_id: a.id, amount: '79.63' }] }), w.token);
      expect(expectProblem(overDoc, 422, 'validation').errors).toEqual([{ pointer: '/allocations/1/amount', detail: expect.stringMatching(/outstanding \(79\.62\)/) }]);
      const badItems = await post(
        URL,
        w.receiptBody({ amount: '1000.00', allocations: [{ invoice_id: randomUUID(), amount: '1.00' }, { invoice_id: a.id, amount: '1.001' }, { invoice_id: b.id, amount: '0' }] }),
        w.token,
      );
      expect(expectProblem(badItems, 422, 'validation').errors?.map((e) => e.pointer)).toEqual(['/allocations/0/invoice_id', '/allocations/1/amount', '/allocations/2/amount']);
      expect(await counts(w.org.id)).toEqual(before);
      expect(await doc(w, a.id)).toMatchObject({ outstanding: '379.62', allocations: [] });
    });

    it('an invoice id in upper case allocates as its lower-case form does (found by the fuzz suite: was a 500)', async () => {
      const w = await createReceiptWorld(t);
      const a = await w.invoice();
      const res = await post(URL, w.receiptBody({ amount: '100.00', allocations: [{ invoice_id: a.id.toUpperCase(), amount: '60.00' }] }), w.token);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ allocated: '60.00', unallocated: '40.00' });
      const receipt = (await post(URL, w.receiptBody({ amount: '10.00' }), w.token)).json();
      const alloc = await call('receivables.receipts.allocate', { receipt_id: receipt.id, allocations: [{ invoice_id: a.id.toUpperCase(), amount: '5.00' }, { invoice_id: a.id, amount: '1.00' }] }, w.token);
      expect(alloc.statusCode, alloc.body).toBe(200);
      expect(await doc(w, a.id)).toMatchObject({ outstanding: '313.62' });
    });

    it("refuses drafts, credit notes, another customer's and another currency's documents", async () => {
      const w = await createReceiptWorld(t);
      const inv = await w.invoice();
      const draft = (await post('/v1/receivables/invoices', w.body(), w.token)).json();
      const note = await w.creditNote(inv.id);
      const usd = await w.usdInvoice();
      const res = await post(
        URL,
        w.receiptBody({ amount: '1000.00', allocations: [{ invoice_id: draft.id, amount: '1.00' }, { invoice_id: note.id, amount: '1.00' }, { invoice_id: usd.id, amount: '1.00' }] }),
        w.token,
      );
      const p = expectProblem(res, 422, 'validation');
      expect(p.errors).toEqual([
        { pointer: '/allocations/0/invoice_id', detail: expect.stringMatching(/draft/) },
        { pointer: '/allocations/1/invoice_id', detail: expect.stringMatching(/no invoice or debit note/) },
        { pointer: '/allocations/2/invoice_id', detail: expect.stringMatching(/another customer/) },
      ]);
      const usdReceipt = await post(URL, w.receiptBody({ customer_id: w.usdCustomer.id, currency: 'MYR', allocations: [{ invoice_id: usd.id, amount: '1.00' }] }), w.token);
      expect(expectProblem(usdReceipt, 422).errors).toEqual([{ pointer: '/allocations/0/invoice_id', detail: 'the document is in USD, not MYR' }]);
    });
  });
});

describe('GET /v1/receivables/receipts', () => {
  async function listWorld() {
    const w = await createReceiptWorld(t);
    const other = await createTestOrganization(t.db);
    const inv = await w.invoice();
    const made: any[] = [];
    const days = ['2025-01-05', '2025-01-05', '2025-02-10', '2025-02-11', '2025-03-01', '2025-03-01', '2025-03-02'];
    for (const [i, day] of days.entries()) {
      const body = w.receiptBody({ received_on: day, amount: '10.00', ...(i === 2 ? { customer_id: w.usdCustomer.id, fx_rate: '4.4' } : {}) });
      if (i === 4) Object.assign(body, { allocations: [{ invoice_id: inv.id, amount: '10.00' }] });
      const res = await post(URL, body, w.token);
      expect(res.statusCode, res.body).toBe(201);
      made.push(res.json());
    }
    return { w, other, made, inv };
  }
  let shared: ReturnType<typeof listWorld> | undefined;
  const world = () => (shared ??= listWorld());

  async function walk(token: string, params: Record<string, string>, limit: number) {
    const out: any[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 50; pages++) {
      const q = new URLSearchParams({ ...params, limit: String(limit), ...(cursor ? { cursor } : {}) });
      const res = await get(`${URL}?${q}`, token);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      out.push(...body.receipts);
      if (!body.next_cursor) return out;
      expect(body.receipts).toHaveLength(limit);
      cursor = body.next_cursor;
    }
    throw new Error('too many pages');
  }

  const byKey = (key: 'received_on' | 'created_at', order: 'asc' | 'desc') => (x: any, y: any) => {
    const c = x[key] < y[key] ? -1 : x[key] > y[key] ? 1 : x.id < y.id ? -1 : x.id > y.id ? 1 : 0;
    return order === 'asc' ? c : -c;
  };

  for (const sort of ['received_on', 'created_at'] as const) {
    for (const order of ['asc', 'desc'] as const) {
      it(`walks every page by ${sort} ${order}, each receipt once, ties by id`, async () => {
        const { w, made } = await world();
        const items = await walk(w.token, { sort, order }, 2);
        expect(items.map((r) => r.id)).toEqual([...made].sort(byKey(sort, order)).map((r) => r.id));
      });
    }
  }

  it('by default: received_on descending, items equal to GET', async () => {
    const { w, made } = await world();
    const body = (await get(URL, w.token)).json();
    expect(body.next_cursor).toBeNull();
    expect(body.receipts.map((r: any) => r.id)).toEqual([...made].sort(byKey('received_on', 'desc')).map((r) => r.id));
    for (const r of body.receipts) expect(r).toEqual((await get(`${URL}/${r.id}`, w.token)).json());
  });

  it('filters: customer_id, received_from / received_to (inclusive), unallocated', async () => {
    const { w, made } = await world();
    const ids = async (params: Record<string, string>) => (await walk(w.token, params, 3)).map((r) => r.id).sort();
    expect(await ids({ customer_id: w.usdCustomer.id })).toEqual([made[2].id]);
    expect(await ids({ received_from: '2025-02-10', received_to: '2025-03-01' })).toEqual([made[2].id, made[3].id, made[4].id, made[5].id].sort());
    expect(await ids({ unallocated: 'false' })).toEqual([made[4].id]);
    expect(await ids({ unallocated: 'true', customer_id: w.customer.id, received_to: '2025-01-31' })).toEqual([made[0].id, made[1].id].sort());
  });

  it("another organization's list is empty of these receipts", async () => {
    const { other } = await world();
    const body = (await get(URL, other.owner.apiKey)).json();
    expect(body).toEqual({ receipts: [], next_cursor: null });
  });

  it('cursor refusals: other filters, sort or order is 422 at /query/cursor; a forged one is 400; bad params are 400', async () => {
    const { w } = await world();
    const first = (await get(`${URL}?limit=2&unallocated=true`, w.token)).json();
    expect(first.next_cursor).toEqual(expect.any(String));
    for (const q of ['unallocated=false', 'unallocated=true&sort=created_at', 'unallocated=true&order=asc', `unallocated=true&customer_id=${w.customer.id}`]) {
      const res = await get(`${URL}?${q}&cursor=${encodeURIComponent(first.next_cursor)}`, w.token);
      expect(expectProblem(res, 422, 'validation').errors).toEqual([{ pointer: '/query/cursor', detail: expect.any(String) }]);
    }
    // The limit is not bound: a cursor goes on with another page size.
    expect((await get(`${URL}?limit=5&unallocated=true&cursor=${encodeURIComponent(first.next_cursor)}`, w.token)).statusCode).toBe(200);
    expectProblem(await get(`${URL}?cursor=${encodeURIComponent(first.next_cursor.slice(0, -2) + 'xx')}&unallocated=true`, w.token), 400);
    for (const q of ['limit=0', 'limit=101', 'sort=amount', 'unallocated=yes', 'received_from=2025-1-1', 'customer_id=nope', 'colour=red']) {
      expectProblem(await get(`${URL}?${q}`, w.token), 400);
    }
    const backwards = await get(`${URL}?received_from=2025-03-01&received_to=2025-02-01`, w.token);
    expect(expectProblem(backwards, 422, 'validation').errors).toEqual([{ pointer: '/query/received_to', detail: expect.any(String) }]);
  });
});

describe('tRPC receivables.receipts.allocate / applyCreditNote / reverseAllocation', () => {
  it('allocate spends the remainder, by session or key; answers the receipt with its new revision', async () => {
    const w = await createReceiptWorld(t);
    const a = await w.invoice();
    const b = await w.invoice();
    const r = (await post(URL, w.receiptBody({ amount: '400.00' }), w.token)).json();
    const first = await call('receivables.receipts.allocate', { receipt_id: r.id, allocations: [{ invoice_id: a.id, amount: '300.00' }] }, w.org.owner.session, { 'idempotency-key': '' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.data).toMatchObject({ id: r.id, allocated: '300.00', unallocated: '100.00', revision: 2 });
    expect(first.headers.etag).toBe('"2"');
    const over = await call('receivables.receipts.allocate', { receipt_id: r.id, allocations: [{ invoice_id: b.id, amount: '100.01' }] }, w.token);
    expect(over.statusCode).toBe(422);
    expect(over.problem.errors).toEqual([{ pointer: '/allocations/0/amount', detail: expect.stringMatching(/unallocated \(100\.00\)/) }]);
    const rest = await call('receivables.receipts.allocate', { receipt_id: r.id, allocations: [{ invoice_id: b.id, amount: '100.00' }] }, w.token);
    expect(rest.data).toMatchObject({ unallocated: '0.00', allocated: '400.00', revision: 3 });
    expect((await get(`${URL}/${r.id}`, w.token)).json()).toEqual(rest.data);
    // Shape refusals.
    expect((await call('receivables.receipts.allocate', { receipt_id: r.id, allocations: [] }, w.token)).statusCode).toBe(422);
    expect((await call('receivables.receipts.allocate', { receipt_id: r.id, allocations: [{ invoice_id: b.id, amount: '1' }], x: 1 }, w.token)).statusCode).toBe(400);
    expect((await call('receivables.receipts.allocate', { receipt_id: r.id }, w.token)).statusCode).toBe(400);
  });

  it('applyCreditNote applies an issued credit note to an invoice; answers the invoice; never more than either has left', async () => {
    const w = await createReceiptWorld(t);
    const inv = await w.invoice();
    const note = await w.creditNote(inv.id);
    expect(note.gross_amount).toBe('54.00');
    const tooMuch = await call('receivables.receipts.applyCreditNote', { credit_note_id: note.id, invoice_id: inv.id, amount: '54.01' }, w.token);
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.problem.errors).toEqual([{ pointer: '/amount', detail: expect.stringMatching(/credit note has outstanding \(54\.00\)/) }]);
    const res = await call('receivables.receipts.applyCreditNote', { credit_note_id: note.id, invoice_id: inv.id, amount: '54.00' }, w.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data).toMatchObject({ id: inv.id, outstanding: '325.62', outstanding_base: '325.62' });
    expect(res.data.allocations).toEqual([expect.objectContaining({ source_kind: 'credit_note', credit_note_id: note.id, receipt_id: null, amount: '54.00' })]);
    expect(await doc(w, note.id)).toMatchObject({ outstanding: '0.00', outstanding_base: '0.00' });
    const again = await call('receivables.receipts.applyCreditNote', { credit_note_id: note.id, invoice_id: inv.id, amount: '0.01' }, w.token);
    expect(again.statusCode).toBe(422);
    // A credit note of another organization is 404; an invoice that is a credit note is 422.
    const other = await createReceiptWorld(t);
    const theirs = await other.creditNote((await other.invoice()).id);
    expect((await call('receivables.receipts.applyCreditNote', { credit_note_id: theirs.id, invoice_id: inv.id, amount: '1.00' }, w.token)).statusCode).toBe(404);
    const inv2 = await w.invoice();
    const note2 = await w.creditNote(inv2.id);
    const onNote = await call('receivables.receipts.applyCreditNote', { credit_note_id: note2.id, invoice_id: note.id, amount: '1.00' }, w.token);
    expect(onNote.problem.errors).toEqual([{ pointer: '/invoice_id', detail: expect.any(String) }]);
  });

  it('reverseAllocation writes a reversal, restores outstanding and the receipt; a second reversal is 409', async () => {
    const w = await createReceiptWorld(t);
    const inv = await w.invoice();
    const r = (await post(URL, w.receiptBody({ amount: '379.62', allocations: [{ invoice_id: inv.id, amount: '379.62' }] }), w.token)).json();
    const allocationId = r.allocations[0].id;
    const blank = await call('receivables.receipts.reverseAllocation', { allocation_id: allocationId, reason: '  ' }, w.token);
    expect(blank.statusCode).toBe(422);
    expect(blank.problem.errors).toEqual([{ pointer: '/reason', detail: 'must not be blank' }]);
    const long = await call('receivables.receipts.reverseAllocation', { allocation_id: allocationId, reason: 'x'.repeat(501) }, w.token);
    expect(long.statusCode).toBe(422);
    const res = await call('receivables.receipts.reverseAllocation', { allocation_id: allocationId, reason: 'Wrong invoice' }, w.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data).toMatchObject({ id: inv.id, outstanding: '379.62', outstanding_base: '379.62' });
    const [original, reversal] = res.data.allocations;
    expect(original).toMatchObject({ id: allocationId, amount: '379.62', reversed_by_id: reversal.id, reverses_id: null });
    expect(reversal).toMatchObject({ amount: '-379.62', base_amount: '-379.62', reverses_id: allocationId, reversed_by_id: null, receipt_id: r.id });
    expect(res.data.timeline.at(-1)).toMatchObject({ action_key: 'reverse_allocation', reason: 'Wrong invoice' });
    const receipt = (await get(`${URL}/${r.id}`, w.token)).json();
    expect(receipt).toMatchObject({ unallocated: '379.62', allocated: '0.00', revision: 2 });
    expect(receipt.allocations).toHaveLength(2);
    const twice = await call('receivables.receipts.reverseAllocation', { allocation_id: allocationId }, w.token);
    expect(twice.statusCode).toBe(409);
    expect(twice.problem.code).toBe('conflict');
    const ofReversal = await call('receivables.receipts.reverseAllocation', { allocation_id: reversal.id }, w.token);
    expect(ofReversal.statusCode).toBe(409);
    expect((await call('receivables.receipts.reverseAllocation', { allocation_id: randomUUID() }, w.token)).statusCode).toBe(404);
    const other = await createReceiptWorld(t);
    expect((await call('receivables.receipts.reverseAllocation', { allocation_id: allocationId }, other.token)).statusCode).toBe(404);
  });
});
