import { describe, expect, it } from 'vitest';
import { addMember, createSession } from '../../src/services/access/admin';
import { createTestCustomer } from '../factories/customer';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { callerFor, expectRefused, refusal } from '../helpers/settings';

/**
 * organization.apiKeys.create|list|revoke: an owner hands a member an integration key carrying a
 * subset of the member's permissions, with an optional expiry; the secret is answered once; the list
 * shows each key's member, permissions, expiry, revocation and last use; a revoked or expired key is
 * 401. Session only; another organization's members and keys are 404.
 */

const t = useTestApp();

const use = (token: string, url = '/v1/receivables/customers?limit=1', method: 'GET' | 'POST' = 'GET') =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': `k-${Math.random()}` }, ...(method === 'POST' ? { payload: '{}' } : {}) });

describe('organization.apiKeys', () => {
  it('creates a key for a member with a subset of their permissions and an expiry: 201, the secret once, usable within its permissions; listed with its last use', async () => {
    const org = await createTestOrganization(t.db);
    const clerk = await createTestMember(t.db, org.id, { role: 'clerk', name: 'Clerk One' });
    await createTestCustomer(t.db, org.id);
    const expires = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const res = await t.app.inject({
      method: 'POST',
      url: '/trpc/organization.apiKeys.create',
      headers: { authorization: `Bearer ${org.owner.session}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ member_id: clerk.id, name: 'Bank feed', permissions: ['receivables.customer.read', 'receivables.invoice.read'], expires_at: expires }),
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json().result.data;
    expect(created).toMatchObject({
      name: 'Bank feed',
      owner_member_id: clerk.id,
      owner_member_name: 'Clerk One',
      permissions: ['receivables.customer.read', 'receivables.invoice.read'],
      expires_at: expires,
      revoked_at: null,
      last_used_at: null,
      state: 'active',
    });
    expect(created.api_key).toMatch(new RegExp(`^fk_${created.id}_.{20,}$`));

    expect((await use(created.api_key)).statusCode).toBe(200);
    // Outside the key's permissions (the clerk may create receipts; the key may not).
    const outside = await use(created.api_key, '/v1/receivables/receipts', 'POST');
    expect(outside.statusCode, outside.body).toBe(403);

    const { items } = await callerFor(t, org.owner.session).organization.apiKeys.list({ member_id: clerk.id });
    expect(items.map((k: { id: string }) => k.id)).toContain(created.id);
    const listed = items.find((k: { id: string }) => k.id === created.id);
    expect(listed).toEqual({ ...created, api_key: undefined, last_used_at: expect.any(String) });
    expect(JSON.stringify(items)).not.toContain(created.api_key.slice(`fk_${created.id}_`.length));
    // Without permissions named, the key carries what the member holds.
    const all = await callerFor(t, org.owner.session).organization.apiKeys.create({ member_id: clerk.id });
    expect(all.permissions).toContain('receivables.receipt.create');
    expect(all).toMatchObject({ name: 'API key', expires_at: null });
  });

  it('lists in pages, newest first: every key once across the pages (several made within one millisecond); a cursor sent with another member is 422 at /query/cursor, a forged one 400', async () => {
    const org = await createTestOrganization(t.db);
    const clerk = await createTestMember(t.db, org.id, { role: 'clerk' });
    const owner = callerFor(t, org.owner.session);
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await owner.organization.apiKeys.create({ member_id: clerk.id, name: `Key ${i}` }));
    // Two more in one statement each, back to back: created_at may share a millisecond.
    made.push(...(await Promise.all([0, 1].map((i) => owner.organization.apiKeys.create({ member_id: clerk.id, name: `Burst ${i}` })))));
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await owner.organization.apiKeys.list({ member_id: clerk.id, limit: 2, ...(cursor ? { cursor } : {}) });
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((k: { id: string }) => k.id));
      cursor = page.next_cursor ?? undefined;
      pages++;
    } while (cursor && pages < 10);
    const whole = (await owner.organization.apiKeys.list({ member_id: clerk.id, limit: 100 })).items as { id: string; created_at: string }[];
    expect(whole.map((k) => k.id)).toEqual(expect.arrayContaining(made.map((k) => k.id)));
    expect(seen).toEqual(whole.map((k) => k.id));
    expect(new Set(seen).size).toBe(seen.length);
    expect(pages).toBe(Math.ceil(whole.length / 2));
    const created = whole.map((k) => k.created_at);
    expect(created).toEqual([...created].sort().reverse());
    const first = await owner.organization.apiKeys.list({ member_id: clerk.id, limit: 2 });
    expectRefused(await refusal(owner.organization.apiKeys.list({ limit: 2, cursor: first.next_cursor! })), 422, 'validation', '/query/cursor');
    const forged = await refusal(owner.organization.apiKeys.list({ member_id: clerk.id, limit: 2, cursor: `${first.next_cursor!.slice(0, -4)}AAAA` }));
    expect(forged.status).toBe(400);
  });

  it("refuses a permission the member does not hold, an unknown one, a past expiry and an inactive member (422 with pointers)", async () => {
    const org = await createTestOrganization(t.db);
    const clerk = await createTestMember(t.db, org.id, { role: 'clerk' });
    const gone = await createTestMember(t.db, org.id, { role: 'clerk', active: false });
    const create = callerFor(t, org.owner.session).organization.apiKeys.create;
    const notHeld = expectRefused(await refusal(create({ member_id: clerk.id, permissions: ['receivables.invoice.read', 'receivables.invoice.issue'] })), 422, 'validation', '/permissions/1');
    expect(notHeld.fieldErrors![0]!.detail).toMatch(/is not held by the member \(receivables\.invoice\.issue\)/);
    expectRefused(await refusal(create({ member_id: clerk.id, permissions: ['god.mode'] })), 422, 'validation', '/permissions/0');
    expectRefused(await refusal(create({ member_id: clerk.id, expires_at: new Date(Date.now() - 60_000).toISOString() })), 422, 'validation', '/expires_at');
    expectRefused(await refusal(create({ member_id: gone.id })), 422, 'validation', '/member');
    expectRefused(await refusal(create({ member_id: clerk.id, expires_at: 'tomorrow' })), 400, 'invalid_request', '/expires_at');
  });

  it('a manager of members may hand out only permissions they hold themselves', async () => {
    const org = await createTestOrganization(t.db);
    await callerFor(t, org.owner.session).organization.roles.create({ key: 'key_desk', name: 'Key desk', permissions: ['organization.members.manage', 'organization.settings.read'] });
    const desk = await addMember(t.db, { organizationId: org.id, name: 'Desk', roles: ['key_desk'] });
    const session = (await createSession(t.db, { organizationId: org.id, memberId: desk.id, now: new Date() })).token;
    const refused = expectRefused(await refusal(callerFor(t, session).organization.apiKeys.create({ member_id: org.owner.id, permissions: ['organization.roles.manage_owner'] })), 422, 'validation', '/permissions/0');
    expect(refused.fieldErrors![0]!.detail).toMatch(/is not held by you/);
    const ok = await callerFor(t, session).organization.apiKeys.create({ member_id: org.owner.id, permissions: ['organization.settings.read'] });
    expect(ok.permissions).toEqual(['organization.settings.read']);
  });

  it('a revoked key and an expired key are 401 on use; revoking twice is 409; the list shows their state', async () => {
    const org = await createTestOrganization(t.db);
    const clerk = await createTestMember(t.db, org.id, { role: 'clerk' });
    const owner = callerFor(t, org.owner.session).organization.apiKeys;
    const revoked = await owner.create({ member_id: clerk.id, permissions: ['receivables.customer.read'] });
    expect((await use(revoked.api_key)).statusCode).toBe(200);
    const answer = await owner.revoke({ id: revoked.id });
    expect(answer).toMatchObject({ id: revoked.id, state: 'revoked', revoked_at: expect.any(String) });
    expect((await use(revoked.api_key)).statusCode).toBe(401);
    const again = expectRefused(await refusal(owner.revoke({ id: revoked.id })), 409, 'conflict');
    expect(again.detail).toContain(answer.revoked_at);

    const expiring = await owner.create({ member_id: clerk.id, permissions: ['receivables.customer.read'], expires_at: new Date(Date.now() + 3_600_000).toISOString() });
    expect((await use(expiring.api_key)).statusCode).toBe(200);
    t.setNow(new Date(Date.now() + 2 * 3_600_000));
    try {
      expect((await use(expiring.api_key)).statusCode).toBe(401);
    } finally {
      t.setNow(undefined);
    }
    const states = Object.fromEntries((await owner.list()).items.map((k: { id: string; state: string }) => [k.id, k.state]));
    expect([states[revoked.id], states[expiring.id]]).toEqual(['revoked', 'active']);
  });

  it('is session only (a key cannot make, list or revoke keys: 403 person_required) and needs organization.members.manage (403)', async () => {
    const org = await createTestOrganization(t.db);
    const viaKey = callerFor(t, org.owner.apiKey).organization.apiKeys;
    expectRefused(await refusal(viaKey.create({ member_id: org.owner.id })), 403, 'person_required');
    expectRefused(await refusal(viaKey.list()), 403, 'person_required');
    expectRefused(await refusal(viaKey.revoke({ id: org.owner.apiKeyId })), 403, 'person_required');
    const accountant = await createTestMember(t.db, org.id, { role: 'accountant' });
    const notManager = callerFor(t, accountant.session).organization.apiKeys;
    expectRefused(await refusal(notManager.create({ member_id: accountant.id })), 403, 'forbidden');
    expectRefused(await refusal(notManager.list()), 403, 'forbidden');
    expectRefused(await refusal(notManager.revoke({ id: accountant.apiKeyId })), 403, 'forbidden');
  });

  it("a hostile owner of another organization can neither make a key for our member, see our keys, nor revoke one (404)", async () => {
    const org = await createTestOrganization(t.db);
    const hostile = await createTestOrganization(t.db);
    const theirs = callerFor(t, hostile.owner.session).organization.apiKeys;
    expectRefused(await refusal(theirs.create({ member_id: org.owner.id, permissions: ['organization.settings.read'] })), 404, 'not_found');
    expectRefused(await refusal(theirs.list({ member_id: org.owner.id })), 404, 'not_found');
    expect((await theirs.list()).items.map((k: { id: string }) => k.id)).not.toContain(org.owner.apiKeyId);
    expectRefused(await refusal(theirs.revoke({ id: org.owner.apiKeyId })), 404, 'not_found');
    expect((await use(org.owner.apiKey)).statusCode).toBe(200);
  });
});
