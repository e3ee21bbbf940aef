import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encodeCursor } from '../../src/lib/cursor';
import { decide } from '../factories/approvals';
import { insertDelegation, setClaimCreatedAt, submitForSignoff } from '../factories/claim-access';
import { addClaimLine, createClaimReferenceData } from '../factories/claims';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';
import { expectProblem } from '../helpers/problem';

/** GET /v1/expenses/claims over HTTP: scopes mine and all, filters, keyset pages, refusals. to_act's paging: list-claims-to-act.test.ts. */
const t = useTestApp();
const { post, get } = httpHelpers(t);
const URL = '/v1/expenses/claims';
const SECRET = 'test-cursor-secret-0123456789';
const NOW = new Date('2026-05-10T04:00:00Z');
const klMonth = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kuala_Lumpur', year: 'numeric', month: '2-digit' }).format(d).slice(0, 7);

interface Spec {
  id: string;
  reference: string;
  title: string;
  state: string;
  createdAt: Date;
}

/**
 * 33 claims of one employee across three months (ties on created_at, two on either side of a month
 * boundary in Kuala Lumpur), in draft, submitted and cancelled; a colleague's claims, two of them
 * awaiting a sign-off by a viewer (one directly, one through a delegation); another organization's.
 */
async function listWorld() {
  const org = await createTestOrganization(t.db);
  const employee = await createTestMember(t.db, org.id, { role: 'employee' });
  const colleague = await createTestMember(t.db, org.id, { role: 'employee' });
  const accountant = await createTestMember(t.db, org.id, { role: 'accountant' });
  const approver = await createTestMember(t.db, org.id, { role: 'viewer' });
  const delegate = await createTestMember(t.db, org.id, { role: 'viewer' });
  const stranger = await createTestMember(t.db, org.id, { role: 'employee' });
  const ref = await createClaimReferenceData(t.db, org.id);
  const specs: Spec[] = [];
  for (let i = 0; i < 33; i++) {
    const title = i === 7 ? 'Promo 100%_off lunch' : i === 8 ? 'Promo 100 off' : i % 3 === 0 ? `Penang trip ${i}` : `KL errand ${i}`;
    const res = await post(URL, { title }, employee.apiKey);
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().claim.id as string;
    let createdAt = new Date(Date.UTC(2026, 0, 1 + (i >= 11 && i <= 13 ? 10 : i) * 2, 3));
    if (i === 31) createdAt = new Date('2026-01-31T17:30:00Z'); // 1 February, 01:30 in Kuala Lumpur
    if (i === 32) createdAt = new Date('2026-01-31T15:59:59Z'); // 31 January, 23:59:59 there
    await setClaimCreatedAt(t.db, { organizationId: org.id, claimId: id, createdAt });
    let state = 'draft';
    if (i % 5 === 1 || i % 5 === 2) {
      const submit = i % 5 === 1;
      if (submit) {
        const line = { organizationId: org.id, claimId: id, now: NOW, type: 'receipt' as const, expenseDate: '2026-01-05', categoryId: ref.meals.id, description: 'Lunch' };
        await addClaimLine(t.db, { ...line, amount: '10.00', documentBasis: 'relaxation_receipt', relaxationReason: 'Stall', shares: [{ analyticAccountId: ref.zeta.id, percentage: '100' }] });
      }
      const moved = await decide(t, employee.session, id, submit ? 'submit' : 'cancel');
      state = moved.claim.state;
    }
    specs.push({ id, reference: res.json().claim.reference, title, state, createdAt });
  }
  const theirs: string[] = [];
  for (let i = 0; i < 4; i++) theirs.push((await post(URL, { title: `Colleague ${i}` }, colleague.apiKey)).json().claim.id);
  const share = [{ analyticAccountId: ref.zeta.id, percentage: '100' }];
  await submitForSignoff(t.db, { organizationId: org.id, claimId: theirs[0]!, categoryId: ref.meals.id, amount: '50.00', shares: share, eligible: () => [approver.id], now: NOW });
  await submitForSignoff(t.db, { organizationId: org.id, claimId: theirs[1]!, categoryId: ref.meals.id, amount: '70.00', shares: share, eligible: () => [accountant.id], now: NOW });
  await insertDelegation(t.db, { organizationId: org.id, delegatorMemberId: accountant.id, delegateMemberId: delegate.id, validFrom: '2026-05-01', validTo: '2026-05-31' });
  const other = await createTestOrganization(t.db);
  for (let i = 0; i < 2; i++) await post(URL, { title: 'Penang trip elsewhere' }, other.owner.apiKey);
  return { org, other, employee, colleague, accountant, approver, delegate, stranger, specs, theirs, token: employee.apiKey };
}

type World = Awaited<ReturnType<typeof listWorld>>;
let shared: Promise<World> | undefined;
const readWorld = () => (shared ??= listWorld());

function qs(params: Record<string, string | number | undefined>) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}

const newestFirst = (a: Spec, b: Spec) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** Follows next_cursor to the end at NOW; answers every claim in the order received and the pages. */
async function walk(token: string, params: Record<string, string | number | undefined>, limit: number) {
  const claims: any[] = [];
  let cursor: string | undefined;
  let pages = 0;
  t.setNow(NOW);
  try {
    for (;;) {
      const res = await get(`${URL}${qs({ ...params, limit, cursor })}`, token);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.claims.length).toBeLessThanOrEqual(limit);
      claims.push(...body.claims);
      pages += 1;
      expect(pages).toBeLessThan(100);
      if (body.next_cursor === null) break;
      expect(body.claims.length).toBe(limit);
      cursor = body.next_cursor;
    }
  } finally {
    t.setNow(undefined);
  }
  return { claims, pages };
}

const ids = (claims: any[]) => claims.map((c) => c.id);

describe('GET /v1/expenses/claims', () => {
  it('mine by default: the caller’s claims, newest first (ties by id), keyset pages of 7 without duplicates', async () => {
    const w = await readWorld();
    const { claims, pages } = await walk(w.token, {}, 7);
    expect(pages).toBe(5);
    expect(new Set(ids(claims)).size).toBe(33);
    expect(ids(claims)).toEqual([...w.specs].sort(newestFirst).map((s) => s.id));
    expect(ids((await walk(w.token, { scope: 'mine' }, 100)).claims)).toEqual(ids(claims));
    // Each item is the claim part of the claim answer; your_share only under to_act.
    const one = await get(`${URL}/${claims[0].id}`, w.token);
    expect(claims[0]).toEqual(one.json().claim);
    expect(claims.every((c) => !('your_share' in c))).toBe(true);
    expect((await get(URL, w.token)).json().claims).toHaveLength(25);
  });

  it('all: every claim the caller may read; not an error without approve or pay', async () => {
    const w = await readWorld();
    const every = [...w.specs.map((s) => s.id), ...w.theirs];
    expect(ids((await walk(w.accountant.apiKey, { scope: 'all' }, 7)).claims).sort()).toEqual([...every].sort());
    expect(ids((await walk(w.employee.apiKey, { scope: 'all' }, 100)).claims).sort()).toEqual(w.specs.map((s) => s.id).sort());
    // An eligible signer, and the delegate of one (today), read exactly those claims.
    expect(ids((await walk(w.approver.apiKey, { scope: 'all' }, 100)).claims)).toEqual([w.theirs[0]]);
    expect(ids((await walk(w.delegate.apiKey, { scope: 'all' }, 100)).claims)).toEqual([w.theirs[1]]);
    const res = await get(`${URL}?scope=all`, w.stranger.apiKey);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ claims: [], next_cursor: null });
    expect((await get(`${URL}?scope=all`, w.other.owner.apiKey)).json().claims).toHaveLength(2);
  });

  it('to_act: only claims with an open sign-off for the caller are looked at; each item carries your_share', async () => {
    const w = await readWorld();
    for (const member of [w.employee, w.stranger, w.colleague]) {
      expect((await walk(member.apiKey, { scope: 'to_act' }, 7)).claims).toEqual([]);
    }
    for (const member of [w.approver, w.delegate]) {
      const { claims } = await walk(member.apiKey, { scope: 'to_act' }, 7);
      // Which of them the caller may sign is the approve descriptor's `signs` (the engine's).
      expect(ids(claims).every((id) => id === w.theirs[0] || id === w.theirs[1])).toBe(true);
      expect(claims.every((c) => typeof c.your_share === 'string')).toBe(true);
    }
  });

  it('filters by state, by month of created_at in the organization’s time zone, and by q; filters combine', async () => {
    const w = await readWorld();
    const expectIds = async (params: Record<string, string>, keep: (s: Spec) => boolean) => {
      const got = ids((await walk(w.token, params, 7)).claims);
      expect(got, JSON.stringify(params)).toEqual([...w.specs].filter(keep).sort(newestFirst).map((s) => s.id));
      return got;
    };
    expect(await expectIds({ state: 'review' }, (s) => s.state === 'review')).toHaveLength(7);
    await expectIds({ state: 'cancelled' }, (s) => s.state === 'cancelled');
    await expectIds({ state: 'paid' }, () => false);
    const feb = await expectIds({ month: '2026-02' }, (s) => klMonth(s.createdAt) === '2026-02');
    expect(feb).toContain(w.specs[31]!.id);
    const jan = await expectIds({ month: '2026-01' }, (s) => klMonth(s.createdAt) === '2026-01');
    expect(jan).toContain(w.specs[32]!.id);
    await expectIds({ month: '2025-12' }, () => false);
    await expectIds({ q: 'PENANG' }, (s) => s.title.includes('Penang'));
    await expectIds({ q: '100%_' }, (s) => s.title === 'Promo 100%_off lunch');
    await expectIds({ q: w.specs[4]!.reference }, (s) => s.id === w.specs[4]!.id);
    await expectIds({ q: 'penang', state: 'review', month: '2026-01' }, (s) => s.title.includes('Penang') && s.state === 'review' && klMonth(s.createdAt) === '2026-01');
  });

  it('binds the cursor to scope and filters (422 at /query/cursor), not to limit', async () => {
    const w = await readWorld();
    const first = (await get(`${URL}${qs({ state: 'draft', month: '2026-01', limit: 2 })}`, w.token)).json();
    const cursor = first.next_cursor as string;
    expect(cursor).toEqual(expect.any(String));
    for (const params of [{ scope: 'all', state: 'draft', month: '2026-01' }, { state: 'review', month: '2026-01' }, { state: 'draft' }, { state: 'draft', month: '2026-01', q: 'KL' }, { scope: 'to_act', state: 'draft', month: '2026-01' }]) {
      const p = expectProblem(await get(`${URL}${qs({ ...params, cursor })}`, w.token), 422, 'validation');
      expect(p.errors).toEqual([{ pointer: '/query/cursor', detail: expect.any(String) }]);
    }
    const next = await get(`${URL}${qs({ scope: 'mine', state: 'draft', month: '2026-01', limit: 5, cursor })}`, w.token);
    expect(next.statusCode).toBe(200);
    expect(ids(next.json().claims).some((id) => ids(first.claims).includes(id))).toBe(false);
    // The invoice list's cursors are not claim cursors.
    const invoiceCursor = encodeCursor(SECRET, { sort: 'created_at', order: 'desc', filters: {} }, { value: '2026-01-01 00:00:00+00', id: randomUUID() });
    expectProblem(await get(`${URL}?cursor=${encodeURIComponent(invoiceCursor)}`, w.token), 422, 'validation');
  });

  it('a cursor that does not decode or verify (400 at /query/cursor)', async () => {
    const w = await readWorld();
    const good = (await get(`${URL}${qs({ limit: 2 })}`, w.token)).json().next_cursor as string;
    const [body, mac] = good.split('.') as [string, string];
    const flipped = `${body}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BB' : 'AA'}`;
    const odd = encodeCursor(SECRET, { sort: 'expense_claims:created_at', order: 'desc', filters: { scope: 'mine' } }, { value: "x'); drop table claims; --", id: randomUUID() });
    for (const cursor of ['nope', 'a.b.c', flipped, `${body}.`, good.slice(1), odd]) {
      const p = expectProblem(await get(`${URL}?cursor=${encodeURIComponent(cursor)}`, w.token), 400, 'invalid_request');
      expect(p.errors).toEqual([{ pointer: '/query/cursor', detail: expect.any(String) }]);
    }
  });

  it('malformed parameters (400) and broken rules (422), naming the parameter', async () => {
    const w = await readWorld();
    const cases: [string, number, string][] = [
      ['scope=everything', 400, '/query/scope'],
      ['scope=mine&scope=all', 400, '/query/scope'],
      ['month=2026-13', 400, '/query/month'],
      ['month=2026-1', 400, '/query/month'],
      ['month=26-01', 400, '/query/month'],
      ['month=2026-01-01', 400, '/query/month'],
      ['month=0000-01', 400, '/query/month'],
      ['limit=0', 400, '/query/limit'],
      ['limit=101', 400, '/query/limit'],
      ['limit=ten', 400, '/query/limit'],
      ['limit=2.5', 400, '/query/limit'],
      ['q=a%01b', 400, '/query/q'],
      ['unknown=1', 400, '/query/unknown'],
      [`q=${'x'.repeat(101)}`, 422, '/query/q'],
      ['state=submitted_and_paid', 422, '/query/state'],
      [`state=${'s'.repeat(101)}`, 422, '/query/state'],
    ];
    for (const [query, status, pointer] of cases) {
      const res = await get(`${URL}?${query}`, w.token);
      expect(res.statusCode, query).toBe(status);
      const p = expectProblem(res, status, status === 400 ? 'invalid_request' : 'validation');
      expect(p.errors?.map((e) => e.pointer), query).toContain(pointer);
    }
    expect((await get(`${URL}?q=${'x'.repeat(100)}`, w.token)).statusCode).toBe(200);
    expect((await get(`${URL}?limit=100&month=2026-01`, w.token)).statusCode).toBe(200);
  });

  it('without authentication (401); any member may list (no permission needed)', async () => {
    const w = await readWorld();
    expectProblem(await get(URL), 401, 'unauthenticated');
    const bare = await createTestMember(t.db, w.org.id, { role: 'viewer', keyPermissions: [] });
    expect((await get(URL, bare.apiKey)).json()).toEqual({ claims: [], next_cursor: null });
  });
});
