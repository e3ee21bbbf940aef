import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createInProcessClient } from '../../src/client';
import { claims, sequences } from '../../src/db/schema';
import { createApiKey } from '../../src/services/access/admin';
import { deactivatePayoutChannel } from '../../src/services/expenses/payout-channels';
import { createClaimGroup, retireClaimGroup } from '../factories/setup';
import { createTestPayoutChannel } from '../factories/claims';
import { bearer, createTestMember, createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { expectProblem } from '../helpers/problem';

const t = useTestApp();

const file = (token: string | undefined, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/expenses/claims',
    // Writes made with an API key need an Idempotency-Key (a fresh one per filing here).
    headers: { ...(token ? bearer(token) : {}), 'content-type': 'application/json', 'idempotency-key': randomUUID(), ...headers },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

async function claimCount(organizationId: string) {
  return (await t.db.select().from(claims).where(eq(claims.organizationId, organizationId))).length;
}

describe('POST /v1/expenses/claims', () => {
  it('files a draft claim for the caller: 201, Location, ETag "1", every field of the answer', async () => {
    const org = await createTestOrganization(t.db);
    t.setNow(new Date('2026-03-04T05:06:07.000Z'));
    try {
      const res = await file(org.owner.apiKey, { title: '  Client visit, Penang (2 days)  ' });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(res.headers.etag).toBe('"1"');
      expect(res.headers.location).toBe(`/v1/expenses/claims/${body.claim.id}`);
      expect(body).toEqual({
        claim: {
          id: expect.any(String),
          reference: 'EC-2026-0001',
          title: 'Client visit, Penang (2 days)',
          claimant_member_id: org.owner.id,
          claimant_unit_name: null,
          group_id: null,
          payout_channel_id: null,
          currency: 'MYR',
          state: 'draft',
          semantic: 'draft',
          revision: 1,
          total: '0.00',
          original_currency: null,
          original_total: null,
          multiple_currencies: false,
          merchant: null,
          category_ids: [],
          project_names: [],
          created_at: '2026-03-04T05:06:07.000Z',
          submitted_at: null,
        },
        lines: [],
        decisions: [],
        settlements: [],
        signoffs: [],
        available_transitions: [
          // An empty draft cannot be submitted yet: it has no line.
          { action_key: 'submit', to: 'review', gate: 'reporter', allowed: false, labels: { en: 'Submit', ms: 'Hantar', zh: '提交' }, requires_reason: false },
          { action_key: 'cancel', to: 'cancelled', gate: 'reporter', allowed: true, labels: { en: 'Cancel', ms: 'Batal', zh: '取消' }, requires_reason: false },
        ],
      });
      const [row] = await t.db.select().from(claims).where(eq(claims.id, body.claim.id));
      expect(row).toMatchObject({ organizationId: org.id, reference: 'EC-2026-0001', claimantMemberId: org.owner.id, revision: 1, state: 'draft', currency: 'MYR' });
    } finally {
      t.setNow(undefined);
    }
  });

  it("is in the organization's base currency", async () => {
    const org = await createTestOrganization(t.db, { baseCurrency: 'SGD' });
    const res = await file(org.owner.apiKey, { title: 'Taxi' });
    expect(res.statusCode).toBe(201);
    expect(res.json().claim.currency).toBe('SGD');
  });

  it('accepts a live claim group and one of the caller\'s own active payout channels, and explicit nulls', async () => {
    const org = await createTestOrganization(t.db);
    const group = await createClaimGroup(t.db, { organizationId: org.id, name: 'Penang roadshow' });
    const channel = await createTestPayoutChannel(t.db, org.id, org.owner.id);
    const res = await file(org.owner.session, { title: 'Roadshow meals', group_id: group.id, payout_channel_id: channel.id });
    expect(res.statusCode).toBe(201);
    expect(res.json().claim).toMatchObject({ group_id: group.id, payout_channel_id: channel.id });
    const nulls = await file(org.owner.session, { title: 'Parking', group_id: null, payout_channel_id: null });
    expect(nulls.statusCode).toBe(201);
    expect(nulls.json().claim).toMatchObject({ group_id: null, payout_channel_id: null });
  });

  describe('the claimant is always the caller', () => {
    it("a claim filed with an API key belongs to the key's owner", async () => {
      const org = await createTestOrganization(t.db);
      const employee = await createTestMember(t.db, org.id, { role: 'employee' });
      const res = await file(employee.apiKey, { title: 'Mileage to site' });
      expect(res.statusCode).toBe(201);
      expect(res.json().claim.claimant_member_id).toBe(employee.id);
      const [row] = await t.db.select().from(claims).where(eq(claims.id, res.json().claim.id));
      expect(row?.claimantMemberId).toBe(employee.id);
    });

    it('with a session it is the session\'s member', async () => {
      const org = await createTestOrganization(t.db);
      const employee = await createTestMember(t.db, org.id, { role: 'employee' });
      const res = await file(employee.session, { title: 'Mileage to site' });
      expect(res.json().claim.claimant_member_id).toBe(employee.id);
    });

    it.each([
      ['claimant_member_id', () => randomUUID()],
      ['claimant_id', () => randomUUID()],
      ['member_id', () => randomUUID()],
      ['currency', () => 'USD'],
      ['total', () => '100.00'],
      ['state', () => 'approved'],
      ['reference', () => 'EC-2026-9999'],
    ] as [string, () => unknown][])('no field lets anybody file for anybody else or set derived fields: %s is 400', async (field, value) => {
      const org = await createTestOrganization(t.db);
      const body = expectProblem(await file(org.owner.apiKey, { title: 'Lunch', [field]: value() }), 400, 'invalid_request');
      expect(body.errors).toEqual([{ pointer: `/${field}`, detail: 'is not a field this operation accepts' }]);
      expect(body.detail).toContain(field);
      expect(await claimCount(org.id)).toBe(0);
    });
  });

  describe('400: not a JSON object of the operation\'s shape', () => {
    it('body missing', async () => {
      const org = await createTestOrganization(t.db);
      const res = await t.app.inject({ method: 'POST', url: '/v1/expenses/claims', headers: { ...bearer(org.owner.apiKey), 'idempotency-key': randomUUID() } });
      expectProblem(res, 400, 'invalid_request');
    });
    it('malformed JSON', async () => {
      const org = await createTestOrganization(t.db);
      expectProblem(await file(org.owner.apiKey, '{"title":'), 400, 'invalid_request');
    });
    it('a JSON array instead of an object', async () => {
      const org = await createTestOrganization(t.db);
      expectProblem(await file(org.owner.apiKey, '[{"title":"x"}]'), 400, 'invalid_request');
    });
    it('title missing', async () => {
      const org = await createTestOrganization(t.db);
      const body = expectProblem(await file(org.owner.apiKey, {}), 400, 'invalid_request');
      expect(body.errors).toEqual([{ pointer: '/title', detail: 'is required' }]);
    });
    it.each([
      ['title', 42],
      ['title', null],
      ['title', ['Lunch']],
      ['group_id', 30],
      ['group_id', 'not-a-uuid'],
      ['group_id', true],
      ['payout_channel_id', 7],
      ['payout_channel_id', 'false'],
    ] as [string, unknown][])('%s = %j is a wrong type or format', async (field, value) => {
      const org = await createTestOrganization(t.db);
      const body = expectProblem(await file(org.owner.apiKey, { title: 'Lunch', [field]: value }), 400, 'invalid_request');
      expect(body.errors?.[0]?.pointer).toBe(`/${field}`);
      expect(body.detail).toContain(field);
      expect(await claimCount(org.id)).toBe(0);
    });
    it('a body that is not JSON is 415', async () => {
      const org = await createTestOrganization(t.db);
      expectProblem(await file(org.owner.apiKey, 'title=x', { 'content-type': 'application/x-www-form-urlencoded' }), 415);
    });
  });

  it('401 when not authenticated', async () => {
    expectProblem(await file(undefined, { title: 'Lunch' }), 401, 'unauthenticated');
    expectProblem(await file(`fk_${randomUUID()}_${'a'.repeat(43)}`, { title: 'Lunch' }), 401, 'unauthenticated');
  });

  it('403 without expenses.claim.create, by role or by key', async () => {
    const org = await createTestOrganization(t.db);
    const viewer = await createTestMember(t.db, org.id, { role: 'viewer' });
    const body = expectProblem(await file(viewer.apiKey, { title: 'Lunch' }), 403, 'forbidden');
    expect(body.detail).toContain('expenses.claim.create');
    const narrowKey = await createApiKey(t.db, { organizationId: org.id, ownerMemberId: org.owner.id, permissions: ['receivables.customer.read'] });
    expectProblem(await file(narrowKey.token, { title: 'Lunch' }), 403, 'forbidden');
    expect(await claimCount(org.id)).toBe(0);
  });

  describe('422 validation: title rules', () => {
    const refused = async (title: string, recordLanguages?: string[]) => {
      const org = await createTestOrganization(t.db, { recordLanguages });
      const body = expectProblem(await file(org.owner.apiKey, { title }), 422, 'validation');
      expect(body.errors?.map((e) => e.pointer)).toEqual(['/title']);
      expect(await claimCount(org.id)).toBe(0);
      return body;
    };
    const accepted = async (title: string, recordLanguages?: string[]) => {
      const org = await createTestOrganization(t.db, { recordLanguages });
      const res = await file(org.owner.apiKey, { title });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().claim.title as string;
    };

    it('a 201-character title', async () => {
      const body = await refused('a'.repeat(201));
      expect(body.detail).toMatch(/at most 200 characters/);
    });
    it('200 characters is accepted, counted in code points (not UTF-16 units)', async () => {
      expect(await accepted('a'.repeat(200))).toHaveLength(200);
      // 100 Han characters outside the BMP are 200 UTF-16 units but 100 characters.
      const astral = '𠀀'.repeat(150);
      expect([...(await accepted(astral, ['en', 'zh']))]).toHaveLength(150);
      await refused('𠀀'.repeat(201), ['zh']);
    });
    it('blank', async () => {
      expect((await refused('')).detail).toMatch(/blank/);
    });
    it('whitespace only', async () => {
      expect((await refused(' \t\n  ')).detail).toMatch(/blank/);
    });
    it('Cyrillic letters', async () => {
      const body = await refused('Командировка Penang');
      expect(body.detail).toMatch(/record languages/);
    });
    it('Han in an organization without zh', async () => {
      await refused('槟城出差');
    });
    it('Han in an organization with zh', async () => {
      expect(await accepted('槟城出差 2026', ['en', 'ms', 'zh'])).toBe('槟城出差 2026');
    });
    it('Latin mixed with digits and punctuation (Bahasa Malaysia too)', async () => {
      expect(await accepted('Lawatan ke Pulau Pinang #2 — 3/4 (RM 120.50), café & teh!')).toBe('Lawatan ke Pulau Pinang #2 — 3/4 (RM 120.50), café & teh!');
    });
  });

  describe('422 validation: group and payout channel', () => {
    it('an unknown group', async () => {
      const org = await createTestOrganization(t.db);
      const body = expectProblem(await file(org.owner.apiKey, { title: 'Lunch', group_id: randomUUID() }), 422, 'validation');
      expect(body.errors).toEqual([{ pointer: '/group_id', detail: 'is not a claim group of this organization' }]);
    });
    it("another organization's group reads as unknown", async () => {
      const org = await createTestOrganization(t.db);
      const other = await createTestOrganization(t.db);
      const foreign = await createClaimGroup(t.db, { organizationId: other.id, name: 'Theirs' });
      const body = expectProblem(await file(org.owner.apiKey, { title: 'Lunch', group_id: foreign.id }), 422, 'validation');
      expect(body.errors).toEqual([{ pointer: '/group_id', detail: 'is not a claim group of this organization' }]);
    });
    it('a retired group', async () => {
      const org = await createTestOrganization(t.db);
      const group = await createClaimGroup(t.db, { organizationId: org.id, name: 'Old trip' });
      await retireClaimGroup(t.db, { organizationId: org.id, id: group.id, now: new Date() });
      const body = expectProblem(await file(org.owner.apiKey, { title: 'Lunch', group_id: group.id }), 422, 'validation');
      expect(body.errors).toEqual([{ pointer: '/group_id', detail: 'names a retired claim group' }]);
      expect(await claimCount(org.id)).toBe(0);
    });
    it('a payout channel of another member, an inactive one, or one of another organization', async () => {
      const org = await createTestOrganization(t.db);
      const colleague = await createTestMember(t.db, org.id, { role: 'employee' });
      const other = await createTestOrganization(t.db);
      const theirs = await createTestPayoutChannel(t.db, org.id, colleague.id);
      const inactive = await createTestPayoutChannel(t.db, org.id, org.owner.id);
      await deactivatePayoutChannel(t.db, { organizationId: org.id, id: inactive.id });
      const foreign = await createTestPayoutChannel(t.db, other.id, other.owner.id);
      for (const id of [theirs.id, inactive.id, foreign.id, randomUUID()]) {
        const body = expectProblem(await file(org.owner.apiKey, { title: 'Lunch', payout_channel_id: id }), 422, 'validation');
        expect(body.errors).toEqual([{ pointer: '/payout_channel_id', detail: 'is not an active payout channel of yours' }]);
      }
      expect(await claimCount(org.id)).toBe(0);
    });
    it('names every field at fault in one answer', async () => {
      const org = await createTestOrganization(t.db);
      const body = expectProblem(await file(org.owner.apiKey, { title: ' ', group_id: randomUUID(), payout_channel_id: randomUUID() }), 422, 'validation');
      expect(body.errors?.map((e) => e.pointer)).toEqual(['/title', '/group_id', '/payout_channel_id']);
    });
  });

  describe('references EC-YYYY-NNNN', () => {
    it('count per organization with no gaps: a refused filing consumes no number', async () => {
      const a = await createTestOrganization(t.db);
      const b = await createTestOrganization(t.db);
      t.setNow(new Date('2026-06-01T00:00:00Z'));
      try {
        expect((await file(a.owner.apiKey, { title: 'One' })).json().claim.reference).toBe('EC-2026-0001');
        expectProblem(await file(a.owner.apiKey, { title: '' }), 422);
        expectProblem(await file(a.owner.apiKey, { title: 'x', group_id: randomUUID() }), 422);
        expect((await file(a.owner.apiKey, { title: 'Two' })).json().claim.reference).toBe('EC-2026-0002');
        expect((await file(b.owner.apiKey, { title: 'Other org' })).json().claim.reference).toBe('EC-2026-0001');
      } finally {
        t.setNow(undefined);
      }
    });

    it("restart each year, the year of the organization's today", async () => {
      const org = await createTestOrganization(t.db, { timeZone: 'Asia/Kuala_Lumpur' });
      t.setNow(new Date('2026-12-31T15:59:59Z')); // 23:59:59 in Kuala Lumpur
      try {
        expect((await file(org.owner.apiKey, { title: 'Year end' })).json().claim.reference).toBe('EC-2026-0001');
        t.setNow(new Date('2026-12-31T16:00:00Z')); // already 1 January 2027 there
        expect((await file(org.owner.apiKey, { title: 'New year' })).json().claim.reference).toBe('EC-2027-0001');
        expect((await file(org.owner.apiKey, { title: 'New year 2' })).json().claim.reference).toBe('EC-2027-0002');
      } finally {
        t.setNow(undefined);
      }
      const rows = await t.db.select().from(sequences).where(eq(sequences.organizationId, org.id));
      expect(rows.map((r) => [r.name, r.lastValue]).sort()).toEqual([
        ['claim:2026', 1],
        ['claim:2027', 2],
      ]);
    });
  });
});

describe('expenses.claims.get', () => {
  it('reads a filed claim back: the same JSON as the filing answer, with its ETag', async () => {
    const org = await createTestOrganization(t.db);
    const filed = await file(org.owner.apiKey, { title: 'Read me back' });
    const caller = createInProcessClient(t.deps, { token: org.owner.apiKey });
    expect(await caller.expenses.claims.get({ id: filed.json().claim.id })).toEqual(filed.json());
    const trpc = await t.app.inject({
      method: 'GET',
      url: `/trpc/expenses.claims.get?input=${encodeURIComponent(JSON.stringify({ id: filed.json().claim.id }))}`,
      headers: bearer(org.owner.session),
    });
    expect(trpc.statusCode).toBe(200);
    expect(trpc.headers.etag).toBe('"1"');
    expect(trpc.json().result.data).toEqual(filed.json());
  });

  it('is also the REST path GET /v1/expenses/claims/{id} (tests/http/claim-reads.test.ts)', async () => {
    const org = await createTestOrganization(t.db);
    const filed = await file(org.owner.apiKey, { title: 'On REST' });
    const res = await t.app.inject({ method: 'GET', url: `/v1/expenses/claims/${filed.json().claim.id}`, headers: bearer(org.owner.apiKey) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(filed.json());
  });

  it("another employee's claim, or another organization's, reads as absent; an approver reads it", async () => {
    const org = await createTestOrganization(t.db);
    const employee = await createTestMember(t.db, org.id, { role: 'employee' });
    const colleague = await createTestMember(t.db, org.id, { role: 'employee' });
    const accountant = await createTestMember(t.db, org.id, { role: 'accountant' });
    const other = await createTestOrganization(t.db);
    const id = (await file(employee.apiKey, { title: 'Mine' })).json().claim.id as string;
    await expect(createInProcessClient(t.deps, { token: colleague.apiKey }).expenses.claims.get({ id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(createInProcessClient(t.deps, { token: other.owner.apiKey }).expenses.claims.get({ id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(createInProcessClient(t.deps, { token: employee.apiKey }).expenses.claims.get({ id: randomUUID() })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const seen = await createInProcessClient(t.deps, { token: accountant.apiKey }).expenses.claims.get({ id });
    expect(seen.claim.claimant_member_id).toBe(employee.id);
    // The accountant is not the claimant: the reporter edges are refused to them.
    expect(seen.available_transitions.map((x) => [x.action_key, x.allowed, x.refusal?.code])).toEqual([
      ['submit', false, 'not_reporter'],
      ['cancel', false, 'not_reporter'],
    ]);
  });
});

describe('OpenAPI', () => {
  it('documents POST /expenses/claims as a 201 with Location and ETag, and the read path', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const op = doc.paths['/expenses/claims'].post;
    expect(Object.keys(op.responses)).toContain('201');
    expect(op.responses['201'].headers).toHaveProperty('Location');
    expect(op.responses['201'].headers).toHaveProperty('ETag');
    expect(op.responses['200']).toBeUndefined();
    expect(doc.paths['/expenses/claims/{id}'].get.responses['200'].headers.ETag).toBeDefined();
    const claimKeys = Object.keys(doc.components.schemas.Claim.properties);
    expect(claimKeys).toContain('claimant_unit_name');
    const inputProps = Object.keys(op.requestBody.content['application/json'].schema.properties ?? {});
    expect(inputProps.sort()).toEqual(['group_id', 'payout_channel_id', 'title']);
  });
});

