import { describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/services/access/admin';
import { createAccount, createTaxCode } from '../factories/setup';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';
import { expectProblem } from '../helpers/problem';

/**
 * GET /v1/settings/accounts and GET /v1/settings/tax-codes: the set-up lists settings.accounts.list
 * and settings.taxCodes.list over REST, read only, for integrators preparing invoices.
 */
const t = useTestApp();
const { post, get } = httpHelpers(t);

const LISTS = [
  { url: '/v1/settings/accounts', procedure: 'settings.accounts.list' },
  { url: '/v1/settings/tax-codes', procedure: 'settings.taxCodes.list' },
] as const;

async function trpcList(procedure: string, input: unknown, token: string) {
  const res = await t.app.inject({ method: 'GET', url: `/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`, headers: { authorization: `Bearer ${token}` } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result.data as { items: any[]; next_cursor: string | null };
}

/** Follows next_cursor to the end over REST. */
async function walk(url: string, token: string, query: string, limit: number) {
  const items: any[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const res = await get(`${url}?limit=${limit}${query ? `&${query}` : ''}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, token);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['items', 'next_cursor']);
    expect(body.items.length).toBeLessThanOrEqual(limit);
    items.push(...body.items);
    if (body.next_cursor === null) return items;
    cursor = body.next_cursor;
  }
  throw new Error('no end');
}

async function world() {
  const org = await createTestOrganization(t.db);
  const other = await createTestOrganization(t.db);
  const retiredAccount = await createAccount(t.db, org.id, { code: '4999', name: 'Old revenue', active: false });
  const retiredTax = await createTaxCode(t.db, org.id, { code: 'SV-5-OLD', name: 'Service tax 5% (old)', rate: '5', taxType: '02', active: false });
  const theirs = await createAccount(t.db, other.id, { code: '4998', name: 'Their revenue' });
  return { org, other, retiredAccount, retiredTax, theirs };
}

describe('GET /v1/settings/accounts and /v1/settings/tax-codes', () => {
  for (const list of LISTS) {
    it(`${list.url}: the same pages as ${list.procedure}, by code, active only by default; include_inactive adds the retired`, async () => {
      const w = await world();
      const token = w.org.owner.apiKey;
      const viaTrpc = await trpcList(list.procedure, { limit: 100 }, token);
      expect(viaTrpc.items.length).toBeGreaterThan(3);
      const walked = await walk(list.url, token, '', 2);
      expect(walked).toEqual(viaTrpc.items);
      expect(walked.every((r) => r.active === true)).toBe(true);
      const codes = walked.map((r) => r.code);
      expect(codes).toEqual([...codes].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      const all = await walk(list.url, token, 'include_inactive=true', 3);
      expect(all).toEqual((await trpcList(list.procedure, { limit: 100, include_inactive: true }, token)).items);
      const retiredId = list.url.endsWith('accounts') ? w.retiredAccount.id : w.retiredTax.id;
      expect(all.find((r) => r.id === retiredId)).toMatchObject({ active: false });
      expect(walked.map((r) => r.id)).not.toContain(retiredId);
      expect(all.map((r) => r.id)).not.toContain(w.theirs.id);
      // A first page of the set-up lists' default size (50).
      const first = (await get(list.url, token)).json();
      expect(first.items).toEqual(walked.slice(0, 50));
      expect(first.next_cursor === null).toBe(walked.length <= 50);
    });
  }

  it('answers what a line needs: the account and tax code ids with their codes, types and rates', async () => {
    const w = await world();
    const accounts = await walk('/v1/settings/accounts', w.org.owner.apiKey, '', 100);
    expect(accounts.find((a) => a.code === '4010')).toEqual({ id: expect.any(String), code: '4010', name: expect.any(String), type: 'revenue', active: true, revision: 1 });
    const taxCodes = await walk('/v1/settings/tax-codes', w.org.owner.apiKey, '', 100);
    expect(taxCodes.find((c) => c.code === 'SV-8')).toMatchObject({ rate: '8', tax_type: '02', active: true });
  });

  it('with organization.settings.read, whatever else the key may do; without it 403; without a credential 401', async () => {
    const w = await world();
    const reader = await createApiKey(t.db, { organizationId: w.org.id, ownerMemberId: w.org.owner.id, permissions: ['organization.settings.read'] });
    const invoicesOnly = await createApiKey(t.db, { organizationId: w.org.id, ownerMemberId: w.org.owner.id, permissions: ['receivables.invoice.create', 'receivables.invoice.read'] });
    const viewer = await createTestMember(t.db, w.org.id, { role: 'viewer' });
    for (const list of LISTS) {
      expect((await get(list.url, reader.token)).statusCode).toBe(200);
      expect((await get(list.url, viewer.apiKey)).statusCode).toBe(200);
      expectProblem(await get(list.url, invoicesOnly.token), 403, 'forbidden');
      expectProblem(await get(list.url), 401, 'unauthenticated');
    }
  });

  it('refuses malformed parameters (400), a cursor sent with another include_inactive (422), and writes (no such operation)', async () => {
    const w = await world();
    const token = w.org.owner.apiKey;
    for (const list of LISTS) {
      for (const [query, pointer] of [
        ['limit=0', '/query/limit'],
        ['limit=101', '/query/limit'],
        ['limit=ten', '/query/limit'],
        ['include_inactive=yes', '/query/include_inactive'],
        ['include_inactive=1', '/query/include_inactive'],
        ['cursor=nope', '/query/cursor'],
        ['code=4010', '/query/code'],
      ] as const) {
        const p = expectProblem(await get(`${list.url}?${query}`, token), 400, 'invalid_request');
        expect(p.errors?.map((e) => e.pointer), `${list.url}?${query}`).toContain(pointer);
      }
      const cursor = (await get(`${list.url}?limit=1`, token)).json().next_cursor as string;
      expect(cursor).toEqual(expect.any(String));
      const p = expectProblem(await get(`${list.url}?limit=1&include_inactive=true&cursor=${encodeURIComponent(cursor)}`, token), 422, 'validation');
      expect(p.errors).toEqual([{ pointer: '/query/cursor', detail: expect.any(String) }]);
      expect((await get(`${list.url}?limit=1&include_inactive=false&cursor=${encodeURIComponent(cursor)}`, token)).statusCode).toBe(200);
      // Changes stay tRPC only.
      const write = await post(list.url, { code: 'X1', name: 'X', type: 'revenue' }, token);
      expect([404, 405]).toContain(write.statusCode);
    }
  });

  it('are documented in the OpenAPI document under Settings, read only', async () => {
    const doc = (await get('/v1/openapi.json')).json();
    for (const path of ['/settings/accounts', '/settings/tax-codes']) {
      expect(Object.keys(doc.paths[path] ?? {})).toEqual(['get']);
      expect(doc.paths[path].get.tags).toEqual(['Settings']);
      expect(doc.paths[path].get.description).toContain('organization.settings.read');
      expect(doc.paths[path].get.parameters.map((p: any) => p.name).sort()).toEqual(['cursor', 'include_inactive', 'limit']);
    }
  });
});
