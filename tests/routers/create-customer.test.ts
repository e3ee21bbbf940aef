import { describe, expect, it } from 'vitest';
import { createInProcessClient } from '../../src/client';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { customerCreateTarget, sendWrite } from '../helpers/writes';

const t = useTestApp();

describe('receivables.customers.create (tRPC only)', () => {
  it('creates the customer of the caller organization: 201, ETag, Location, readable on /v1', async () => {
    const org = await createTestOrganization(t.db);
    const target = customerCreateTarget();
    const res = await sendWrite(t.app, target, {
      token: org.owner.session,
      body: { ...target.body('a'), currency: 'USD', country_code: 'US', payment_terms_days: 60, tin: 'C1234567890', address: { city: 'Ipoh' } },
    });
    expect(res.statusCode, res.body).toBe(201);
    const customer = target.record(res.json());
    expect(customer).toMatchObject({ currency: 'USD', country_code: 'US', payment_terms_days: 60, is_group_company: false, revision: 1, address: { city: 'Ipoh' } });
    expect(res.headers.etag).toBe('"1"');
    const read = await t.app.inject({ method: 'GET', url: String(res.headers.location), headers: { authorization: `Bearer ${org.owner.apiKey}` } });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(customer);
  });

  it('is not a /v1 operation', async () => {
    const org = await createTestOrganization(t.db);
    const res = await t.app.inject({ method: 'POST', url: '/v1/receivables/customers', headers: { authorization: `Bearer ${org.owner.apiKey}`, 'idempotency-key': 'x' }, payload: {} });
    expect(res.statusCode).toBe(404);
  });

  it('needs receivables.customer.create (403 for a viewer) and refuses a code in use with 409 conflict', async () => {
    const org = await createTestOrganization(t.db);
    const viewer = await createTestMember(t.db, org.id, { role: 'viewer' });
    const target = customerCreateTarget();
    const denied = await sendWrite(t.app, target, { token: viewer.session });
    expect(denied.statusCode).toBe(403);
    const accountant = await createTestMember(t.db, org.id, { role: 'accountant' });
    expect((await sendWrite(t.app, target, { token: accountant.session })).statusCode).toBe(201);
    const dup = await sendWrite(t.app, target, { token: accountant.session });
    expect(dup.statusCode).toBe(409);
    expect(target.problem(dup.json())).toMatchObject({ code: 'conflict', errors: [{ pointer: '/code', detail: 'is already in use' }] });
    expect(await target.countRecords(t.db, org.id)).toBe(1);
  });

  it('refuses unknown fields and a string number (400), blanks and lengths (422)', async () => {
    const org = await createTestOrganization(t.db);
    const caller = createInProcessClient(t.deps, { token: org.owner.session });
    const base = { code: 'X-1', legal_name: 'Kedai' };
    const e1 = await caller.receivables.customers.create({ ...base, colour: 'red' } as never).catch((e) => e);
    expect(e1.appCode).toBe('invalid_request');
    const e2 = await caller.receivables.customers.create({ ...base, payment_terms_days: '30' } as never).catch((e) => e);
    expect(e2.appCode).toBe('invalid_request');
    const e3 = await caller.receivables.customers.create({ ...base, legal_name: '' }).catch((e) => e);
    expect(e3.appCode).toBe('validation');
    const e4 = await caller.receivables.customers.create({ ...base, payment_terms_days: 366 }).catch((e) => e);
    expect(e4.appCode).toBe('validation');
    const e5 = await caller.receivables.customers.create({ ...base, legal_name: '   ' }).catch((e) => e);
    expect(e5.appCode).toBe('validation');
  });
});
