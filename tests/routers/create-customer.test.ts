import { describe, expect, it } from 'vitest';
import { createInProcessClient } from '../../src/client';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { createCustomFieldDefinition } from '../factories/setup';
import { createReceivablesSetup } from '../factories/receivables';
import { onPostgres, useTestApp } from '../helpers/app';
import { customerCreateTarget, sendWrite } from '../helpers/writes';

const t = useTestApp();

describe('receivables.customers.create (tRPC, and POST /v1/receivables/customers)', () => {
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

  it('is also the /v1 operation POST /v1/receivables/customers: the same procedure answers the same customer', async () => {
    const org = await createTestOrganization(t.db);
    const empty = await t.app.inject({ method: 'POST', url: '/v1/receivables/customers', headers: { authorization: `Bearer ${org.owner.apiKey}`, 'idempotency-key': 'x' }, payload: {} });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(['/code', '/legal_name']);
    const body = { code: 'REST-1', legal_name: 'Kedai Rest Sdn Bhd', country_code: 'SG', currency: 'SGD' };
    const rest = await t.app.inject({ method: 'POST', url: '/v1/receivables/customers', headers: { authorization: `Bearer ${org.owner.apiKey}`, 'idempotency-key': 'rest-1' }, payload: body });
    expect(rest.statusCode, rest.body).toBe(201);
    expect(rest.headers.location).toBe(`/v1/receivables/customers/${rest.json().id}`);
    expect(rest.headers.etag).toBe('"1"');
    const target = customerCreateTarget();
    const trpc = await sendWrite(t.app, target, { token: org.owner.session, body: { ...body, code: 'TRPC-1' } });
    expect(trpc.statusCode).toBe(201);
    const { id: _a, code: _b, ...viaRest } = rest.json();
    const { id: _c, code: _d, ...viaTrpc } = target.record(trpc.json());
    expect(viaTrpc).toEqual(viaRest);
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

  it('refuses an unknown key in the address (400 at /address/<key>); the known keys are stored', async () => {
    const org = await createTestOrganization(t.db);
    const caller = createInProcessClient(t.deps, { token: org.owner.session });
    const e = await caller.receivables.customers.create({ code: 'A-1', legal_name: 'Kedai', address: { city: 'Ipoh', colour: 'red' } } as never).catch((x) => x);
    expect(e.appCode).toBe('invalid_request');
    expect(e.fieldErrors?.map((f: { pointer: string }) => f.pointer)).toContain('/address/colour');
    const target = customerCreateTarget();
    const res = await sendWrite(t.app, target, { token: org.owner.session, body: { ...target.body('a'), address: { line1: '1 Jalan Besar', city: 'Ipoh', postcode: '30000' } } });
    expect(res.statusCode, res.body).toBe(201);
    expect(target.record(res.json()).address).toEqual({ line1: '1 Jalan Besar', city: 'Ipoh', postcode: '30000' });
    const bad = await sendWrite(t.app, target, { token: org.owner.session, body: { ...target.body('b'), address: { city: 'Ipoh', country: 'MY' } } });
    expect(bad.statusCode).toBe(400);
    expect(await target.countRecords(t.db, org.id)).toBe(1);
  });

  it("checks custom fields against the organization's active customer definitions (422 custom_field_invalid)", async () => {
    const org = await createTestOrganization(t.db);
    // Definitions of receivable documents do not apply to customers.
    await createReceivablesSetup(t.db, org.id);
    await createCustomFieldDefinition(t.db, org.id, { key: 'po_number', label: 'PO number', type: 'text', required: true });
    await createCustomFieldDefinition(t.db, org.id, { recordType: 'customer', key: 'segment', label: 'Segment', type: 'select', options: ['Retail', 'Wholesale'], required: true });
    await createCustomFieldDefinition(t.db, org.id, { recordType: 'customer', key: 'since', label: 'Customer since', type: 'date' });
    await createCustomFieldDefinition(t.db, org.id, { recordType: 'customer', key: 'old_code', label: 'Old code', type: 'text', active: false });
    const caller = createInProcessClient(t.deps, { token: org.owner.session });
    const refused = async (custom_fields: Record<string, string> | undefined, pointer: string) => {
      const e = await caller.receivables.customers.create({ code: `CF-${pointer.length}-${Math.random()}`.slice(0, 40), legal_name: 'Kedai', custom_fields }).catch((x) => x);
      expect(e.appCode, `${pointer}: ${String(e)}`).toBe('custom_field_invalid');
      expect(e.status).toBe(422);
      expect(e.fieldErrors.map((f: { pointer: string }) => f.pointer)).toContain(pointer);
      expect(e.detail).toContain(pointer.slice(1).replace(/\//g, '.'));
    };
    await refused(undefined, '/custom_fields/segment');
    await refused({ segment: 'Retail', po_number: 'P-1' }, '/custom_fields/po_number');
    await refused({ segment: 'Retail', old_code: 'X' }, '/custom_fields/old_code');
    await refused({ segment: 'Mars' }, '/custom_fields/segment');
    await refused({ segment: 'Retail', since: '2025-02-30' }, '/custom_fields/since');
    const ok = await caller.receivables.customers.create({ code: 'CF-OK', legal_name: 'Kedai', custom_fields: { segment: 'Retail', since: '2020-01-31' } });
    expect(ok.custom_fields).toEqual({ segment: 'Retail', since: '2020-01-31' });
    const target = customerCreateTarget();
    expect(await target.countRecords(t.db, org.id)).toBe(1);
  });

  describe.skipIf(!onPostgres)('on PostgreSQL, concurrently', () => {
    it('two requests racing for one code: one 201, the other 409 conflict at /code (never 500)', async () => {
      const org = await createTestOrganization(t.db);
      const accountant = await createTestMember(t.db, org.id, { role: 'accountant' });
      for (let round = 0; round < 3; round++) {
        const target = customerCreateTarget();
        const answers = await Promise.all([org.owner.session, accountant.session, org.owner.session].map((token) => sendWrite(t.app, target, { token })));
        expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409]);
        for (const a of answers.filter((x) => x.statusCode === 409)) {
          expect(target.problem(a.json())).toMatchObject({ code: 'conflict', errors: [{ pointer: '/code', detail: 'is already in use' }] });
        }
        expect(await target.countRecords(t.db, org.id, 'a')).toBe(1);
      }
    });
  });
});
