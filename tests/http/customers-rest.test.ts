import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createInProcessClient } from '../../src/client';
import { queryRows, sql } from '../../src/db/client';
import { encodeCursor } from '../../src/lib/cursor';
import { createCompanyGroup, mapCounterparty } from '../factories/setup';
import { createCustomFieldDefinition } from '../factories/setup';
import { createTestCustomer } from '../factories/customer';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { onPostgres, useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';
import { expectProblem } from '../helpers/problem';
import { countIdempotencyKeys, customerRestCreateTarget } from '../helpers/writes';

/**
 * Customers over REST (docs/design.md §12): GET /v1/receivables/customers (keyset list with a signed
 * cursor, like the invoice list), POST /v1/receivables/customers (the tRPC create procedure) and
 * PATCH /v1/receivables/customers/{id} (If-Match).
 */
// The concurrent walk below sends well over a minute's share of one session's requests (600).
const t = useTestApp({ RATE_LIMIT_PER_MEMBER: '100000', RATE_LIMIT_PER_ORGANIZATION: '100000' });
const { post, get } = httpHelpers(t);
const URL = '/v1/receivables/customers';
const SECRET = 'test-cursor-secret-0123456789';

function patch(id: string, body: unknown, token: string, headers: Record<string, string | undefined> = {}) {
  const h: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() };
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) delete h[k];
    else h[k] = v;
  }
  return t.app.inject({ method: 'PATCH', url: `${URL}/${id}`, headers: h, payload: typeof body === 'string' ? body : JSON.stringify(body) });
}

function qs(params: Record<string, string | number | undefined>) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}

interface Spec {
  id: string;
  code: string;
  legalName: string;
  active: boolean;
  group: boolean;
}

/**
 * One organization whose customers tie on every sort key they can tie on: legal names equal but
 * for case, created_at shared by groups of customers (codes are unique). Some inactive, one mapped
 * to a sister company, names with % and _; another organization with look-alike customers.
 */
async function listWorld() {
  const org = await createTestOrganization(t.db);
  const sibling = await createTestOrganization(t.db);
  await createCompanyGroup(t.db, `G ${randomUUID()}`, [org.id, sibling.id]);
  const rows: [string, string, boolean][] = [
    ['A-100', 'Alpha Holdings Sdn Bhd', true],
    ['a-101', 'alpha holdings sdn bhd', true],
    ['B-200', 'Beta 50%_Off Trading', true],
    ['B-201', 'Beta Trading', false],
    ['C-300', 'Cempaka Maju Enterprise', true],
    ['C_301', 'Cempaka Jaya', true],
    ['D-400', 'Delta Logistics Bhd', false],
    ['E-500', 'Sister Company Bhd', true],
    ['F-600', 'Alpha Holdings Sdn Bhd', true],
    ['G-700', 'Gamma Tech', true],
    ['H-800', 'Harimau Resources', true],
    ['I-900', 'Intan Payung', false],
    ['J-950', 'Zeta Agencies', true],
    ['K-990', 'ALPHA HOLDINGS SDN BHD', true],
  ];
  const specs: Spec[] = [];
  for (const [code, legalName, active] of rows) {
    const res = await post(URL, { code, legal_name: legalName }, org.owner.apiKey);
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as string;
    if (!active) {
      const off = await patch(id, { is_active: false }, org.owner.apiKey, { 'if-match': '"1"' });
      expect(off.statusCode, off.body).toBe(200);
    }
    specs.push({ id, code, legalName, active, group: code === 'E-500' });
  }
  await mapCounterparty(t.db, { organizationId: org.id, customerId: specs[7]!.id, companyOrganizationId: sibling.id, validFrom: '2020-01-01' });
  // Ties on created_at: two groups of customers created at the same instant.
  const ids = specs.map((s) => s.id);
  const at = (instant: string, group: string[]) =>
    queryRows(t.db, sql`update customers set created_at = ${instant}::timestamptz where organization_id = ${org.id} and id in (${sql.join(group.map((x) => sql`${x}::uuid`), sql`, `)})`);
  await at('2025-03-01T10:00:00.123456Z', ids.slice(0, 5));
  await at('2025-03-01T10:00:00.123457Z', ids.slice(5, 9));
  // Another organization's customers never appear.
  for (const code of ['A-100', 'X-1', 'X-2']) {
    expect((await post(URL, { code, legal_name: 'Alpha Holdings Sdn Bhd' }, sibling.owner.apiKey)).statusCode).toBe(201);
  }
  return { org, sibling, specs, token: org.owner.apiKey };
}

type World = Awaited<ReturnType<typeof listWorld>>;
let shared: Promise<World> | undefined;
/** Walk and filter tests only read, so they share one world (built on first use). */
const readWorld = () => (shared ??= listWorld());

async function walk(token: string, params: Record<string, string | number | undefined>, limit: number) {
  const items: any[] = [];
  let cursor: string | undefined;
  let pages = 0;
  for (;;) {
    const res = await get(`${URL}${qs({ ...params, limit, cursor })}`, token);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.customers.length).toBeLessThanOrEqual(limit);
    items.push(...body.customers);
    pages += 1;
    expect(pages).toBeLessThan(200);
    if (body.next_cursor === null) break;
    expect(body.customers.length).toBe(limit);
    cursor = body.next_cursor;
  }
  return { items, pages };
}

const ORDER_SQL: Record<string, string> = {
  code: 'code collate "C"',
  legal_name: 'lower(legal_name) collate "C"',
  created_at: 'created_at',
};

/** The order the list promises, written independently of the list's own query. */
async function expectedOrder(organizationId: string, sort: string, order: 'asc' | 'desc') {
  const rows = await queryRows<{ id: string }>(
    t.db,
    sql`select id from customers where organization_id = ${organizationId} order by ${sql.raw(ORDER_SQL[sort]!)} ${sql.raw(order)}, id ${sql.raw(order)}`,
  );
  return rows.map((r) => r.id);
}

describe('GET /v1/receivables/customers walks every page', () => {
  for (const sort of ['code', 'legal_name', 'created_at'] as const) {
    for (const order of ['asc', 'desc'] as const) {
      it(`by ${sort} ${order}: every customer exactly once, in order, ties broken by id`, async () => {
        const w = await readWorld();
        const expected = await expectedOrder(w.org.id, sort, order);
        expect(expected).toHaveLength(14);
        const { items, pages } = await walk(w.token, { sort, order }, 3);
        expect(items.map((c) => c.id)).toEqual(expected);
        expect(pages).toBe(5);
        if (sort === 'legal_name') {
          // Case-insensitive: the four spellings of Alpha Holdings stand together, by id.
          const alpha = items.map((c, i) => [c.legal_name.toLowerCase(), i] as const).filter(([n]) => n === 'alpha holdings sdn bhd').map(([, i]) => i);
          expect(alpha).toHaveLength(4);
          expect(alpha[3]! - alpha[0]!).toBe(3);
        }
      });
    }
  }

  it('by default: code ascending (bytewise), 25 to a page, every contract field on each item', async () => {
    const w = await readWorld();
    const res = await get(URL, w.token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.next_cursor).toBeNull();
    expect(body.customers.map((c: any) => c.code)).toEqual([
      'A-100', 'B-200', 'B-201', 'C-300', 'C_301', 'D-400', 'E-500', 'F-600', 'G-700', 'H-800', 'I-900', 'J-950', 'K-990', 'a-101',
    ]);
    const one = (await get(`${URL}/${w.specs[7]!.id}`, w.token)).json();
    expect(body.customers.find((c: any) => c.id === w.specs[7]!.id)).toEqual(one);
    expect(one.is_group_company).toBe(true);
    expect(body.customers.find((c: any) => c.code === 'B-201')).toMatchObject({ is_active: false, revision: 2 });
  });

  it('a page of exactly the remaining rows ends with next_cursor null', async () => {
    const w = await readWorld();
    const { items, pages } = await walk(w.token, {}, 7);
    expect(items).toHaveLength(14);
    expect(pages).toBe(2);
    const all = (await get(`${URL}${qs({ limit: 14 })}`, w.token)).json();
    expect(all.next_cursor).toBeNull();
    expect(all.customers).toHaveLength(14);
  });
});

describe('GET /v1/receivables/customers filters', () => {
  const cases: { name: string; params: Record<string, string>; keep: (s: Spec) => boolean }[] = [
    { name: 'q on the legal name, any case', params: { q: 'hOLDINGS' }, keep: (s) => s.legalName.toLowerCase().includes('holdings') },
    { name: 'q on the code, any case', params: { q: 'a-10' }, keep: (s) => s.code.toLowerCase().startsWith('a-10') },
    { name: 'q with a literal % and _', params: { q: '50%_' }, keep: (s) => s.legalName.includes('50%_') },
    { name: 'q with a literal _ (not a wildcard)', params: { q: 'C_3' }, keep: (s) => s.code === 'C_301' },
    { name: 'is_active=true', params: { is_active: 'true' }, keep: (s) => s.active },
    { name: 'is_active=false', params: { is_active: 'false' }, keep: (s) => !s.active },
    { name: 'group=only', params: { group: 'only' }, keep: (s) => s.group },
    { name: 'group=none', params: { group: 'none' }, keep: (s) => !s.group },
    { name: 'combined: q, is_active and group=none', params: { q: 'trading', is_active: 'true', group: 'none' }, keep: (s) => s.active && s.legalName.toLowerCase().includes('trading') },
  ];
  for (const c of cases) {
    it(`${c.name}: exactly the matching customers, each once, in order`, async () => {
      const w = await readWorld();
      const expected = w.specs.filter(c.keep).map((s) => s.id);
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(14);
      for (const sort of ['code', 'legal_name'] as const) {
        for (const order of ['asc', 'desc'] as const) {
          const { items } = await walk(w.token, { ...c.params, sort, order }, 2);
          const inOrder = (await expectedOrder(w.org.id, sort, order)).filter((id) => expected.includes(id));
          expect(items.map((x) => x.id)).toEqual(inOrder);
        }
      }
    });
  }

  it("never shows another organization's customers; no match answers an empty page", async () => {
    const w = await readWorld();
    const mine = new Set(w.specs.map((s) => s.id));
    for (const params of [{}, { q: 'Alpha' }, { q: 'X-1' }, { group: 'none' }]) {
      const { items } = await walk(w.token, params, 100);
      expect(items.every((c) => mine.has(c.id))).toBe(true);
    }
    expect((await get(`${URL}${qs({ q: 'X-1' })}`, w.token)).json()).toEqual({ customers: [], next_cursor: null });
    const theirs = (await get(URL, w.sibling.owner.apiKey)).json();
    expect(theirs.customers.map((c: any) => c.code)).toEqual(['A-100', 'X-1', 'X-2']);
  });

  it('group follows the counterparty map as at the organization today', async () => {
    const w = await readWorld();
    const only = async () => (await get(`${URL}${qs({ group: 'only' })}`, w.token)).json().customers.map((c: any) => c.code);
    expect(await only()).toEqual(['E-500']);
    t.setNow(new Date('2019-06-01T04:00:00Z'));
    try {
      expect(await only()).toEqual([]);
    } finally {
      t.setNow(undefined);
    }
  });
});

describe('GET /v1/receivables/customers while customers are created', () => {
  it('a walk sees every customer that existed when it started exactly once; new ones at most once', async () => {
    const org = await createTestOrganization(t.db);
    // A session: these many requests are not an API key's traffic (no key rate limit, no Idempotency-Key).
    const token = org.owner.session;
    let n = 0;
    const create = async (code: string) => {
      const res = await post(URL, { code, legal_name: `New ${++n}` }, token);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    const before: string[] = [];
    for (let i = 0; i < 9; i++) before.push(await create(`N-${i}`));
    for (const [sort, order] of [['created_at', 'desc'], ['created_at', 'asc'], ['code', 'asc'], ['code', 'desc']] as const) {
      const seen: string[] = [];
      const created: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; ; page++) {
        const res = await get(`${URL}${qs({ sort, order, limit: 3, cursor })}`, token);
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json();
        seen.push(...body.customers.map((c: any) => c.id));
        // Codes that sort first or last: by code, one lands behind the cursor, the next ahead of it.
        created.push(await create(`${page % 2 ? 'Z' : '0'}-${randomUUID().slice(0, 8)}`));
        if (!body.next_cursor) break;
        cursor = body.next_cursor;
      }
      expect(new Set(seen).size).toBe(seen.length);
      for (const id of before) expect(seen).toContain(id);
      // Newest first: customers created during the walk sort before the cursor and are not seen;
      // oldest first they come after it and are; by code, those ahead of the cursor are.
      if (sort === 'created_at' && order === 'desc') expect(seen.filter((id) => created.includes(id))).toEqual([]);
      else expect(seen.filter((id) => created.includes(id)).length).toBeGreaterThan(0);
      before.push(...created);
    }
  });

  describe.skipIf(!onPostgres)('on PostgreSQL, with inserts running at the same time', () => {
    it('pages never repeat a customer nor skip one that existed before the walk', async () => {
      const org = await createTestOrganization(t.db);
      const token = org.owner.session;
      const before: string[] = [];
      for (let i = 0; i < 12; i++) {
        const res = await post(URL, { code: `P-${String(i).padStart(3, '0')}`, legal_name: `Pre ${i}` }, token);
        before.push(res.json().id);
      }
      for (const sort of ['code', 'created_at', 'legal_name'] as const) {
        let stop = false;
        const writer = (async () => {
          let i = 0;
          while (!stop && i < 120) {
            const batch = await Promise.all(
              [0, 1, 2].map(() => post(URL, { code: `${i % 2 ? 'A' : 'Z'}-${randomUUID().slice(0, 8)}`, legal_name: `Concurrent ${i++}` }, token)),
            );
            for (const r of batch) expect(r.statusCode, r.body).toBe(201);
          }
        })();
        try {
          const seen: string[] = [];
          let cursor: string | undefined;
          for (;;) {
            const [page] = await Promise.all([
              get(`${URL}${qs({ sort, limit: 3, cursor })}`, token),
              post(URL, { code: `M-${randomUUID().slice(0, 8)}`, legal_name: 'Mid-walk' }, token),
            ]);
            expect(page.statusCode).toBe(200);
            const body = page.json();
            seen.push(...body.customers.map((c: any) => c.id));
            if (!body.next_cursor) break;
            cursor = body.next_cursor;
          }
          expect(new Set(seen).size).toBe(seen.length);
          for (const id of before) expect(seen).toContain(id);
        } finally {
          stop = true;
          await writer;
        }
      }
    }, 60_000);
  });
});

describe('GET /v1/receivables/customers refuses', () => {
  it('a cursor sent with another sort, order or filter (422 at /query/cursor); another limit is fine', async () => {
    const w = await readWorld();
    const first = (await get(`${URL}${qs({ sort: 'legal_name', order: 'desc', is_active: 'true', limit: 2 })}`, w.token)).json();
    const cursor = first.next_cursor as string;
    expect(cursor).toEqual(expect.any(String));
    for (const params of [
      { sort: 'code', order: 'desc', is_active: 'true' },
      { sort: 'legal_name', order: 'asc', is_active: 'true' },
      { sort: 'legal_name', order: 'desc' },
      { sort: 'legal_name', order: 'desc', is_active: 'false' },
      { sort: 'legal_name', order: 'desc', is_active: 'true', q: 'a' },
      { sort: 'legal_name', order: 'desc', is_active: 'true', group: 'none' },
    ]) {
      const p = expectProblem(await get(`${URL}${qs({ ...params, cursor })}`, w.token), 422, 'validation');
      expect(p.errors).toEqual([{ pointer: '/query/cursor', detail: expect.any(String) }]);
    }
    const next = await get(`${URL}${qs({ sort: 'legal_name', order: 'desc', is_active: 'true', limit: 5, cursor })}`, w.token);
    expect(next.statusCode).toBe(200);
  });

  it("a cursor of the invoice list is another query's cursor (422)", async () => {
    const w = await readWorld();
    const invoiceCursor = encodeCursor(SECRET, { sort: 'created_at', order: 'asc', filters: {} }, { value: '2025-01-01 00:00:00+00', id: randomUUID() });
    expectProblem(await get(`${URL}${qs({ sort: 'created_at', cursor: invoiceCursor })}`, w.token), 422, 'validation');
  });

  it('a cursor that does not decode or verify (400 at /query/cursor)', async () => {
    const w = await readWorld();
    const good = (await get(`${URL}${qs({ limit: 2 })}`, w.token)).json().next_cursor as string;
    const [body, mac] = good.split('.') as [string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
    payload.k[1] = randomUUID();
    const forged = `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${mac}`;
    const flipped = `${body}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BB' : 'AA'}`;
    const otherSecret = encodeCursor('another-secret-0123456789', { sort: 'customers:code', order: 'asc', filters: {} }, { value: 'A', id: randomUUID() });
    for (const cursor of ['nope', 'a.b.c', forged, flipped, otherSecret, `${body}.`, good.slice(1)]) {
      const p = expectProblem(await get(`${URL}?cursor=${encodeURIComponent(cursor)}`, w.token), 400, 'invalid_request');
      expect(p.errors).toEqual([{ pointer: '/query/cursor', detail: expect.any(String) }]);
    }
    // Signed with the right secret but carrying a value the sort cannot hold: still 400, never a 500.
    for (const [sort, value] of [['created_at', "x'); drop table customers; --"], ['code', null]] as const) {
      const odd = encodeCursor(SECRET, { sort: `customers:${sort}`, order: 'asc', filters: {} }, { value, id: randomUUID() });
      expectProblem(await get(`${URL}?sort=${sort}&cursor=${encodeURIComponent(odd)}`, w.token), 400, 'invalid_request');
    }
    const notAnId = encodeCursor(SECRET, { sort: 'customers:code', order: 'asc', filters: {} }, { value: 'A', id: 'nope' });
    expectProblem(await get(`${URL}?cursor=${encodeURIComponent(notAnId)}`, w.token), 400, 'invalid_request');
  });

  it('malformed parameters (400) and broken rules (422), naming the parameter', async () => {
    const w = await readWorld();
    const cases: [string, number, string][] = [
      ['is_active=yes', 400, '/query/is_active'],
      ['is_active=1', 400, '/query/is_active'],
      ['is_active=TRUE', 400, '/query/is_active'],
      ['group=some', 400, '/query/group'],
      ['sort=name', 400, '/query/sort'],
      ['order=up', 400, '/query/order'],
      ['limit=0', 400, '/query/limit'],
      ['limit=101', 400, '/query/limit'],
      ['limit=ten', 400, '/query/limit'],
      ['unknown=1', 400, '/query/unknown'],
      ['q=a%01b', 400, '/query/q'],
      [`q=${'x'.repeat(101)}`, 422, '/query/q'],
    ];
    for (const [query, status, pointer] of cases) {
      const res = await get(`${URL}?${query}`, w.token);
      const p = expectProblem(res, status, status === 400 ? 'invalid_request' : 'validation');
      expect(p.errors?.map((e) => e.pointer), query).toContain(pointer);
    }
    expect((await get(`${URL}?q=${'x'.repeat(100)}`, w.token)).statusCode).toBe(200);
    expect((await get(`${URL}?limit=100`, w.token)).statusCode).toBe(200);
    expect((await get(`${URL}?limit=1`, w.token)).json().customers).toHaveLength(1);
  });

  it('without authentication (401) or without receivables.customer.read (403)', async () => {
    const w = await readWorld();
    expectProblem(await get(URL), 401, 'unauthenticated');
    const employee = await createTestMember(t.db, w.org.id, { role: 'employee' });
    expectProblem(await get(URL, employee.apiKey), 403, 'forbidden');
    const viewer = await createTestMember(t.db, w.org.id, { role: 'viewer' });
    expect((await get(URL, viewer.session)).json().customers).toHaveLength(14);
  });

  it('over tRPC: receivables.customers.list answers the same page', async () => {
    const w = await readWorld();
    const caller = createInProcessClient(t.deps, { token: w.token });
    const page = await caller.receivables.customers.list({ sort: 'legal_name', limit: 5, is_active: true });
    const rest = (await get(`${URL}${qs({ sort: 'legal_name', limit: 5, is_active: 'true' })}`, w.token)).json();
    expect(page).toEqual(rest);
    // The query's string form is read the same from a tRPC caller: "false" is false, never true.
    const inactive = await caller.receivables.customers.list({ is_active: 'false' } as never);
    expect(inactive.customers.map((c) => c.is_active)).toEqual([false, false, false]);
  });
});

describe('POST /v1/receivables/customers', () => {
  it('creates the customer: 201, Location, ETag, every field as sent, defaults filled in', async () => {
    const org = await createTestOrganization(t.db);
    const body = {
      code: ' SG-001 ',
      legal_name: 'Lion City Traders Pte Ltd',
      party_kind: 'organization',
      currency: 'SGD',
      country_code: 'SG',
      payment_terms_days: 45,
      address: { line1: '1 Raffles Place', city: 'Singapore', postcode: '048616' },
      email: 'ap@lioncity.example.sg',
      phone: '+6561234567',
      registration_no: '201912345K',
      registration_type: 'brn',
      sst_registration_no: null,
      tin: 'C99999999999',
    };
    const res = await post(URL, body, org.owner.apiKey);
    expect(res.statusCode, res.body).toBe(201);
    const c = res.json();
    expect(res.headers.location).toBe(`${URL}/${c.id}`);
    expect(res.headers.etag).toBe('"1"');
    expect(c).toEqual({
      id: expect.any(String),
      code: 'SG-001',
      legal_name: 'Lion City Traders Pte Ltd',
      party_kind: 'organization',
      address: { line1: '1 Raffles Place', city: 'Singapore', postcode: '048616' },
      country_code: 'SG',
      currency: 'SGD',
      payment_terms_days: 45,
      is_active: true,
      reminders_off: false,
      is_group_company: false,
      revision: 1,
      custom_fields: {},
      default_revenue_account_id: null,
      default_tax_code_id: null,
      email: 'ap@lioncity.example.sg',
      phone: '+6561234567',
      registration_no: '201912345K',
      registration_type: 'brn',
      sst_registration_no: null,
      tin: 'C99999999999',
    });
    expect((await get(String(res.headers.location), org.owner.apiKey)).json()).toEqual(c);
    const plain = (await post(URL, { code: 'MY-1', legal_name: 'Kedai' }, org.owner.apiKey)).json();
    expect(plain).toMatchObject({ country_code: 'MY', currency: 'MYR', payment_terms_days: 30, party_kind: 'organization', is_active: true });
  });

  it('is idempotent with an API key: key required, replay, reuse refused', async () => {
    const org = await createTestOrganization(t.db);
    const target = customerRestCreateTarget();
    const missing = await post(URL, target.body('a'), org.owner.apiKey, { 'idempotency-key': '' });
    expectProblem(missing, 422, 'idempotency_key_required');
    const first = await post(URL, target.body('a'), org.owner.apiKey, { 'idempotency-key': 'cust-1' });
    expect(first.statusCode).toBe(201);
    const again = await post(URL, target.body('a'), org.owner.apiKey, { 'idempotency-key': 'cust-1' });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.headers.etag).toBe('"1"');
    expectProblem(await post(URL, target.body('b'), org.owner.apiKey, { 'idempotency-key': 'cust-1' }), 409, 'idempotency_key_reused');
    expect(await target.countRecords(t.db, org.id)).toBe(1);
    expect(await countIdempotencyKeys(t.db, org.id)).toBe(1);
    // With a session the key is optional.
    expect((await post(URL, target.body('c'), org.owner.session, { 'idempotency-key': '' })).statusCode).toBe(201);
  });

  it('refuses: a code in use (409 at /code), unknown country or currency (422), alpha-3 or lower case (400), no permission (403)', async () => {
    const org = await createTestOrganization(t.db);
    expect((await post(URL, { code: 'DUP', legal_name: 'One' }, org.owner.apiKey)).statusCode).toBe(201);
    const dup = expectProblem(await post(URL, { code: ' DUP ', legal_name: 'Two' }, org.owner.apiKey), 409, 'conflict');
    expect(dup.errors).toEqual([{ pointer: '/code', detail: 'is already in use' }]);
    const rule = expectProblem(await post(URL, { code: 'X', legal_name: 'X', country_code: 'XX', currency: 'ABC', payment_terms_days: 366 }, org.owner.apiKey), 422, 'validation');
    expect(rule.errors?.map((e) => e.pointer).sort()).toEqual(['/country_code', '/currency', '/payment_terms_days']);
    for (const country_code of ['MYS', 'my', 'M']) {
      const p = expectProblem(await post(URL, { code: 'Y', legal_name: 'Y', country_code }, org.owner.apiKey), 400, 'invalid_request');
      expect(p.errors?.[0]?.pointer).toBe('/country_code');
    }
    const clerk = await createTestMember(t.db, org.id, { role: 'clerk' });
    expectProblem(await post(URL, { code: 'Z', legal_name: 'Z' }, clerk.apiKey), 403, 'forbidden');
    expectProblem(await post(URL, { code: 'Z', legal_name: 'Z' }), 401, 'unauthenticated');
    const rows = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from customers where organization_id = ${org.id}`);
    expect(Number(rows[0]!.n)).toBe(1);
  });
});

describe('PATCH /v1/receivables/customers/{id}', () => {
  async function customerOf(org: Awaited<ReturnType<typeof createTestOrganization>>, over: Record<string, unknown> = {}) {
    const res = await post(URL, { code: `P-${randomUUID().slice(0, 8)}`, legal_name: 'Kedai Asal Sdn Bhd', address: { city: 'Ipoh' }, email: 'old@asal.example.my', ...over }, org.owner.apiKey);
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }

  it('changes the fields sent, leaves the rest, bumps the revision and answers the new ETag', async () => {
    const org = await createTestOrganization(t.db);
    await createCustomFieldDefinition(t.db, org.id, { recordType: 'customer', key: 'segment', label: 'Segment', type: 'select', options: ['Retail', 'Wholesale'] });
    const c = await customerOf(org);
    const res = await patch(
      c.id,
      {
        code: 'NEW-CODE',
        legal_name: '  Kedai Baru Sdn Bhd ',
        country_code: 'SG',
        currency: 'SGD',
        payment_terms_days: 365,
        address: { line1: '1 Raffles Place', postcode: '048616' },
        email: null,
        registration_type: 'brn',
        registration_no: '201912345K',
        is_active: false,
        custom_fields: { segment: 'Wholesale' },
      },
      org.owner.apiKey,
      { 'if-match': '"1"' },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers.etag).toBe('"2"');
    const expected = {
      ...c,
      code: 'NEW-CODE',
      legal_name: 'Kedai Baru Sdn Bhd',
      country_code: 'SG',
      currency: 'SGD',
      payment_terms_days: 365,
      address: { line1: '1 Raffles Place', postcode: '048616' },
      email: null,
      registration_type: 'brn',
      registration_no: '201912345K',
      is_active: false,
      custom_fields: { segment: 'Wholesale' },
      revision: 2,
    };
    expect(res.json()).toEqual(expected);
    const read = await get(`${URL}/${c.id}`, org.owner.apiKey);
    expect(read.json()).toEqual(expected);
    expect(read.headers.etag).toBe('"2"');

    // The change is in the settings history, before and after, in the same transaction.
    const history = await createInProcessClient(t.deps, { token: org.owner.session }).organization.settingsHistory.list({ entity: 'customers', record_id: c.id });
    expect(history.items.map((h: any) => h.action).sort()).toEqual(['create', 'update']);
    const update = history.items.find((h: any) => h.action === 'update')!;
    expect(update.before).toMatchObject({ code: c.code, revision: 1 });
    expect(update.after).toMatchObject({ code: 'NEW-CODE', revision: 2, is_active: false });

    // Over tRPC: the same procedure, If-Match from the caller's options.
    const caller = createInProcessClient(t.deps, { token: org.owner.session, ifMatch: '"2"' });
    const back = await caller.receivables.customers.update({ id: c.id, is_active: true, phone: '+60312345678' });
    expect(back).toEqual({ ...expected, is_active: true, phone: '+60312345678', revision: 3 });
  });

  it('a change that changes nothing answers the customer as it is, revision unchanged', async () => {
    const org = await createTestOrganization(t.db);
    const c = await customerOf(org);
    const res = await patch(c.id, { legal_name: c.legal_name, address: { city: 'Ipoh' } }, org.owner.apiKey, { 'if-match': '"1"' });
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toBe('"1"');
    expect(res.json()).toEqual(c);
  });

  it('refuses unknown fields and wrong types with 400, naming the field; nothing changes', async () => {
    const org = await createTestOrganization(t.db);
    const c = await customerOf(org);
    const cases: [unknown, string][] = [
      [{ colour: 'red' }, '/colour'],
      [{ party_kind: 5 }, '/party_kind'],
      [{ party_kind: 'company' }, '/party_kind'],
      [{ is_active: 'false' }, '/is_active'],
      [{ payment_terms_days: '30' }, '/payment_terms_days'],
      [{ payment_terms_days: 30.5 }, '/payment_terms_days'],
      [{ code: null }, '/code'],
      [{ address: { city: 'Ipoh', country: 'MY' } }, '/address/country'],
      [{ country_code: 'MYS' }, '/country_code'],
    ];
    for (const [body, pointer] of cases) {
      const p = expectProblem(await patch(c.id, body, org.owner.apiKey, { 'if-match': '"1"' }), 400, 'invalid_request');
      expect(p.errors?.map((e) => e.pointer), JSON.stringify(body)).toContain(pointer);
    }
    expectProblem(await patch(c.id, '{"code":', org.owner.apiKey, { 'if-match': '"1"' }), 400, 'invalid_request');
    expectProblem(await patch('not-a-uuid', { code: 'X' }, org.owner.apiKey, { 'if-match': '"1"' }), 400, 'invalid_request');
    expect((await get(`${URL}/${c.id}`, org.owner.apiKey)).json()).toEqual(c);
  });

  it('refuses blank, over-long and out-of-range values with 422 at each field; nothing changes', async () => {
    const org = await createTestOrganization(t.db);
    const c = await customerOf(org);
    const cases: [Record<string, unknown>, string[]][] = [
      [{ legal_name: '   ' }, ['/legal_name']],
      [{ legal_name: '' }, ['/legal_name']],
      [{ code: '  ' }, ['/code']],
      [{ code: 'x'.repeat(51) }, ['/code']],
      [{ legal_name: 'x'.repeat(301) }, ['/legal_name']],
      [{ email: 'x'.repeat(255) }, ['/email']],
      [{ payment_terms_days: 366 }, ['/payment_terms_days']],
      [{ payment_terms_days: -1 }, ['/payment_terms_days']],
      [{ country_code: 'XX', currency: 'ZZZ', legal_name: ' ' }, ['/country_code', '/currency', '/legal_name']],
    ];
    for (const [body, pointers] of cases) {
      const p = expectProblem(await patch(c.id, body, org.owner.apiKey, { 'if-match': '"1"' }), 422, 'validation');
      expect(p.errors?.map((e) => e.pointer).sort(), JSON.stringify(body)).toEqual(pointers);
    }
    const cf = await patch(c.id, { custom_fields: { nope: 'x' } }, org.owner.apiKey, { 'if-match': '"1"' });
    expect(expectProblem(cf, 422, 'custom_field_invalid').errors).toEqual([{ pointer: '/custom_fields/nope', detail: expect.any(String) }]);
    expect((await get(`${URL}/${c.id}`, org.owner.apiKey)).json()).toEqual(c);
  });

  it('needs If-Match: missing 428 revision_required, stale 409 revision_mismatch, malformed 400', async () => {
    const org = await createTestOrganization(t.db);
    const c = await customerOf(org);
    const missing = expectProblem(await patch(c.id, { legal_name: 'New' }, org.owner.apiKey), 428, 'revision_required');
    expect(missing.errors).toEqual([{ pointer: '/headers/if-match', detail: 'is required' }]);
    expectProblem(await patch(c.id, { legal_name: 'New' }, org.owner.apiKey, { 'if-match': 'abc' }), 400, 'invalid_request');
    expect((await patch(c.id, { legal_name: 'First' }, org.owner.apiKey, { 'if-match': '"1"' })).statusCode).toBe(200);
    const stale = expectProblem(await patch(c.id, { legal_name: 'Second' }, org.owner.apiKey, { 'if-match': '"1"' }), 409, 'revision_mismatch');
    expect(stale.errors?.[0]?.pointer).toBe('/headers/if-match');
    const now = (await get(`${URL}/${c.id}`, org.owner.apiKey)).json();
    expect(now).toMatchObject({ legal_name: 'First', revision: 2 });
    // A weak or bare revision reads the same.
    expect((await patch(c.id, { legal_name: 'Third' }, org.owner.apiKey, { 'if-match': 'W/"2"' })).statusCode).toBe(200);
    expect((await patch(c.id, { legal_name: 'Fourth' }, org.owner.apiKey, { 'if-match': '3' })).json().revision).toBe(4);
  });

  it("refuses a code another customer has (409 conflict at /code)", async () => {
    const org = await createTestOrganization(t.db);
    const a = await customerOf(org, { code: 'TAKEN' });
    const b = await customerOf(org);
    const p = expectProblem(await patch(b.id, { code: 'TAKEN' }, org.owner.apiKey, { 'if-match': '"1"' }), 409, 'conflict');
    expect(p.errors).toEqual([{ pointer: '/code', detail: 'is already in use' }]);
    expect((await get(`${URL}/${b.id}`, org.owner.apiKey)).json()).toEqual(b);
    // Its own code again is no conflict; another organization's codes do not count.
    expect((await patch(a.id, { code: 'TAKEN', legal_name: 'Renamed' }, org.owner.apiKey, { 'if-match': '"1"' })).statusCode).toBe(200);
    const other = await createTestOrganization(t.db);
    const theirs = await customerOf(other);
    expect((await patch(theirs.id, { code: 'TAKEN' }, other.owner.apiKey, { 'if-match': '"1"' })).statusCode).toBe(200);
  });

  it("another organization's customer is 404, the same answer as no customer", async () => {
    const mine = await createTestOrganization(t.db);
    const theirs = await createTestOrganization(t.db);
    const c = await createTestCustomer(t.db, theirs.id);
    const a = expectProblem(await patch(c.id, { legal_name: 'Mine now' }, mine.owner.apiKey, { 'if-match': '"1"' }), 404, 'not_found');
    const b = expectProblem(await patch(randomUUID(), { legal_name: 'Mine now' }, mine.owner.apiKey, { 'if-match': '"1"' }), 404, 'not_found');
    expect(a.detail).toBe(b.detail);
    expect((await get(`${URL}/${c.id}`, theirs.owner.apiKey)).json().legal_name).toBe(c.legalName);
  });

  it('needs receivables.customer.update (403), and authentication (401)', async () => {
    const org = await createTestOrganization(t.db);
    const c = await customerOf(org);
    for (const role of ['clerk', 'viewer', 'employee'] as const) {
      const m = await createTestMember(t.db, org.id, { role });
      const p = expectProblem(await patch(c.id, { legal_name: 'No' }, m.apiKey, { 'if-match': '"1"' }), 403, 'forbidden');
      expect(p.detail).toContain('receivables.customer.update');
    }
    const keyWithout = await createTestMember(t.db, org.id, { role: 'accountant', keyPermissions: ['receivables.customer.read', 'receivables.customer.create'] });
    expectProblem(await patch(c.id, { legal_name: 'No' }, keyWithout.apiKey, { 'if-match': '"1"' }), 403, 'forbidden');
    const accountant = await createTestMember(t.db, org.id, { role: 'accountant' });
    expect((await patch(c.id, { legal_name: 'Yes' }, accountant.session, { 'if-match': '"1"', 'idempotency-key': undefined })).statusCode).toBe(200);
    expectProblem(await t.app.inject({ method: 'PATCH', url: `${URL}/${c.id}`, headers: { 'content-type': 'application/json', 'if-match': '"2"' }, payload: '{}' }), 401, 'unauthenticated');
  });

  it('is idempotent with an API key like every write: key required, replayed with its ETag', async () => {
    const org = await createTestOrganization(t.db);
    const c = await customerOf(org);
    expectProblem(await patch(c.id, { legal_name: 'K' }, org.owner.apiKey, { 'if-match': '"1"', 'idempotency-key': undefined }), 422, 'idempotency_key_required');
    const first = await patch(c.id, { legal_name: 'K' }, org.owner.apiKey, { 'if-match': '"1"', 'idempotency-key': 'patch-1' });
    expect(first.statusCode).toBe(200);
    const again = await patch(c.id, { legal_name: 'K' }, org.owner.apiKey, { 'if-match': '"1"', 'idempotency-key': 'patch-1' });
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers.etag).toBe('"2"');
    expect(again.body).toBe(first.body);
  });

  describe.skipIf(!onPostgres)('on PostgreSQL, concurrently', () => {
    it('two changes sent with the same revision: one applies, the other is 409 revision_mismatch (the row lock)', async () => {
      const org = await createTestOrganization(t.db);
      for (let round = 0; round < 3; round++) {
        const c = await customerOf(org);
        const answers = await Promise.all(['One', 'Two', 'Three'].map((name) => patch(c.id, { legal_name: name }, org.owner.apiKey, { 'if-match': '"1"' })));
        expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409]);
        for (const a of answers.filter((x) => x.statusCode === 409)) expect(a.json().code).toBe('revision_mismatch');
        const now = (await get(`${URL}/${c.id}`, org.owner.apiKey)).json();
        expect(now.revision).toBe(2);
        expect(answers.find((a) => a.statusCode === 200)!.json().legal_name).toBe(now.legal_name);
      }
    });
  });
});
