import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { revokeApiKey, revokeSession, setMemberActive, createApiKey, createSession } from '../../src/services/access/admin';
import { createCompanyGroup, createCustomFieldDefinition, mapCounterparty } from '../factories/setup';
import { createTestOrganization, createTestMember, bearer } from '../factories/organization';
import { createTestCustomer } from '../factories/customer';
import { useTestApp } from '../helpers/app';
import { expectProblem } from '../helpers/problem';

const t = useTestApp();

const get = (path: string, token?: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: path, headers: { ...(token ? bearer(token) : {}), ...headers } });

describe('GET /v1/receivables/customers/{id}', () => {
  it('answers the customer with every contract field and a quoted ETag of its revision', async () => {
    const org = await createTestOrganization(t.db);
    // Custom fields are checked against their definitions, as on every write of a customer.
    await createCustomFieldDefinition(t.db, org.id, { recordType: 'customer', key: 'region', label: 'Region', type: 'text' });
    const c = await createTestCustomer(t.db, org.id, {
      legalName: 'Kedai Maju Sdn Bhd',
      currency: 'MYR',
      paymentTermsDays: 45,
      registrationType: 'brn',
      registrationNo: '200801012345',
      tin: 'C11223344050',
      address: { line1: '12 Jalan Ampang', city: 'Kuala Lumpur', postcode: '50450', state: '14' },
      customFields: { region: 'Central' },
    });
    const res = await get(`/v1/receivables/customers/${c.id}`, org.owner.apiKey);
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toBe('"1"');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({
      id: c.id,
      code: c.code,
      legal_name: 'Kedai Maju Sdn Bhd',
      party_kind: 'organization',
      address: { line1: '12 Jalan Ampang', city: 'Kuala Lumpur', postcode: '50450', state: '14' },
      country_code: 'MY',
      currency: 'MYR',
      payment_terms_days: 45,
      is_active: true,
      reminders_off: false,
      is_group_company: false,
      revision: 1,
      custom_fields: { region: 'Central' },
      default_revenue_account_id: null,
      default_tax_code_id: null,
      email: null,
      phone: null,
      registration_no: '200801012345',
      registration_type: 'brn',
      sst_registration_no: null,
      tin: 'C11223344050',
    });
  });

  it('derives is_group_company from the counterparty map as at the organization today', async () => {
    const org = await createTestOrganization(t.db);
    const sibling = await createTestOrganization(t.db);
    const outsider = await createTestOrganization(t.db);
    await createCompanyGroup(t.db, `G ${randomUUID()}`, [org.id, sibling.id]);
    const current = await createTestCustomer(t.db, org.id);
    const ended = await createTestCustomer(t.db, org.id);
    const future = await createTestCustomer(t.db, org.id);
    const notInGroup = await createTestCustomer(t.db, org.id);
    await mapCounterparty(t.db, { organizationId: org.id, customerId: current.id, companyOrganizationId: sibling.id, validFrom: '2020-01-01' });
    await mapCounterparty(t.db, { organizationId: org.id, customerId: ended.id, companyOrganizationId: sibling.id, validFrom: '2020-01-01', validTo: '2021-12-31' });
    await mapCounterparty(t.db, { organizationId: org.id, customerId: future.id, companyOrganizationId: sibling.id, validFrom: '2999-01-01' });
    await mapCounterparty(t.db, { organizationId: org.id, customerId: notInGroup.id, companyOrganizationId: outsider.id, validFrom: '2020-01-01' });
    const flag = async (id: string) => (await get(`/v1/receivables/customers/${id}`, org.owner.apiKey)).json().is_group_company;
    expect(await flag(current.id)).toBe(true);
    expect(await flag(ended.id)).toBe(false);
    expect(await flag(future.id)).toBe(false);
    expect(await flag(notInGroup.id)).toBe(false);

    // The map is dated: as at 2021-06-01 the ended mapping still held.
    t.setNow(new Date('2021-06-01T04:00:00Z'));
    try {
      expect(await flag(ended.id)).toBe(true);
    } finally {
      t.setNow(undefined);
    }
  });

  it('accepts a session token as well as an API key', async () => {
    const org = await createTestOrganization(t.db);
    const c = await createTestCustomer(t.db, org.id);
    const res = await get(`/v1/receivables/customers/${c.id}`, org.owner.session);
    expect(res.statusCode).toBe(200);
    expect(res.json().id).toBe(c.id);
  });

  describe('401 for every bad credential', () => {
    it.each([
      ['no Authorization header', undefined],
      ['a scheme other than Bearer', 'Basic dXNlcjpwYXNz'],
      ['a malformed token', 'Bearer not-a-token'],
      ['an unknown key id', `Bearer fk_${randomUUID()}_${'a'.repeat(43)}`],
      ['an unknown session', `Bearer fs_${'b'.repeat(43)}`],
    ] as [string, string | undefined][])('%s', async (_name, authorization) => {
      const org = await createTestOrganization(t.db);
      const c = await createTestCustomer(t.db, org.id);
      const res = await t.app.inject({ method: 'GET', url: `/v1/receivables/customers/${c.id}`, headers: authorization ? { authorization } : {} });
      expectProblem(res, 401, 'unauthenticated');
      expect(res.headers['www-authenticate']).toBe('Bearer');
    });

    it('a known key id with the wrong secret', async () => {
      const org = await createTestOrganization(t.db);
      const c = await createTestCustomer(t.db, org.id);
      const forged = org.owner.apiKey.replace(/_[^_]+$/, '_') + 'x'.repeat(43);
      expectProblem(await get(`/v1/receivables/customers/${c.id}`, forged), 401, 'unauthenticated');
    });

    it('a revoked key and a revoked session', async () => {
      const org = await createTestOrganization(t.db);
      const c = await createTestCustomer(t.db, org.id);
      await revokeApiKey(t.db, { organizationId: org.id, id: org.owner.apiKeyId, now: new Date() });
      await revokeSession(t.db, { organizationId: org.id, id: org.owner.sessionId, now: new Date() });
      const k = expectProblem(await get(`/v1/receivables/customers/${c.id}`, org.owner.apiKey), 401, 'unauthenticated');
      expect(k.detail).toMatch(/revoked/);
      const s = expectProblem(await get(`/v1/receivables/customers/${c.id}`, org.owner.session), 401, 'unauthenticated');
      expect(s.detail).toMatch(/no longer valid/);
    });

    it('an expired key and an expired session', async () => {
      const org = await createTestOrganization(t.db);
      const c = await createTestCustomer(t.db, org.id);
      const past = new Date(Date.now() - 60_000);
      const key = await createApiKey(t.db, { organizationId: org.id, ownerMemberId: org.owner.id, permissions: ['receivables.customer.read'], expiresAt: past });
      const session = await createSession(t.db, { organizationId: org.id, memberId: org.owner.id, now: new Date(Date.now() - 3600_000), expiresAt: past });
      expect(expectProblem(await get(`/v1/receivables/customers/${c.id}`, key.token), 401).detail).toMatch(/expired/);
      expect(expectProblem(await get(`/v1/receivables/customers/${c.id}`, session.token), 401).detail).toMatch(/no longer valid/);
    });

    it('a session and a key of a member who is no longer active', async () => {
      const org = await createTestOrganization(t.db);
      const c = await createTestCustomer(t.db, org.id);
      const m = await createTestMember(t.db, org.id, { role: 'viewer' });
      expect((await get(`/v1/receivables/customers/${c.id}`, m.session)).statusCode).toBe(200);
      await setMemberActive(t.db, { organizationId: org.id, memberId: m.id, active: false });
      expectProblem(await get(`/v1/receivables/customers/${c.id}`, m.session), 401, 'unauthenticated');
      expectProblem(await get(`/v1/receivables/customers/${c.id}`, m.apiKey), 401, 'unauthenticated');
    });
  });

  describe('403 without receivables.customer.read', () => {
    it('a member whose role lacks it', async () => {
      const org = await createTestOrganization(t.db);
      const c = await createTestCustomer(t.db, org.id);
      const employee = await createTestMember(t.db, org.id, { role: 'employee' });
      const body = expectProblem(await get(`/v1/receivables/customers/${c.id}`, employee.apiKey), 403, 'forbidden');
      expect(body.detail).toContain('receivables.customer.read');
      expectProblem(await get(`/v1/receivables/customers/${c.id}`, employee.session), 403, 'forbidden');
    });

    it('a key whose permissions do not include it, though its owner has it', async () => {
      const org = await createTestOrganization(t.db);
      const c = await createTestCustomer(t.db, org.id);
      const m = await createTestMember(t.db, org.id, { role: 'owner', keyPermissions: ['receivables.invoice.read'] });
      expectProblem(await get(`/v1/receivables/customers/${c.id}`, m.apiKey), 403, 'forbidden');
    });

    it("a key carrying it while its owner's role does not (key ∩ owner)", async () => {
      const org = await createTestOrganization(t.db);
      const c = await createTestCustomer(t.db, org.id);
      const m = await createTestMember(t.db, org.id, { role: 'employee', keyPermissions: ['receivables.customer.read'] });
      expectProblem(await get(`/v1/receivables/customers/${c.id}`, m.apiKey), 403, 'forbidden');
    });
  });

  it('404 for a customer of another organization, the same answer as for a random id', async () => {
    const mine = await createTestOrganization(t.db);
    const theirs = await createTestOrganization(t.db);
    const foreign = await createTestCustomer(t.db, theirs.id);
    const a = expectProblem(await get(`/v1/receivables/customers/${foreign.id}`, mine.owner.apiKey), 404, 'not_found');
    const b = expectProblem(await get(`/v1/receivables/customers/${randomUUID()}`, mine.owner.apiKey), 404, 'not_found');
    expect(a.detail).toBe(b.detail);
    expect(a.title).toBe(b.title);
  });

  it('400 for a malformed id, naming the path parameter', async () => {
    const org = await createTestOrganization(t.db);
    const body = expectProblem(await get('/v1/receivables/customers/not-a-uuid', org.owner.apiKey), 400, 'invalid_request');
    expect(body.errors).toEqual([{ pointer: '/path/id', detail: 'must be a UUID' }]);
    expect(body.instance).toBe('/v1/receivables/customers/not-a-uuid');
  });

  it('400 for an unknown query field, naming it', async () => {
    const org = await createTestOrganization(t.db);
    const c = await createTestCustomer(t.db, org.id);
    const body = expectProblem(await get(`/v1/receivables/customers/${c.id}?expand=all`, org.owner.apiKey), 400, 'invalid_request');
    expect(body.errors).toEqual([{ pointer: '/query/expand', detail: 'is not a field this operation accepts' }]);
    expect(body.detail).toContain('expand');
  });

  it('404 problem for an unknown path under /v1 and X-Request-Id on every answer', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/no/such/thing' });
    expectProblem(res, 404, 'not_found');
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
    expect(res.json().request_id).toBe(res.headers['x-request-id']);
  });
});

describe('fastify refusals on /v1 are problems too', () => {
  it('malformed JSON is 400', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/receivables/customers', headers: { 'content-type': 'application/json' }, payload: '{"a":' });
    expectProblem(res, 400, 'invalid_request');
  });
  it('a body that is not JSON is 415', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/receivables/customers', headers: { 'content-type': 'text/csv' }, payload: 'a,b' });
    expectProblem(res, 415, 'unsupported_media_type');
  });
  it('a body over the limit is 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/receivables/customers',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ x: 'a'.repeat(1024 * 1024 + 10) }),
    });
    expectProblem(res, 413, 'payload_too_large');
  });
});
