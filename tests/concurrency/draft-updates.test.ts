/**
 * Draft updates under concurrency (PostgreSQL): the draft is locked before its revision is checked,
 * so of several changes sent with the same If-Match exactly one wins; two drafts taking units from
 * one trade line never take more than it has.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { queryRows, sql } from '../../src/db/client';
import { bearer } from '../factories/organization';
import { createInvoiceWorld, createTradeLine } from '../factories/receivables';
import { onPostgres, useTestApp } from '../helpers/app';

const t = useTestApp();
const URL = '/v1/receivables/invoices';

const send = (method: 'POST' | 'PATCH', url: string, token: string, body: unknown, ifMatch?: string) =>
  t.app.inject({
    method,
    url,
    headers: { ...bearer(token), 'content-type': 'application/json', 'idempotency-key': randomUUID(), ...(ifMatch ? { 'if-match': ifMatch } : {}) },
    payload: JSON.stringify(body),
  });

describe.skipIf(!onPostgres)('draft updates under concurrency (PostgreSQL)', () => {
  it('of 8 changes sent with the same If-Match exactly one wins; the others are 409 revision_mismatch', async () => {
    const w = await createInvoiceWorld(t.db);
    const d = (await send('POST', URL, w.org.owner.apiKey, w.body())).json();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => send('PATCH', `${URL}/${d.id}`, w.org.owner.apiKey, { customer_reference: `R-${i}`, lines: [w.line({ quantity: String(i + 1) })] }, '"1"')),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    for (const a of answers.filter((x) => x.statusCode === 409)) expect(a.json().code).toBe('revision_mismatch');
    const winner = answers.find((a) => a.statusCode === 200)!.json();
    const now = (await t.app.inject({ method: 'GET', url: `${URL}/${d.id}`, headers: bearer(w.org.owner.apiKey) })).json();
    expect(now).toEqual(winner);
    expect(now.revision).toBe(2);
  });

  it('drafts changed at once never take more units from a trade line than it has', async () => {
    const w = await createInvoiceWorld(t.db);
    const tl = await createTradeLine(t.db, w.org.id, { customerId: w.customer.id, kind: 'delivery', reference: 'DO-C', description: 'Bolts', quantity: '100', unitCode: 'C62' });
    const drafts = [];
    for (let i = 0; i < 4; i++) drafts.push((await send('POST', URL, w.org.owner.apiKey, w.body({ lines: [w.line({ quantity: '10', discount_amount: '0', trade_line_id: tl.id })] }))).json());
    // Each asks for 30 (its own 10 released): 40 + 4 × 20 more than 100 allows, so at most 3 succeed.
    const answers = await Promise.all(
      drafts.map((d) => send('PATCH', `${URL}/${d.id}`, w.org.owner.apiKey, { lines: [w.line({ quantity: '30', discount_amount: '0', trade_line_id: tl.id })] }, '"1"')),
    );
    const ok = answers.filter((a) => a.statusCode === 200).length;
    expect(ok).toBe(3);
    expect(answers.filter((a) => a.statusCode === 422).length).toBe(1);
    const [row] = await queryRows<{ q: string }>(t.db, sql`select quantity_invoiced::text as q from trade_lines where id = ${tl.id}`);
    expect(Number(row!.q)).toBe(3 * 30 + 10);
  });
});
