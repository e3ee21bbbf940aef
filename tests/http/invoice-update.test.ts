/**
 * PATCH /v1/receivables/invoices/{id} (receivables.invoices.update, docs/design.md §12): a draft
 * changes under If-Match; lines are replaced whole and priced again with the create rules; the units
 * they take from trade lines are released and taken again in the same transaction.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createInProcessClient } from '../../src/client';
import { queryRows, sql } from '../../src/db/client';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { createInvoiceWorld, createTradeLine, issueTestDocument, type InvoiceWorld } from '../factories/receivables';
import { useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';
import { expectProblem } from '../helpers/problem';

const t = useTestApp();
const { post, get } = httpHelpers(t);
const URL = '/v1/receivables/invoices';

function patch(id: string, body: unknown, token: string, headers: Record<string, string | undefined> = {}) {
  const h: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID(), 'if-match': '"1"' };
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) delete h[k];
    else h[k] = v;
  }
  return t.app.inject({ method: 'PATCH', url: `${URL}/${id}`, headers: h, payload: typeof body === 'string' ? body : JSON.stringify(body) });
}

async function draft(w: InvoiceWorld, over: Record<string, unknown> = {}) {
  const res = await post(URL, w.body(over), w.org.owner.apiKey);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function invoiced(tradeLineId: string): Promise<string> {
  const [row] = await queryRows<{ q: string }>(t.db, sql`select quantity_invoiced::text as q from trade_lines where id = ${tradeLineId}`);
  return String(Number(row!.q)) === row!.q ? row!.q : row!.q.replace(/\.?0+$/, '');
}

describe('PATCH /v1/receivables/invoices/{id}', () => {
  it('replaces the lines, prices them again to the sen, bumps the revision and answers the ETag', async () => {
    const w = await createInvoiceWorld(t.db);
    const d = await draft(w);
    expect(d.gross_amount).toBe('379.62');
    const res = await patch(
      d.id,
      {
        customer_reference: 'PO-77',
        payment_terms_days: 14,
        lines: [
          // 40 × 2.055 = 82.20; no tax
          w.line({ description: 'Diesel', quantity: '40', unit_price: '2.055', discount_amount: '0', tax_code_id: w.ref.na.id }),
          // 2.5 × 45.99 = 114.975 → 114.98 − 4.98 = 110.00; 10% = 11.00
          w.line({ description: 'Cable', quantity: '2.5', unit_price: '45.99', discount_amount: '4.98', tax_code_id: w.ref.st10.id }),
        ],
      },
      w.org.owner.apiKey,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers.etag).toBe('"2"');
    const u = res.json();
    expect(u).toMatchObject({ id: d.id, revision: 2, state: 'draft', reference: null, customer_reference: 'PO-77', payment_terms_days: 14, kind: 'sales_invoice' });
    expect(u.due_on).toBe(addDays(d.invoice_date, 14));
    expect(u.lines.map((l: any) => [l.line_no, l.description, l.unit_price, l.net_amount, l.tax_amount, l.tax_code])).toEqual([
      [1, 'Diesel', '2.055', '82.20', '0.00', 'NA'],
      [2, 'Cable', '45.99', '110.00', '11.00', 'ST10'],
    ]);
    expect([u.net_total, u.tax_total, u.gross_amount, u.gross_base, u.outstanding, u.outstanding_base]).toEqual(['192.20', '11.00', '203.20', '203.20', '203.20', '203.20']);
    const again = await get(`${URL}/${d.id}`, w.org.owner.apiKey);
    expect(again.headers.etag).toBe('"2"');
    expect(again.json()).toEqual(u);
  });

  it('a partial update changes only what is sent', async () => {
    const w = await createInvoiceWorld(t.db);
    const d = await draft(w, { customer_reference: 'OLD' });
    const res = await patch(d.id, { customer_reference: 'PO-2026-118' }, w.org.owner.apiKey);
    expect(res.statusCode, res.body).toBe(200);
    const u = res.json();
    expect(u.customer_reference).toBe('PO-2026-118');
    expect(u.revision).toBe(2);
    const { customer_reference: _a, revision: _b, updated_at: before, ...restBefore } = d;
    const { customer_reference: _c, revision: _d, updated_at: after, ...restAfter } = u;
    expect(restAfter).toEqual(restBefore);
    // The change moves updated_at (the list's updated_after finds it); the answer is what a read answers.
    expect(after > before).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: `/v1/receivables/invoices/${d.id}`, headers: { authorization: `Bearer ${w.org.owner.apiKey}` } })).json().updated_at).toBe(after);
  });

  it('changing the currency prices the stored lines again at the new rate', async () => {
    const w = await createInvoiceWorld(t.db);
    const d = await draft(w);
    const res = await patch(d.id, { currency: 'USD', fx_rate: '4.4712' }, w.org.owner.apiKey);
    expect(res.statusCode, res.body).toBe(200);
    const u = res.json();
    // 351.50 USD, tax 28.12; base 1571.63 + 125.73
    expect(u.lines.map((l: any) => [l.net_amount, l.tax_amount, l.net_base, l.tax_base])).toEqual([['351.50', '28.12', '1571.63', '125.73']]);
    expect([u.currency, u.fx_rate, u.gross_amount, u.gross_base]).toEqual(['USD', '4.4712', '379.62', '1697.36']);
    // A foreign currency without its rate is refused, as on create.
    const p = expectProblem(await patch(d.id, { currency: 'EUR' }, w.org.owner.apiKey, { 'if-match': '"2"' }), 422, 'validation');
    expect(p.errors?.map((e) => e.pointer)).toEqual(['/fx_rate']);
  });

  it('releases the units the old lines took from a trade line and takes the new ones, in one step', async () => {
    const w = await createInvoiceWorld(t.db);
    const tl = await createTradeLine(t.db, w.org.id, { customerId: w.customer.id, kind: 'delivery', reference: 'DO-9', description: 'Bolts', quantity: '100', quantityInvoiced: '10', unitCode: 'C62' });
    const other = await createTradeLine(t.db, w.org.id, { customerId: w.customer.id, kind: 'delivery', reference: 'DO-10', description: 'Nuts', quantity: '50', unitCode: 'C62' });
    const d = await draft(w, { lines: [w.line({ quantity: '60', discount_amount: '0', trade_line_id: tl.id })] });
    expect(await invoiced(tl.id)).toBe('70');
    // 90 left before this draft took its 60: 85 of them fit once its own 60 are released.
    let res = await patch(d.id, { lines: [w.line({ quantity: '85', discount_amount: '0', trade_line_id: tl.id })] }, w.org.owner.apiKey);
    expect(res.statusCode, res.body).toBe(200);
    expect(await invoiced(tl.id)).toBe('95');
    // More than is left (90) is refused and nothing moves.
    const p = expectProblem(await patch(d.id, { lines: [w.line({ quantity: '91', discount_amount: '0', trade_line_id: tl.id })] }, w.org.owner.apiKey, { 'if-match': '"2"' }), 422, 'validation');
    expect(p.errors).toEqual([{ pointer: '/lines/0/quantity', detail: 'is more than is left on the trade line (90 base units)' }]);
    expect(await invoiced(tl.id)).toBe('95');
    // Moving to another trade line gives every unit back to the first.
    res = await patch(d.id, { lines: [w.line({ quantity: '5', discount_amount: '0', trade_line_id: other.id })] }, w.org.owner.apiKey, { 'if-match': '"2"' });
    expect(res.statusCode, res.body).toBe(200);
    expect([await invoiced(tl.id), await invoiced(other.id)]).toEqual(['10', '5']);
    // Lines without trade lines release them all.
    res = await patch(d.id, { lines: [w.line()] }, w.org.owner.apiKey, { 'if-match': '"3"' });
    expect(res.statusCode, res.body).toBe(200);
    expect([await invoiced(tl.id), await invoiced(other.id)]).toEqual(['10', '0']);
  });

  it('a credit note is capped by what is left to credit, as on create', async () => {
    const w = await createInvoiceWorld(t.db);
    const accountant = await createTestMember(t.db, w.org.id, { role: 'accountant' });
    const inv = await draft(w);
    await issueTestDocument(t.db, w.org.id, inv.id, accountant.id);
    const cn = await draft(w, { kind: 'customer_credit_note', reason: 'Returned', original_invoice_id: inv.id, lines: [w.line({ quantity: '1', discount_amount: '0' })] });
    const p = expectProblem(await patch(cn.id, { lines: [w.line({ quantity: '4', discount_amount: '0' })] }, w.org.owner.apiKey), 422, 'validation');
    expect(p.errors).toEqual([{ pointer: '/lines', detail: expect.stringMatching(/is more than is left to credit/) }]);
    const ok = await patch(cn.id, { reason: 'Returned, 2 units', lines: [w.line({ quantity: '2', discount_amount: '0' })] }, w.org.owner.apiKey);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ reason: 'Returned, 2 units', gross_amount: '260.28' });
  });

  it('replays an API-key write with the same Idempotency-Key', async () => {
    const w = await createInvoiceWorld(t.db);
    const d = await draft(w);
    const key = randomUUID();
    const first = await patch(d.id, { customer_reference: 'R-1' }, w.org.owner.apiKey, { 'idempotency-key': key });
    expect(first.statusCode, first.body).toBe(200);
    const replay = await patch(d.id, { customer_reference: 'R-1' }, w.org.owner.apiKey, { 'idempotency-key': key });
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.headers.etag).toBe('"2"');
    expect(replay.json()).toEqual(first.json());
    expect((await get(`${URL}/${d.id}`, w.org.owner.apiKey)).json().revision).toBe(2);
    expectProblem(await patch(d.id, { customer_reference: 'R-1' }, w.org.owner.apiKey, { 'idempotency-key': undefined, 'if-match': '"2"' }), 422, 'idempotency_key_required');
  });

  it('the tRPC procedure receivables.invoices.update is the same operation', async () => {
    const w = await createInvoiceWorld(t.db);
    const d = await draft(w);
    const client = (ifMatch?: string) => createInProcessClient(t.deps, { token: w.org.owner.session, ...(ifMatch ? { ifMatch } : {}) });
    const u = await client('"1"').receivables.invoices.update({ id: d.id, lines: [w.line({ quantity: '40', unit_price: '2.055', discount_amount: '0', tax_code_id: w.ref.na.id })] });
    expect([u.revision, u.net_total, u.lines[0]!.unit_price]).toEqual([2, '82.20', '2.055']);
    await expect(client().receivables.invoices.update({ id: d.id, customer_reference: 'x' })).rejects.toMatchObject({ appCode: 'revision_required', status: 428 });
    await expect(client('"1"').receivables.invoices.update({ id: d.id, customer_reference: 'x' })).rejects.toMatchObject({ appCode: 'revision_mismatch', status: 409 });
  });

  it('a session changes a draft without an Idempotency-Key', async () => {
    const w = await createInvoiceWorld(t.db);
    const d = await draft(w);
    const res = await patch(d.id, { customer_reference: 'S-1' }, w.org.owner.session, { 'idempotency-key': undefined });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('PATCH /v1/receivables/invoices/{id}: refusals', () => {
  it('kind, attachment_ids and any unknown field are 400', async () => {
    const w = await createInvoiceWorld(t.db);
    const d = await draft(w);
    for (const body of [{ kind: 'customer_debit_note' }, { attachment_ids: [] }, { colour: 'red' }, { lines: [{ ...w.line(), extra: 1 }] }]) {
      expectProblem(await patch(d.id, body, w.org.owner.apiKey), 400, 'invalid_request');
    }
  });

  it('a field of the wrong type is 400 naming it', async () => {
    const w = await createInvoiceWorld(t.db);
    const d = await draft(w);
    const p = expectProblem(await patch(d.id, { payment_terms_days: '30' }, w.org.owner.apiKey), 400, 'invalid_request');
    expect(p.errors?.[0]?.pointer).toBe('/payment_terms_days');
    const q = expectProblem(await patch(d.id, { lines: [w.line({ unit_price: 12 })] }, w.org.owner.apiKey), 400, 'invalid_request');
    expect(q.errors?.[0]?.pointer).toBe('/lines/0/unit_price');
  });

  it('blank and over-long texts are 422 with their pointers, and nothing changes', async () => {
    const w = await createInvoiceWorld(t.db);
    const d = await draft(w);
    const p = expectProblem(
      await patch(d.id, { customer_reference: 'x'.repeat(101), lines: [w.line({ description: '  ' }), w.line({ description: 'y'.repeat(501) })] }, w.org.owner.apiKey),
      422,
      'validation',
    );
    expect(p.errors?.map((e) => e.pointer).sort()).toEqual(['/customer_reference', '/lines/0/description', '/lines/1/description']);
    expectProblem(await patch(d.id, { unit_price: '1' }, w.org.owner.apiKey), 400);
    expect(expectProblem(await patch(d.id, { lines: [w.line({ unit_price: '2.0555555' })] }, w.org.owner.apiKey), 422, 'validation').errors).toEqual([
      { pointer: '/lines/0/unit_price', detail: 'must have at most 6 decimal places' },
    ]);
    expectProblem(await patch(d.id, { lines: [] }, w.org.owner.apiKey), 422, 'validation');
    const now = (await get(`${URL}/${d.id}`, w.org.owner.apiKey)).json();
    expect(now).toEqual(d);
  });

  it("another organization's draft is 404, as an unknown one", async () => {
    const w = await createInvoiceWorld(t.db);
    const d = await draft(w);
    const other = await createTestOrganization(t.db);
    expectProblem(await patch(d.id, { customer_reference: 'X' }, other.owner.apiKey), 404, 'not_found');
    expectProblem(await patch(randomUUID(), { customer_reference: 'X' }, w.org.owner.apiKey), 404, 'not_found');
    expectProblem(await patch('not-a-uuid', { customer_reference: 'X' }, w.org.owner.apiKey), 400);
  });

  it('a member without receivables.invoice.create is 403', async () => {
    const w = await createInvoiceWorld(t.db);
    const d = await draft(w);
    const viewer = await createTestMember(t.db, w.org.id, { role: 'viewer' });
    expectProblem(await patch(d.id, { customer_reference: 'X' }, viewer.apiKey), 403, 'forbidden');
    expectProblem(await patch(d.id, { customer_reference: 'X' }, viewer.session), 403, 'forbidden');
  });

  it('a stale If-Match is 409 revision_mismatch, a missing one 428 revision_required, a malformed one 400', async () => {
    const w = await createInvoiceWorld(t.db);
    const d = await draft(w);
    expect((await patch(d.id, { customer_reference: 'A' }, w.org.owner.apiKey)).statusCode).toBe(200);
    const p = expectProblem(await patch(d.id, { customer_reference: 'B' }, w.org.owner.apiKey, { 'if-match': '"1"' }), 409, 'revision_mismatch');
    expect(p.errors).toEqual([{ pointer: '/headers/if-match', detail: 'is stale (current revision is 2)' }]);
    expectProblem(await patch(d.id, { customer_reference: 'B' }, w.org.owner.apiKey, { 'if-match': undefined }), 428, 'revision_required');
    expectProblem(await patch(d.id, { customer_reference: 'B' }, w.org.owner.apiKey, { 'if-match': 'yesterday' }), 400, 'invalid_request');
    expect((await get(`${URL}/${d.id}`, w.org.owner.apiKey)).json().customer_reference).toBe('A');
  });

  it('a document that is not a draft is 409 conflict', async () => {
    const w = await createInvoiceWorld(t.db);
    const accountant = await createTestMember(t.db, w.org.id, { role: 'accountant' });
    const d = await draft(w);
    await issueTestDocument(t.db, w.org.id, d.id, accountant.id);
    const issued = (await get(`${URL}/${d.id}`, w.org.owner.apiKey)).json();
    const p = expectProblem(await patch(d.id, { customer_reference: 'late' }, w.org.owner.apiKey, { 'if-match': `"${issued.revision}"` }), 409, 'conflict');
    expect(p.detail).toMatch(/Only a draft/);
    expect((await get(`${URL}/${d.id}`, w.org.owner.apiKey)).json()).toEqual(issued);
  });

  it('is listed in the OpenAPI document with If-Match and Idempotency-Key', async () => {
    const doc = (await get('/v1/openapi.json')).json();
    const op = doc.paths['/receivables/invoices/{id}'].patch;
    expect(op).toBeDefined();
    const params = op.parameters.map((p: any) => p.$ref ?? p.name);
    expect(params).toEqual(expect.arrayContaining(['#/components/parameters/IfMatch', '#/components/parameters/IdempotencyKey']));
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '404', '409', '422', '428']));
  });
});

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
