import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { queryRows, sql } from '../../src/db/client';
import { todayIn } from '../../src/lib/dates';
import { transitionDocument } from '../../src/services/receivables/transition-document';
import { contextFor } from '../factories/context';
import { createTestCustomer } from '../factories/customer';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { allocate, createReceivablesSetup, issueTestDocument, recordReceipt } from '../factories/receivables';
import { onPostgres, useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';
import { expectProblem } from '../helpers/problem';

const t = useTestApp();
const { post, get } = httpHelpers(t);
const URL = '/v1/receivables/invoices';

interface Spec {
  name: string;
  id: string;
  kind: string;
  customerId: string;
  currency: string;
  state: string;
  overdue: boolean | null;
}

/** Query string of `params`; an array is the parameter repeated. */
function qs(params: Record<string, string | number | string[] | undefined>) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (Array.isArray(v)) for (const x of v) p.append(k, x);
    else if (v !== undefined) p.set(k, String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

/**
 * Documents of every state the default workflow has (draft, discarded, issued), two customers and
 * a third with none, two currencies, issued ones past due, not yet due, settled, and a credit note
 * past its due date with credit left (never overdue: the customer owes nothing on it).
 */
async function filterWorld() {
  const org = await createTestOrganization(t.db);
  const other = await createTestOrganization(t.db);
  const ref = await createReceivablesSetup(t.db, org.id);
  const issuer = await createTestMember(t.db, org.id, { role: 'owner', name: 'Issuer' });
  const token = org.owner.apiKey;
  const alpha = await createTestCustomer(t.db, org.id, { legalName: 'Alpha Sdn Bhd', paymentTermsDays: 30 });
  const beta = await createTestCustomer(t.db, org.id, { legalName: 'Beta Sdn Bhd', paymentTermsDays: 30 });
  const idle = await createTestCustomer(t.db, org.id, { legalName: 'Idle Sdn Bhd' });
  const specs: Spec[] = [];
  const line = { account_id: ref.revenue.id, description: 'Consulting', quantity: '1', unit_price: '100.00', tax_code_id: ref.sv8.id };
  const create = async (name: string, customerId: string, over: Record<string, unknown> = {}) => {
    const res = await post(URL, { kind: 'sales_invoice', customer_id: customerId, lines: [line], ...over }, token);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; kind: string; currency: string };
  };
  const add = (name: string, doc: { id: string; kind: string; currency: string }, customerId: string, state: string, overdue: boolean | null) =>
    specs.push({ name, id: doc.id, kind: doc.kind, customerId, currency: doc.currency, state, overdue });
  const issueOn = (id: string, day: string) => issueTestDocument(t.db, org.id, id, issuer.id, new Date(`${day}T04:00:00Z`));

  add('draft', await create('draft', alpha.id), alpha.id, 'draft', null);
  const discarded = await create('discarded', beta.id, { currency: 'USD', fx_rate: '4.5' });
  await transitionDocument(await contextFor(t.db, org.id, org.owner.id), { id: discarded.id, action_key: 'discard' });
  add('discarded', discarded, beta.id, 'discarded', null);
  const pastDue = await create('past due', alpha.id);
  await issueOn(pastDue.id, '2025-01-10');
  add('past due', pastDue, alpha.id, 'issued', true);
  const pastDueUsd = await create('past due, USD', beta.id, { currency: 'USD', fx_rate: '4.5' });
  await issueOn(pastDueUsd.id, '2025-02-10');
  add('past due, USD', pastDueUsd, beta.id, 'issued', true);
  const debitNote = await create('debit note past due', alpha.id, { kind: 'customer_debit_note', original_invoice_id: pastDue.id, reason: 'Freight' });
  await issueOn(debitNote.id, '2025-03-10');
  add('debit note past due', debitNote, alpha.id, 'issued', true);
  // Issued today on 30 days: due in a month.
  const notDue = await create('not yet due', alpha.id);
  await issueTestDocument(t.db, org.id, notDue.id, issuer.id);
  add('not yet due', notDue, alpha.id, 'issued', false);
  const notDueUsd = await create('not yet due, USD', beta.id, { currency: 'USD', fx_rate: '4.5' });
  await issueTestDocument(t.db, org.id, notDueUsd.id, issuer.id);
  add('not yet due, USD', notDueUsd, beta.id, 'issued', false);
  const settled = await create('settled', alpha.id);
  await issueOn(settled.id, '2025-01-12');
  const gross = (await get(`${URL}/${settled.id}`, token)).json().gross_amount as string;
  const receipt = await recordReceipt(t.db, { organizationId: org.id, customerId: alpha.id, reference: 'OR-1', currency: 'MYR', amount: gross, receivedOn: '2025-02-01', createdBy: org.owner.id });
  await allocate(t.db, { organizationId: org.id, invoiceId: settled.id, receiptId: receipt.id, amount: gross, effectiveOn: '2025-02-01', createdBy: org.owner.id });
  add('settled', settled, alpha.id, 'issued', null);
  const creditNote = await create('credit note', alpha.id, { kind: 'customer_credit_note', original_invoice_id: pastDue.id, reason: 'Returned goods', lines: [{ ...line, unit_price: '10.00' }] });
  await issueOn(creditNote.id, '2025-01-20');
  add('credit note', creditNote, alpha.id, 'issued', null);

  // Another organization's documents never appear.
  const otherRef = await createReceivablesSetup(t.db, other.id);
  const otherCustomer = await createTestCustomer(t.db, other.id, { legalName: 'Alpha Sdn Bhd' });
  const res = await post(
    URL,
    { kind: 'sales_invoice', customer_id: otherCustomer.id, lines: [{ ...line, account_id: otherRef.revenue.id, tax_code_id: otherRef.sv8.id }] },
    other.owner.apiKey,
  );
  expect(res.statusCode, res.body).toBe(201);
  return { org, other, ref, token, alpha, beta, idle, specs, issuer };
}

type World = Awaited<ReturnType<typeof filterWorld>>;
let shared: Promise<World> | undefined;
const readWorld = () => (shared ??= filterWorld());

/** Follows next_cursor to the end, `limit` at a time. */
async function walk(token: string, params: Record<string, string | number | string[] | undefined>, limit = 2) {
  const docs: any[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const res = await get(`${URL}${qs({ ...params, limit, cursor })}`, token);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    docs.push(...body.documents);
    if (body.next_cursor === null) return docs;
    cursor = body.next_cursor;
  }
  throw new Error('no end');
}

describe('GET /v1/receivables/invoices: state, customer_id, currency and overdue', () => {
  type Pred = (s: Spec, w: World) => boolean;
  const cases: { name: string; params: (w: World) => Record<string, string | string[]>; keep: Pred }[] = [
    { name: 'state (one)', params: () => ({ state: 'draft' }), keep: (s) => s.state === 'draft' },
    { name: 'state (several, repeated)', params: () => ({ state: ['draft', 'discarded'] }), keep: (s) => s.state === 'draft' || s.state === 'discarded' },
    { name: 'state (a key given twice)', params: () => ({ state: ['issued', 'issued'] }), keep: (s) => s.state === 'issued' },
    { name: 'customer_id', params: (w) => ({ customer_id: w.beta.id }), keep: (s, w) => s.customerId === w.beta.id },
    { name: 'customer_id (upper case)', params: (w) => ({ customer_id: w.alpha.id.toUpperCase() }), keep: (s, w) => s.customerId === w.alpha.id },
    { name: 'currency', params: () => ({ currency: 'USD' }), keep: (s) => s.currency === 'USD' },
    { name: 'overdue=true', params: () => ({ overdue: 'true' }), keep: (s) => s.overdue === true },
    { name: 'overdue=false', params: () => ({ overdue: 'false' }), keep: (s) => s.overdue === false },
    {
      name: 'combined: state, customer and currency',
      params: (w) => ({ state: ['issued', 'discarded'], customer_id: w.beta.id, currency: 'USD' }),
      keep: (s, w) => s.customerId === w.beta.id && s.currency === 'USD' && s.state !== 'draft',
    },
    {
      name: 'combined: overdue, customer and kind',
      params: (w) => ({ overdue: 'true', customer_id: w.alpha.id, kind: 'sales_invoice' }),
      keep: (s, w) => s.overdue === true && s.customerId === w.alpha.id && s.kind === 'sales_invoice',
    },
    { name: 'combined: overdue=false and currency', params: () => ({ overdue: 'false', currency: 'MYR' }), keep: (s) => s.overdue === false && s.currency === 'MYR' },
    { name: 'combined: overdue and outstanding=true', params: () => ({ overdue: 'true', outstanding: 'true' }), keep: (s) => s.overdue === true },
    {
      name: 'combined: state and an invoice-date range',
      params: () => ({ state: ['issued'], invoice_date_from: '2025-01-01', invoice_date_to: '2025-02-28' }),
      keep: (s) => ['past due', 'past due, USD', 'settled', 'credit note'].includes(s.name),
    },
  ];

  for (const c of cases) {
    it(`${c.name}: exactly the matching documents, each once, in every sort`, async () => {
      const w = await readWorld();
      const expected = w.specs.filter((s) => c.keep(s, w)).map((s) => s.id).sort();
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(w.specs.length);
      for (const sort of ['created_at', 'due_on', 'reference', 'updated_at'] as const) {
        for (const order of ['asc', 'desc'] as const) {
          const docs = await walk(w.token, { ...c.params(w), sort, order });
          expect(docs.map((d) => d.id).sort(), `${sort} ${order}`).toEqual(expected);
        }
      }
    });
  }

  it('overdue answers the documents due before the organization\'s today with something outstanding; each carries it', async () => {
    const w = await readWorld();
    // The organization's today (Asia/Kuala_Lumpur by default): from 16:00 UTC it is already tomorrow there.
    const today = todayIn('Asia/Kuala_Lumpur', new Date());
    const overdue = await walk(w.token, { overdue: 'true' }, 10);
    expect(overdue.map((d) => d.reference === null)).not.toContain(true);
    for (const d of overdue) {
      expect(d.due_on < today).toBe(true);
      expect(Number(d.outstanding)).toBeGreaterThan(0);
      expect(d.kind).not.toBe('customer_credit_note');
    }
    for (const d of await walk(w.token, { overdue: 'false' }, 10)) expect(d.due_on >= today).toBe(true);
    // Neither: drafts, discarded, settled, and the credit note past its due date with credit left.
    const neither = w.specs.filter((s) => s.overdue === null).map((s) => s.name);
    expect(neither.sort()).toEqual(['credit note', 'discarded', 'draft', 'settled']);
    const credit = (await get(`${URL}/${w.specs.find((s) => s.name === 'credit note')!.id}`, w.token)).json();
    expect(credit.due_on < today && Number(credit.outstanding) > 0).toBe(true);
  });

  it('a customer without documents, a currency without documents, a state no document is in: an empty page', async () => {
    const w = await readWorld();
    for (const params of [{ customer_id: w.idle.id }, { customer_id: randomUUID() }, { currency: 'SGD' }, { state: 'cancelled' }]) {
      const res = await get(`${URL}${qs(params)}`, w.token);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ documents: [], next_cursor: null });
    }
  });

  it("never answers another organization's documents, nor its customer's", async () => {
    const w = await readWorld();
    const theirs = (await get(URL, w.other.owner.apiKey)).json().documents[0];
    for (const params of [{ customer_id: theirs.customer_id }, { currency: 'MYR', state: 'draft' }]) {
      const docs = await walk(w.token, params, 10);
      expect(docs.map((d) => d.id)).not.toContain(theirs.id);
    }
  });

  it('the same filters over tRPC (receivables.invoices.list), state as an array', async () => {
    const w = await readWorld();
    const input = encodeURIComponent(JSON.stringify({ state: ['draft', 'discarded'], customer_id: w.beta.id }));
    const res = await t.app.inject({ method: 'GET', url: `/trpc/receivables.invoices.list?input=${input}`, headers: { authorization: `Bearer ${w.token}` } });
    expect(res.statusCode, res.body).toBe(200);
    const ids = res.json().result.data.documents.map((d: any) => d.id);
    expect(ids).toEqual([w.specs.find((s) => s.name === 'discarded')!.id]);
    const overdue = encodeURIComponent(JSON.stringify({ overdue: true, currency: 'USD' }));
    const r2 = await t.app.inject({ method: 'GET', url: `/trpc/receivables.invoices.list?input=${overdue}`, headers: { authorization: `Bearer ${w.token}` } });
    expect(r2.json().result.data.documents.map((d: any) => d.id)).toEqual([w.specs.find((s) => s.name === 'past due, USD')!.id]);
  });
});

describe('GET /v1/receivables/invoices: updated_after and sort=updated_at', () => {
  it('every document carries updated_at; a change to the document moves it, a rename of its customer does not', async () => {
    const org = await createTestOrganization(t.db);
    const ref = await createReceivablesSetup(t.db, org.id);
    const issuer = await createTestMember(t.db, org.id, { role: 'owner', name: 'Issuer' });
    const customer = await createTestCustomer(t.db, org.id, { legalName: 'Gamma Sdn Bhd' });
    const created = await post(URL, { kind: 'sales_invoice', customer_id: customer.id, lines: [{ account_id: ref.revenue.id, description: 'X', quantity: '1', unit_price: '10.00', tax_code_id: ref.sv8.id }] }, org.owner.apiKey);
    expect(created.statusCode, created.body).toBe(201);
    const doc = created.json();
    expect(doc.updated_at >= doc.created_at).toBe(true);
    await new Promise((r) => setTimeout(r, 5));
    await queryRows(t.db, sql`update customers set legal_name = 'Gamma Renamed Sdn Bhd' where organization_id = ${org.id} and id = ${customer.id}::uuid`);
    const renamed = (await get(`${URL}/${doc.id}`, org.owner.apiKey)).json();
    expect(renamed.updated_at).toBe(doc.updated_at);
    await issueTestDocument(t.db, org.id, doc.id, issuer.id);
    const issued = (await get(`${URL}/${doc.id}`, org.owner.apiKey)).json();
    expect(issued.updated_at > doc.updated_at).toBe(true);
    const listed = (await get(URL, org.owner.apiKey)).json().documents[0];
    expect(listed.updated_at).toBe(issued.updated_at);
  });

  it('an incremental sync: updated_after is inclusive, sort=updated_at asc walks the changes in order, ties by id', async () => {
    const w = await readWorld();
    const all = await walk(w.token, { sort: 'updated_at', order: 'asc' }, 3);
    expect(all).toHaveLength(w.specs.length);
    for (let i = 1; i < all.length; i++) {
      const [a, b] = [all[i - 1], all[i]];
      expect(a.updated_at < b.updated_at || (a.updated_at === b.updated_at && a.id < b.id), `${i}`).toBe(true);
    }
    const desc = await walk(w.token, { sort: 'updated_at', order: 'desc' }, 3);
    expect(desc.map((d) => d.id)).toEqual([...all].reverse().map((d) => d.id));

    // A sync from the start, then a change, then a sync from the last updated_at seen.
    const last = all[all.length - 1];
    const since = await walk(w.token, { updated_after: last.updated_at, sort: 'updated_at', order: 'asc' });
    // Inclusive: the last document seen comes again (with any other of the same instant).
    expect(since.map((d) => d.id)).toContain(last.id);
    expect(since.every((d) => d.updated_at >= last.updated_at)).toBe(true);
    await new Promise((r) => setTimeout(r, 5));
    const draft = w.specs.find((s) => s.name === 'not yet due')!;
    const gross = (await get(`${URL}/${draft.id}`, w.token)).json().gross_amount as string;
    const receipt = await recordReceipt(t.db, { organizationId: w.org.id, customerId: w.alpha.id, reference: `OR-${randomUUID().slice(0, 8)}`, currency: 'MYR', amount: '1.00', receivedOn: '2026-01-01', createdBy: w.org.owner.id });
    await allocate(t.db, { organizationId: w.org.id, invoiceId: draft.id, receiptId: receipt.id, amount: '1.00', effectiveOn: '2026-01-01', createdBy: w.org.owner.id });
    expect(gross).not.toBe('1.00');
    const next = await walk(w.token, { updated_after: new Date(Date.parse(last.updated_at) + 1).toISOString(), sort: 'updated_at', order: 'asc' });
    expect(next.map((d) => d.id)).toEqual([draft.id]);
    expect(next[0].updated_at > last.updated_at).toBe(true);
    // With another sort and other filters it is a filter like the others.
    const filtered = await walk(w.token, { updated_after: next[0].updated_at, customer_id: w.alpha.id, sort: 'reference' });
    expect(filtered.map((d) => d.id)).toEqual([draft.id]);
    expect(await walk(w.token, { updated_after: next[0].updated_at, customer_id: w.beta.id })).toEqual([]);
    // An offset other than Z names the same instant.
    const plus8 = new Date(Date.parse(next[0].updated_at) + 8 * 3600_000).toISOString().replace('Z', '+08:00');
    expect((await walk(w.token, { updated_after: plus8 })).map((d) => d.id)).toEqual([draft.id]);
  });
});

describe.skipIf(!onPostgres)('GET /v1/receivables/invoices?updated_after while a write is in progress (PostgreSQL)', () => {
  it('holds back what changed after the oldest running transaction began, so a sync resuming from the last updated_at misses nothing', async () => {
    const org = await createTestOrganization(t.db);
    const ref = await createReceivablesSetup(t.db, org.id);
    const customer = await createTestCustomer(t.db, org.id, { legalName: 'Delta Sdn Bhd' });
    const token = org.owner.apiKey;
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await post(URL, { kind: 'sales_invoice', customer_id: customer.id, lines: [{ account_id: ref.revenue.id, description: 'X', quantity: '1', unit_price: '10.00', tax_code_id: ref.sv8.id }] }, token);
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().id);
    }
    const start = (await get(`${URL}?sort=updated_at&order=desc&limit=1`, token)).json().documents[0].updated_at as string;
    const [slow, quick] = ids as [string, string];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let began!: () => void;
    const begun = new Promise<void>((r) => (began = r));
    // A write that began first and commits last: its document's updated_at is earlier than the quick one's.
    const writer = t.db.transaction(async (tx) => {
      await queryRows(tx as never, sql`update receivable_documents set customer_reference = 'slow' where organization_id = ${org.id} and id = ${slow}::uuid`);
      began();
      await held;
    });
    await begun;
    await new Promise((r) => setTimeout(r, 5));
    await queryRows(t.db, sql`update receivable_documents set customer_reference = 'quick' where organization_id = ${org.id} and id = ${quick}::uuid`);
    const during = await walk(token, { updated_after: start, sort: 'updated_at', order: 'asc' });
    // The quick change is committed, but changed after the slow write began: held back with it.
    expect(during.map((d) => d.customer_reference)).not.toContain('quick');
    expect(during.map((d) => d.customer_reference)).not.toContain('slow');
    const resumeFrom = during.length ? during[during.length - 1].updated_at : start;
    release();
    await writer;
    const after = await walk(token, { updated_after: resumeFrom, sort: 'updated_at', order: 'asc' });
    expect(after.map((d) => d.customer_reference)).toEqual(expect.arrayContaining(['slow', 'quick']));
    const slowAt = after.find((d) => d.id === slow).updated_at;
    const quickAt = after.find((d) => d.id === quick).updated_at;
    expect(slowAt < quickAt).toBe(true);
  });
});

describe('GET /v1/receivables/invoices refuses, for the new filters', () => {
  it('a cursor sent with another state set, customer, currency, overdue or updated_after (422 at /query/cursor)', async () => {
    const w = await readWorld();
    const base = { state: ['issued', 'draft'], customer_id: w.alpha.id, currency: 'MYR', overdue: 'true', updated_after: '2020-01-01T00:00:00Z', sort: 'created_at' };
    const wide = { state: ['issued', 'draft'], customer_id: w.alpha.id, currency: 'MYR', updated_after: '2020-01-01T00:00:00Z', sort: 'created_at' };
    const first = (await get(`${URL}${qs({ ...wide, limit: 1 })}`, w.token)).json();
    expect(first.next_cursor).toEqual(expect.any(String));
    const cursor = first.next_cursor as string;
    for (const params of [
      { ...wide, state: ['issued'] },
      { ...wide, state: undefined },
      { ...wide, customer_id: w.beta.id },
      { ...wide, currency: 'USD' },
      base,
      { ...wide, overdue: 'false' },
      { ...wide, updated_after: '2020-01-01T00:00:01Z' },
      { ...wide, updated_after: undefined },
    ]) {
      const p = expectProblem(await get(`${URL}${qs({ ...params, cursor })}`, w.token), 422, 'validation');
      expect(p.errors, JSON.stringify(params)).toEqual([{ pointer: '/query/cursor', detail: expect.any(String) }]);
    }
    // The same set of states in another order, a customer id in capitals: the same filter.
    for (const params of [{ ...wide, state: ['draft', 'issued', 'draft'] }, { ...wide, customer_id: w.alpha.id.toUpperCase() }]) {
      const res = await get(`${URL}${qs({ ...params, cursor })}`, w.token);
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it('malformed values (400) and an unknown state (422), naming the parameter', async () => {
    const w = await readWorld();
    const cases: [string, number, string][] = [
      ['state=nope', 422, '/query/state/0'],
      ['state=draft&state=Issued', 422, '/query/state/1'],
      [`state=${'x'.repeat(101)}`, 422, '/query/state/0'],
      [Array.from({ length: 21 }, () => 'state=draft').join('&'), 422, '/query/state'],
      ['customer_id=nope', 400, '/query/customer_id'],
      ['currency=usd', 400, '/query/currency'],
      ['currency=USDT', 400, '/query/currency'],
      ['overdue=yes', 400, '/query/overdue'],
      ['overdue=1', 400, '/query/overdue'],
      ['updated_after=2025-01-01', 400, '/query/updated_after'],
      ['updated_after=2025-01-01T00:00:00', 400, '/query/updated_after'],
      ['updated_after=yesterday', 400, '/query/updated_after'],
      ['sort=updated', 400, '/query/sort'],
      ['customer_id=a&customer_id=b', 400, '/query/customer_id'],
    ];
    for (const [query, status, pointer] of cases) {
      const res = await get(`${URL}?${query}`, w.token);
      expect(res.statusCode, query).toBe(status);
      const p = expectProblem(res, status, status === 400 ? 'invalid_request' : 'validation');
      expect(p.errors?.map((e) => e.pointer), query).toContain(pointer);
    }
    const unknown = expectProblem(await get(`${URL}?state=nope`, w.token), 422, 'validation');
    expect(unknown.errors?.[0]?.detail).toContain('draft');
  });
});
