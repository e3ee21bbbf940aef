import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createInProcessClient } from '../../src/client';
import { apiKeys, members, sessions } from '../../src/db/schema';
import { appRouter } from '../../src/routers/app';
import { createInProcessContext } from '../../src/routers/context';
import { createCallerFactory } from '../../src/routers/trpc';
import { createTestMember, createTestOrganization, uniqueEmail, type TestOrganization } from '../factories/organization';
import { onPostgres, useTestApp } from '../helpers/app';

const t = useTestApp();
const PASSWORD = 'a long enough password';

/** A caller with a token and optionally If-Match (the revision as ETag gives it). */
const as = (token: string, ifMatch?: number) => createInProcessClient(t.deps, { token, ...(ifMatch !== undefined ? { ifMatch: `"${ifMatch}"` } : {}) });
const refusal = (p: Promise<unknown>): Promise<any> => p.then(() => { throw new Error('expected a refusal'); }, (e) => e);

function expectRefusal(e: any, status: number, code: string, pointer?: string) {
  expect({ status: e.status, code: e.appCode }, String(e.detail ?? e.message)).toEqual({ status, code });
  if (pointer) expect(e.fieldErrors?.map((f: { pointer: string }) => f.pointer)).toContain(pointer);
}

async function history(org: TestOrganization, entity: string, recordId: string) {
  const page = await as(org.owner.session).organization.settingsHistory.list({ entity, record_id: recordId });
  return page.items;
}

async function roleId(org: TestOrganization, key: string) {
  const { items } = await as(org.owner.session).organization.roles.list({ limit: 100 });
  return items.find((r) => r.key === key)!;
}

describe('organization.members', () => {
  it('add: a member with e-mail, password and roles (201, ETag); they log in; the history keeps no hash', async () => {
    const org = await createTestOrganization(t.db);
    const email = uniqueEmail('aina');
    const res = await t.app.inject({
      method: 'POST',
      url: '/trpc/organization.members.add',
      headers: { authorization: `Bearer ${org.owner.session}` },
      payload: { name: '  Nur Aina ', email, password: PASSWORD, roles: ['clerk', 'accountant'] },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers.etag).toBe('"1"');
    const member = res.json().result.data;
    expect(member).toEqual({ id: expect.any(String), name: 'Nur Aina', email, active: true, roles: ['accountant', 'clerk'], revision: 1 });
    const login = await createCallerFactory(appRouter)(createInProcessContext(t.deps, { ip: '10.20.0.1' })).auth.login({ email, password: PASSWORD });
    expect(login.member.id).toBe(member.id);
    const [entry] = await history(org, 'members', member.id);
    expect(entry).toMatchObject({ action: 'create', actor_member_id: org.owner.id, actor_via: 'session', before: null, after: member });
    expect(JSON.stringify(entry)).not.toMatch(/argon2|password/i);
  });

  it('add refuses: unknown field 400; blank, over-long, malformed and weak values 422 at their pointers; unknown role 422; e-mail in use 409', async () => {
    const org = await createTestOrganization(t.db);
    const owner = as(org.owner.session);
    const ok = { name: 'Ahmad', email: uniqueEmail(), roles: ['viewer'] };
    expectRefusal(await refusal(owner.organization.members.add({ ...ok, nickname: 'Mat' } as never)), 400, 'invalid_request', '/nickname');
    expectRefusal(await refusal(owner.organization.members.add({ ...ok, roles: 'viewer' } as never)), 400, 'invalid_request', '/roles');
    expectRefusal(await refusal(owner.organization.members.add({ ...ok, name: '   ' })), 422, 'validation', '/name');
    expectRefusal(await refusal(owner.organization.members.add({ ...ok, name: 'x'.repeat(201) })), 422, 'validation', '/name');
    expectRefusal(await refusal(owner.organization.members.add({ ...ok, email: ' ' })), 422, 'validation', '/email');
    expectRefusal(await refusal(owner.organization.members.add({ ...ok, email: `${'a'.repeat(250)}@x.my` })), 422, 'validation', '/email');
    expectRefusal(await refusal(owner.organization.members.add({ ...ok, email: 'not-an-email' })), 422, 'validation', '/email');
    expectRefusal(await refusal(owner.organization.members.add({ ...ok, password: 'short pw' })), 422, 'validation', '/password');
    expectRefusal(await refusal(owner.organization.members.add({ ...ok, password: ' '.repeat(14) })), 422, 'validation', '/password');
    expectRefusal(await refusal(owner.organization.members.add({ ...ok, password: 'p'.repeat(257) })), 422, 'validation', '/password');
    const many = await refusal(owner.organization.members.add({ ...ok, name: '', roles: ['viewer', 'auditor', 'viewer'] }));
    expectRefusal(many, 422, 'validation');
    expect(many.fieldErrors.map((f: { pointer: string }) => f.pointer)).toEqual(['/name', '/roles/1', '/roles/2']);
    await owner.organization.members.add(ok);
    expectRefusal(await refusal(owner.organization.members.add({ ...ok, email: ok.email.toUpperCase() })), 409, 'conflict', '/email');
    // A clerk may not manage members; nothing was added by any refusal.
    const clerk = await createTestMember(t.db, org.id, { role: 'clerk' });
    expectRefusal(await refusal(as(clerk.session).organization.members.add({ ...ok, email: uniqueEmail() })), 403, 'forbidden');
    const { items } = await owner.organization.members.list({ limit: 100 });
    expect(items.filter((m) => m.name === 'Ahmad')).toHaveLength(1);
  });

  it('list: by name, with roles, never a password; pages with a signed cursor; needs organization.settings.read', async () => {
    const org = await createTestOrganization(t.db);
    for (const name of ['Chong', 'Aminah', 'Balan']) {
      await as(org.owner.session).organization.members.add({ name, email: uniqueEmail(name), password: PASSWORD, roles: ['employee'] });
    }
    const first = await as(org.owner.session).organization.members.list({ limit: 2 });
    expect(first.items.map((m) => m.name)).toEqual(['Aminah', 'Balan']);
    expect(Object.keys(first.items[0]!).sort()).toEqual(['active', 'email', 'id', 'name', 'revision', 'roles']);
    const second = await as(org.owner.session).organization.members.list({ limit: 2, cursor: first.next_cursor! });
    expect(second.items.map((m) => m.name)).toEqual(['Chong', 'Owner']);
    expect(second.next_cursor).toBeNull();
    expect(second.items[1]!.roles).toEqual(['owner']);
    expectRefusal(await refusal(as(org.owner.session).organization.members.list({ limit: 0 })), 422, 'validation', '/limit');
    expectRefusal(await refusal(as(org.owner.session).organization.members.list({ colour: 1 } as never)), 400, 'invalid_request');
    const key = await createTestMember(t.db, org.id, { role: 'owner', keyPermissions: ['receivables.invoice.read'] });
    expectRefusal(await refusal(as(key.apiKey).organization.members.list()), 403, 'forbidden');
    // An API key may read: lists are not decisions.
    const reader = await createTestMember(t.db, org.id, { role: 'viewer' });
    expect((await as(reader.apiKey).organization.members.list({ limit: 100 })).items.length).toBe(6);
  });

  it('update: name and e-mail with If-Match (428 missing, 409 stale), 404 for another organization, 422, 409 e-mail in use', async () => {
    const org = await createTestOrganization(t.db);
    const other = await createTestOrganization(t.db);
    const m = await as(org.owner.session).organization.members.add({ name: 'Siti', email: uniqueEmail(), roles: ['viewer'] });
    const taken = uniqueEmail('taken');
    await as(org.owner.session).organization.members.add({ name: 'Taken', email: taken, roles: [] });
    const foreign = await as(other.owner.session).organization.members.add({ name: 'Foreign', email: uniqueEmail(), roles: [] });

    expectRefusal(await refusal(as(org.owner.session).organization.members.update({ id: m.id, name: 'Siti Rahmah' })), 428, 'revision_required');
    expectRefusal(await refusal(as(org.owner.session, 7).organization.members.update({ id: m.id, name: 'Siti Rahmah' })), 409, 'revision_mismatch');
    expectRefusal(await refusal(as(org.owner.session, 1).organization.members.update({ id: foreign.id, name: 'Mine' })), 404, 'not_found');
    expectRefusal(await refusal(as(org.owner.session, 1).organization.members.update({ id: m.id, active: false } as never)), 400, 'invalid_request');
    expectRefusal(await refusal(as(org.owner.session, 1).organization.members.update({ id: m.id, name: ' ' })), 422, 'validation', '/name');
    expectRefusal(await refusal(as(org.owner.session, 1).organization.members.update({ id: m.id, email: `${'e'.repeat(255)}` })), 422, 'validation', '/email');
    expectRefusal(await refusal(as(org.owner.session, 1).organization.members.update({ id: m.id, email: taken.toUpperCase() })), 409, 'conflict', '/email');
    const clerk = await createTestMember(t.db, org.id, { role: 'clerk' });
    expectRefusal(await refusal(as(clerk.session, 1).organization.members.update({ id: m.id, name: 'X' })), 403, 'forbidden');

    const updated = await as(org.owner.session, 1).organization.members.update({ id: m.id, name: 'Siti Rahmah', email: m.email!.toUpperCase() });
    expect(updated).toMatchObject({ name: 'Siti Rahmah', email: m.email!.toUpperCase(), revision: 2 });
    const [entry] = await history(org, 'members', m.id);
    expect(entry).toMatchObject({ action: 'update', before: { name: 'Siti', revision: 1 }, after: { name: 'Siti Rahmah', revision: 2 } });
    expect((await refusal(as(other.owner.session, 2).organization.members.update({ id: m.id, name: 'Mine' }))).status).toBe(404);
  });

  it('setRoles: replaces the roles with If-Match; 428, 409 stale, 404, 400, 422 unknown role', async () => {
    const org = await createTestOrganization(t.db);
    const other = await createTestOrganization(t.db);
    const m = await as(org.owner.session).organization.members.add({ name: 'Raj', email: uniqueEmail(), roles: ['viewer'] });
    const owner = (rev?: number) => as(org.owner.session, rev).organization.members;
    expectRefusal(await refusal(owner().setRoles({ id: m.id, roles: ['clerk'] })), 428, 'revision_required');
    expectRefusal(await refusal(owner(2).setRoles({ id: m.id, roles: ['clerk'] })), 409, 'revision_mismatch');
    expectRefusal(await refusal(as(other.owner.session, 1).organization.members.setRoles({ id: m.id, roles: ['clerk'] })), 404, 'not_found');
    expectRefusal(await refusal(owner(1).setRoles({ id: m.id, roles: ['clerk'], extra: 1 } as never)), 400, 'invalid_request');
    expectRefusal(await refusal(owner(1).setRoles({ id: m.id, roles: ['clerk', 'boss'] })), 422, 'validation', '/roles/1');
    expectRefusal(await refusal(owner(1).setRoles({ id: m.id, roles: ['x'.repeat(51)] })), 422, 'validation', '/roles/0');
    const viewer = await createTestMember(t.db, org.id, { role: 'viewer' });
    expectRefusal(await refusal(as(viewer.session, 1).organization.members.setRoles({ id: m.id, roles: ['clerk'] })), 403, 'forbidden');
    const done = await owner(1).setRoles({ id: m.id, roles: ['employee', 'clerk'] });
    expect(done).toMatchObject({ roles: ['clerk', 'employee'], revision: 2 });
    const [entry] = await history(org, 'members', m.id);
    expect(entry).toMatchObject({ action: 'set_roles', before: { roles: ['viewer'] }, after: { roles: ['clerk', 'employee'] } });
  });

  it("deactivate: their session and API key are refused (401) on the very next request; 428, 409 stale, 404, 409 when already inactive", async () => {
    const org = await createTestOrganization(t.db);
    const other = await createTestOrganization(t.db);
    const leaver = await createTestMember(t.db, org.id, { role: 'accountant' });
    const [row] = await t.db.select({ revision: members.revision }).from(members).where(eq(members.id, leaver.id));
    expect((await as(leaver.session).auth.me()).member.id).toBe(leaver.id);
    expectRefusal(await refusal(as(org.owner.session).organization.members.deactivate({ id: leaver.id })), 428, 'revision_required');
    expectRefusal(await refusal(as(org.owner.session, 5).organization.members.deactivate({ id: leaver.id })), 409, 'revision_mismatch');
    expectRefusal(await refusal(as(other.owner.session, 1).organization.members.deactivate({ id: leaver.id })), 404, 'not_found');
    expectRefusal(await refusal(as(org.owner.session, 1).organization.members.deactivate({ id: 'x' } as never)), 400, 'invalid_request');

    const done = await as(org.owner.session, row!.revision).organization.members.deactivate({ id: leaver.id });
    expect(done).toMatchObject({ active: false, revision: row!.revision + 1 });
    for (const token of [leaver.session, leaver.apiKey]) {
      const res = await t.app.inject({ method: 'GET', url: '/trpc/auth.me', headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode).toBe(401);
    }
    // Revoked as rows, not only refused through the member's flag.
    const [s] = await t.db.select().from(sessions).where(and(eq(sessions.organizationId, org.id), eq(sessions.id, leaver.sessionId)));
    const [k] = await t.db.select().from(apiKeys).where(and(eq(apiKeys.organizationId, org.id), eq(apiKeys.id, leaver.apiKeyId)));
    expect(s?.revokedAt).toBeInstanceOf(Date);
    expect(k?.revokedAt).toBeInstanceOf(Date);
    expectRefusal(await refusal(as(org.owner.session, done.revision).organization.members.deactivate({ id: leaver.id })), 409, 'conflict');
    const [entry] = await history(org, 'members', leaver.id);
    expect(entry).toMatchObject({ action: 'deactivate', before: { active: true }, after: { active: false } });
  });
});

describe('organization.roles', () => {
  it('list: the built-in roles and custom ones by key, permissions sorted', async () => {
    const org = await createTestOrganization(t.db);
    await as(org.owner.session).organization.roles.create({ key: 'auditor', name: 'Auditor', permissions: ['receivables.invoice.read', 'organization.settings.read'] });
    const { items, next_cursor } = await as(org.owner.session).organization.roles.list();
    expect(items.map((r) => [r.key, r.built_in])).toEqual([
      ['accountant', true],
      ['auditor', false],
      ['clerk', true],
      ['employee', true],
      ['owner', true],
      ['viewer', true],
    ]);
    expect(items[1]!.permissions).toEqual(['organization.settings.read', 'receivables.invoice.read']);
    expect(next_cursor).toBeNull();
    const page = await as(org.owner.session).organization.roles.list({ limit: 4 });
    const rest = await as(org.owner.session).organization.roles.list({ limit: 4, cursor: page.next_cursor! });
    expect([...page.items, ...rest.items].map((r) => r.key)).toEqual(items.map((r) => r.key));
  });

  it('create: 201; key format, unknown permission, blank and long name 422; key in use 409; needs organization.roles.manage', async () => {
    const org = await createTestOrganization(t.db);
    const owner = as(org.owner.session).organization.roles;
    const ok = { key: 'auditor', name: 'Auditor', permissions: ['receivables.invoice.read'] };
    expectRefusal(await refusal(owner.create({ ...ok, colour: 'red' } as never)), 400, 'invalid_request');
    for (const key of ['Auditor', 'a', '1abc', 'has-dash', `a${'b'.repeat(50)}`]) expectRefusal(await refusal(owner.create({ ...ok, key })), 422, 'validation', '/key');
    expectRefusal(await refusal(owner.create({ ...ok, name: '  ' })), 422, 'validation', '/name');
    expectRefusal(await refusal(owner.create({ ...ok, name: 'n'.repeat(101) })), 422, 'validation', '/name');
    const bad = await refusal(owner.create({ ...ok, permissions: ['receivables.invoice.read', 'everything', 'receivables.invoice.read'] }));
    expectRefusal(bad, 422, 'validation');
    expect(bad.fieldErrors.map((f: { pointer: string }) => f.pointer)).toEqual(['/permissions/1', '/permissions/2']);
    const accountant = await createTestMember(t.db, org.id, { role: 'accountant' });
    expectRefusal(await refusal(as(accountant.session).organization.roles.create(ok)), 403, 'forbidden');
    const res = await t.app.inject({ method: 'POST', url: '/trpc/organization.roles.create', headers: { authorization: `Bearer ${org.owner.session}` }, payload: ok });
    expect(res.statusCode, res.body).toBe(201);
    const role = res.json().result.data;
    expect(role).toEqual({ id: expect.any(String), key: 'auditor', name: 'Auditor', permissions: ['receivables.invoice.read'], built_in: false, revision: 1 });
    expectRefusal(await refusal(owner.create({ ...ok, name: 'Another' })), 409, 'conflict', '/key');
    expectRefusal(await refusal(owner.create({ ...ok, key: 'owner' })), 409, 'conflict', '/key');
    const [entry] = await history(org, 'roles', role.id);
    expect(entry).toMatchObject({ action: 'create', after: role });
  });

  it('update: name and permissions with If-Match; 428, 409 stale, 404, 422 at /permissions/<i>; members get the new permissions at once', async () => {
    const org = await createTestOrganization(t.db);
    const other = await createTestOrganization(t.db);
    const role = await as(org.owner.session).organization.roles.create({ key: 'auditor', name: 'Auditor', permissions: ['receivables.invoice.read'] });
    const holder = await createTestMember(t.db, org.id, { role: 'viewer' });
    const [h] = await t.db.select({ revision: members.revision }).from(members).where(eq(members.id, holder.id));
    await as(org.owner.session, h!.revision).organization.members.setRoles({ id: holder.id, roles: ['auditor'] });
    const roles = (rev?: number, token = org.owner.session) => as(token, rev).organization.roles;
    expectRefusal(await refusal(roles().update({ id: role.id, name: 'Audit' })), 428, 'revision_required');
    expectRefusal(await refusal(roles(3).update({ id: role.id, name: 'Audit' })), 409, 'revision_mismatch');
    expectRefusal(await refusal(roles(1, other.owner.session).update({ id: role.id, name: 'Audit' })), 404, 'not_found');
    expectRefusal(await refusal(roles(1).update({ id: role.id, key: 'other' } as never)), 400, 'invalid_request');
    expectRefusal(await refusal(roles(1).update({ id: role.id, name: '' })), 422, 'validation', '/name');
    expectRefusal(await refusal(roles(1).update({ id: role.id, permissions: ['receivables.invoice.read', 'root'] })), 422, 'validation', '/permissions/1');
    expectRefusal(await refusal(roles(1, holder.session).update({ id: role.id, name: 'Audit' })), 403, 'forbidden');
    const updated = await roles(1).update({ id: role.id, name: 'Audit', permissions: ['receivables.invoice.read', 'receivables.customer.read'] });
    expect(updated).toMatchObject({ name: 'Audit', permissions: ['receivables.customer.read', 'receivables.invoice.read'], revision: 2 });
    expect((await as(holder.session).auth.me()).permissions).toEqual(['receivables.customer.read', 'receivables.invoice.read']);
    const [entry] = await history(org, 'roles', role.id);
    expect(entry).toMatchObject({ action: 'update', before: { name: 'Auditor', revision: 1 }, after: { name: 'Audit', revision: 2 } });
  });

  it('delete: a custom role nobody holds (If-Match); a built-in role or one still granted is 409 conflict; 428, 409 stale, 404', async () => {
    const org = await createTestOrganization(t.db);
    const other = await createTestOrganization(t.db);
    const role = await as(org.owner.session).organization.roles.create({ key: 'temp', name: 'Temp', permissions: [] });
    const owner = (rev?: number) => as(org.owner.session, rev).organization.roles;
    expectRefusal(await refusal(owner().delete({ id: role.id })), 428, 'revision_required');
    expectRefusal(await refusal(owner(9).delete({ id: role.id })), 409, 'revision_mismatch');
    expectRefusal(await refusal(as(other.owner.session, 1).organization.roles.delete({ id: role.id })), 404, 'not_found');
    const viewer = (await roleId(org, 'viewer'))!;
    expectRefusal(await refusal(owner(viewer.revision).delete({ id: viewer.id })), 409, 'conflict');
    const m = await as(org.owner.session).organization.members.add({ name: 'Temp worker', email: uniqueEmail(), roles: ['temp'] });
    expectRefusal(await refusal(owner(1).delete({ id: role.id })), 409, 'conflict');
    await as(org.owner.session, m.revision).organization.members.setRoles({ id: m.id, roles: [] });
    expect(await owner(1).delete({ id: role.id })).toEqual({ id: role.id, deleted: true });
    expect((await as(org.owner.session).organization.roles.list()).items.map((r) => r.key)).not.toContain('temp');
    const [entry] = await history(org, 'roles', role.id);
    expect(entry).toMatchObject({ action: 'delete', before: { key: 'temp' }, after: null });
  });
});

describe('the role editor rules', () => {
  /** An organization with its owner and a member holding a custom role of the given permissions. */
  async function withRole(permissions: string[]) {
    const org = await createTestOrganization(t.db);
    await as(org.owner.session).organization.roles.create({ key: 'delegate', name: 'Delegate', permissions });
    const person = await as(org.owner.session).organization.members.add({ name: 'Delegate', email: uniqueEmail(), password: PASSWORD, roles: ['delegate'] });
    const { session_token } = await createCallerFactory(appRouter)(createInProcessContext(t.deps, { ip: '10.30.0.1' })).auth.login({ email: person.email!, password: PASSWORD });
    return { org, person, token: session_token! };
  }
  const ADMIN = ['organization.members.manage', 'organization.roles.manage', 'organization.settings.read'];

  it('owner_role_manage_required: without organization.roles.manage_owner nobody creates, changes, deletes or grants a role carrying it, or changes a member holding one', async () => {
    const { org, token } = await withRole(ADMIN);
    const superRole = await as(org.owner.session).organization.roles.create({ key: 'super', name: 'Super', permissions: ['organization.roles.manage_owner'] });
    const ownerRole = await roleId(org, 'owner');
    const [o] = await t.db.select({ revision: members.revision }).from(members).where(eq(members.id, org.owner.id));
    const worker = await as(org.owner.session).organization.members.add({ name: 'Worker', email: uniqueEmail(), roles: ['viewer'] });
    const refusals = [
      refusal(as(token).organization.roles.create({ key: 'mighty', name: 'Mighty', permissions: ['organization.roles.manage_owner'] })),
      refusal(as(token, ownerRole.revision).organization.roles.update({ id: ownerRole.id, name: 'Boss' })),
      refusal(as(token, 1).organization.roles.update({ id: superRole.id, permissions: [] })),
      refusal(as(token, 1).organization.roles.delete({ id: superRole.id })),
      refusal(as(token).organization.members.add({ name: 'New boss', email: uniqueEmail(), roles: ['owner'] })),
      refusal(as(token, worker.revision).organization.members.setRoles({ id: worker.id, roles: ['viewer', 'super'] })),
      refusal(as(token, o!.revision).organization.members.setRoles({ id: org.owner.id, roles: ['viewer'] })),
      refusal(as(token, o!.revision).organization.members.update({ id: org.owner.id, name: 'Former owner' })),
      refusal(as(token, o!.revision).organization.members.deactivate({ id: org.owner.id })),
    ];
    for (const e of await Promise.all(refusals)) expectRefusal(e, 409, 'owner_role_manage_required');
    // Roles and members without the owner's power are theirs to manage.
    expect((await as(token, worker.revision).organization.members.setRoles({ id: worker.id, roles: ['clerk'] })).roles).toEqual(['clerk']);
    // The owner may do every one of them.
    expect((await as(org.owner.session, 1).organization.roles.update({ id: superRole.id, name: 'Super user' })).name).toBe('Super user');
  });

  it('self_lockout: a change that leaves the caller without organization.roles.manage is refused', async () => {
    const { org, person, token } = await withRole(ADMIN);
    const delegate = await roleId(org, 'delegate');
    // Taking the permission off the caller's own role, or the caller's own role away.
    expectRefusal(await refusal(as(token, delegate.revision).organization.roles.update({ id: delegate.id, permissions: ['organization.members.manage'] })), 409, 'self_lockout');
    expectRefusal(await refusal(as(token, person.revision).organization.members.setRoles({ id: person.id, roles: ['viewer'] })), 409, 'self_lockout');
    expectRefusal(await refusal(as(token, person.revision).organization.members.deactivate({ id: person.id })), 409, 'self_lockout');
    // The sole owner cannot demote or deactivate themselves either.
    const [o] = await t.db.select({ revision: members.revision }).from(members).where(eq(members.id, org.owner.id));
    expectRefusal(await refusal(as(org.owner.session, o!.revision).organization.members.setRoles({ id: org.owner.id, roles: ['accountant'] })), 409, 'self_lockout');
    expectRefusal(await refusal(as(org.owner.session, o!.revision).organization.members.deactivate({ id: org.owner.id })), 409, 'self_lockout');
    // Nothing changed.
    expect((await as(token).auth.me()).permissions).toContain('organization.roles.manage');
    // Changing what does not take it away is fine.
    const changed = await as(token, delegate.revision).organization.roles.update({ id: delegate.id, permissions: [...ADMIN, 'receivables.invoice.read'] });
    expect(changed.revision).toBe(delegate.revision + 1);
  });

  it('self_lockout: a change that leaves the organization without any active member holding organization.roles.manage is refused', async () => {
    // A personnel officer: manages members (the owner's too) but not roles.
    const { org, token } = await withRole(['organization.members.manage', 'organization.roles.manage_owner', 'organization.settings.read']);
    const [o] = await t.db.select({ revision: members.revision }).from(members).where(eq(members.id, org.owner.id));
    expectRefusal(await refusal(as(token, o!.revision).organization.members.deactivate({ id: org.owner.id })), 409, 'self_lockout');
    expectRefusal(await refusal(as(token, o!.revision).organization.members.setRoles({ id: org.owner.id, roles: ['viewer'] })), 409, 'self_lockout');
    // With a second owner, the first may go.
    const second = await createTestMember(t.db, org.id, { role: 'owner' });
    expect((await as(token, o!.revision).organization.members.deactivate({ id: org.owner.id })).active).toBe(false);
    expect((await as(second.session).auth.me()).permissions).toContain('organization.roles.manage');
  });

  describe.skipIf(!onPostgres)('on PostgreSQL, concurrently', () => {
    it('two owners demoting each other at once: one change wins, the other is self_lockout (never both)', async () => {
      for (let round = 0; round < 3; round++) {
        const org = await createTestOrganization(t.db);
        const second = await createTestMember(t.db, org.id, { role: 'owner' });
        const revisions = await t.db.select({ id: members.id, revision: members.revision }).from(members).where(eq(members.organizationId, org.id));
        const rev = (id: string) => revisions.find((r) => r.id === id)!.revision;
        const answers = await Promise.allSettled([
          as(org.owner.session, rev(second.id)).organization.members.setRoles({ id: second.id, roles: ['viewer'] }),
          as(second.session, rev(org.owner.id)).organization.members.setRoles({ id: org.owner.id, roles: ['viewer'] }),
        ]);
        expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
        const refused = answers.find((a) => a.status === 'rejected') as PromiseRejectedResult;
        expect(refused.reason.appCode).toBe('self_lockout');
      }
    });
  });
});
