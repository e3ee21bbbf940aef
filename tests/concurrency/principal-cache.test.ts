import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeApiKey } from '../../src/services/access/admin';
import { createTestCustomer } from '../factories/customer';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { onPostgres, testDatabaseEnv, useTestApp } from '../helpers/app';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import { invoiceCreateTarget } from '../helpers/writes';

/**
 * A process caches API-key principals (issue 13), checking its organization's auth epoch in the
 * statement each request runs anyway. Whatever changes who may do what, on another process, applies
 * on the very next request of this one: two real server processes (A, B) on one PostgreSQL, B's
 * cache warmed first, the change made through A (or the CLI's service in this test process).
 */
describe.skipIf(!onPostgres)('cached principals across two server processes', () => {
  const t = useTestApp();
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    const env = { ...testDatabaseEnv(), DATABASE_POOL_SIZE: '4' };
    a = await startServerProcess(env);
    b = await startServerProcess(env);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  const read = async (server: ServerProcess, token: string, customerId: string) => {
    const res = await fetch(`${server.url}/v1/receivables/customers/${customerId}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, body: (await res.json()) as { code?: string; detail?: string; id?: string } };
  };

  const trpc = async (server: ServerProcess, token: string, path: string, input: unknown, revision?: number) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    if (revision !== undefined) headers['if-match'] = `"${revision}"`;
    const res = await fetch(`${server.url}/trpc/${path}`, { method: 'POST', headers, body: JSON.stringify(input) });
    const body = (await res.json()) as { result?: { data: { revision: number } }; error?: unknown };
    expect(res.status, JSON.stringify(body)).toBeLessThan(300);
    return body.result!.data;
  };

  it('a revoked key is refused on the very next request on the other process', async () => {
    const org = await createTestOrganization(t.db);
    const customer = await createTestCustomer(t.db, org.id);
    const member = await createTestMember(t.db, org.id, { role: 'viewer' });
    for (let i = 0; i < 3; i++) expect((await read(b, member.apiKey, customer.id)).status).toBe(200);

    await revokeApiKey(t.db, { organizationId: org.id, id: member.apiKeyId, now: new Date() });

    const next = await read(b, member.apiKey, customer.id);
    expect(next.status).toBe(401);
    expect(next.body.detail).toBe('The API key has been revoked');
    // The organization's other keys, cached too, keep working (authenticated afresh once).
    expect((await read(b, org.owner.apiKey, customer.id)).status).toBe(200);
  });

  it("a deactivated member's key and session are refused on the very next request on the other process", async () => {
    const org = await createTestOrganization(t.db);
    const customer = await createTestCustomer(t.db, org.id);
    const member = await createTestMember(t.db, org.id, { role: 'viewer' });
    for (let i = 0; i < 3; i++) {
      expect((await read(b, member.apiKey, customer.id)).status).toBe(200);
      expect((await read(b, member.session, customer.id)).status).toBe(200);
    }

    await trpc(a, org.owner.session, 'organization.members.deactivate', { id: member.id }, 1);

    const byKey = await read(b, member.apiKey, customer.id);
    expect(byKey.status).toBe(401);
    // Deactivation revokes the member's keys too (either reason refuses it).
    expect(byKey.body.detail).toMatch(/revoked|no longer active/);
    expect((await read(b, member.session, customer.id)).status).toBe(401);
  });

  it('a role change takes effect on the next request on the other process, both ways', async () => {
    const org = await createTestOrganization(t.db);
    const customer = await createTestCustomer(t.db, org.id);
    // The key holds the permission; its owner's roles decide whether it is in force.
    const member = await createTestMember(t.db, org.id, { role: 'viewer', keyPermissions: ['receivables.customer.read'] });
    for (let i = 0; i < 3; i++) expect((await read(b, member.apiKey, customer.id)).status).toBe(200);

    const changed = await trpc(a, org.owner.session, 'organization.members.setRoles', { id: member.id, roles: ['employee'] }, 1);
    const refused = await read(b, member.apiKey, customer.id);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('forbidden');

    await trpc(a, org.owner.session, 'organization.members.setRoles', { id: member.id, roles: ['viewer'] }, changed.revision);
    expect((await read(b, member.apiKey, customer.id)).status).toBe(200);
  });

  it("a role's permissions changed are in force on the next request on the other process", async () => {
    const org = await createTestOrganization(t.db);
    const customer = await createTestCustomer(t.db, org.id);
    const role = await trpc(a, org.owner.session, 'organization.roles.create', { key: 'readers', name: 'Readers', permissions: ['receivables.customer.read'] });
    const member = await createTestMember(t.db, org.id, { role: 'employee', keyPermissions: ['receivables.customer.read'] });
    await trpc(a, org.owner.session, 'organization.members.setRoles', { id: member.id, roles: ['readers'] }, 1);
    for (let i = 0; i < 3; i++) expect((await read(b, member.apiKey, customer.id)).status).toBe(200);

    const { id } = role as unknown as { id: string };
    await trpc(a, org.owner.session, 'organization.roles.update', { id, permissions: ['receivables.invoice.read'] }, role.revision);
    expect((await read(b, member.apiKey, customer.id)).status).toBe(403);
  });

  it("the organization's configuration a process caches (custom fields, workflow) is in force on the next request on the other process", async () => {
    const org = await createTestOrganization(t.db);
    const target = invoiceCreateTarget();
    await target.setup!(t.db, org.id);
    let n = 0;
    const create = async (server: ServerProcess) => {
      const res = await fetch(`${server.url}/v1/receivables/invoices`, {
        method: 'POST',
        headers: { authorization: `Bearer ${org.owner.apiKey}`, 'content-type': 'application/json', 'idempotency-key': `cfg-${++n}` },
        body: JSON.stringify(target.body(`c${n}`)),
      });
      return { status: res.status, body: (await res.json()) as { code?: string; errors?: { pointer: string }[] } };
    };
    for (let i = 0; i < 3; i++) expect((await create(b)).status).toBe(201);

    const res = await fetch(`${a.url}/trpc/settings.customFields.create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.owner.session}`, 'content-type': 'application/json' },
      body: JSON.stringify({ record_type: 'receivable_document', key: 'po_number', label: 'PO number', type: 'text', required: true }),
    });
    expect(res.status, await res.clone().text()).toBeLessThan(300);

    const refused = await create(b);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('custom_field_invalid');
    expect(refused.body.errors?.map((e) => e.pointer)).toEqual(['/custom_fields/po_number']);
  });
});
