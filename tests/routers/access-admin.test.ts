import { describe, expect, it } from 'vitest';
import { createInProcessClient } from '../../src/client';
import { findLoginCandidates } from '../../src/db/queries/access';
import { issueApiKey, issueSession, listApiKeysOf } from '../../src/services/access/credentials';
import { setMemberPassword } from '../../src/services/access/members';
import { adminContext, createOrganizationWithOwner } from '../../src/services/access/organization-setup';
import { createTestMember, createTestOrganization, uniqueEmail } from '../factories/organization';
import { useTestApp } from '../helpers/app';

/** The services behind the admin CLI (tests/cli spawns the CLI itself a few times only). */
const t = useTestApp();
const refusal = (p: Promise<unknown>): Promise<any> => p.then(() => { throw new Error('expected a refusal'); }, (e) => e);
const pointers = (e: any) => e.fieldErrors.map((f: { pointer: string }) => f.pointer);

describe('admin services', () => {
  it('createOrganizationWithOwner validates everything first (422 at each pointer) and creates nothing when refused', async () => {
    const email = uniqueEmail('owner');
    const e = await refusal(
      t.db.transaction((tx) =>
        createOrganizationWithOwner(tx as never, new Date(), {
          name: ' ',
          base_currency: 'XYZ',
          time_zone: 'Mars/Olympus',
          record_languages: ['en', 'English'],
          owner: { email: 'nope', password: 'short' },
        }),
      ),
    );
    expect(e.appCode).toBe('validation');
    expect(pointers(e)).toEqual(['/name', '/base_currency', '/time_zone', '/record_languages/1', '/owner/email', '/owner/password']);
    const done = await t.db.transaction((tx) => createOrganizationWithOwner(tx as never, new Date(), { name: 'Owner Co', owner: { email, password: 'twelve chars!' } }));
    expect(done.owner).toMatchObject({ email, roles: ['owner'], revision: 1 });
    expect(await findLoginCandidates(t.db, { email })).toHaveLength(1);
    expect((await refusal(adminContext(t.db, '00000000-0000-4000-8000-000000000000', new Date()))).appCode).toBe('not_found');
  });

  it('setMemberPassword checks the rules and ends the member\'s sessions', async () => {
    const org = await createTestOrganization(t.db);
    const clerk = await createTestMember(t.db, org.id, { role: 'clerk', email: uniqueEmail() });
    const ctx = await adminContext(t.db, org.id, new Date());
    expect(pointers(await refusal(setMemberPassword(ctx, { id: clerk.id, password: 'x'.repeat(257) })))).toEqual(['/password']);
    const done = await setMemberPassword(ctx, { id: clerk.id, password: 'a fine new password' });
    expect(done.sessions_ended).toBe(1);
    expect((await refusal(createInProcessClient(t.deps, { token: clerk.session }).auth.me())).appCode).toBe('unauthenticated');
    // API keys are not sessions: they keep working.
    expect((await createInProcessClient(t.deps, { token: clerk.apiKey }).auth.me()).member.id).toBe(clerk.id);
    const history = await createInProcessClient(t.deps, { token: org.owner.session }).organization.settingsHistory.list({ entity: 'members', record_id: clerk.id });
    expect(history.items[0]).toMatchObject({ action: 'set_password', actor_via: 'system', actor_member_id: org.owner.id });
    expect(JSON.stringify(history.items[0])).not.toMatch(/argon2|password_hash/);
  });

  it('issueSession: 1 to 720 hours, an active member of the organization', async () => {
    const org = await createTestOrganization(t.db);
    const other = await createTestOrganization(t.db);
    const gone = await createTestMember(t.db, org.id, { role: 'viewer', active: false });
    const ctx = await adminContext(t.db, org.id, new Date());
    for (const hours of [0, 721, 1.5]) expect(pointers(await refusal(issueSession(ctx, { member_id: org.owner.id, hours })))).toEqual(['/hours']);
    expect(pointers(await refusal(issueSession(ctx, { member_id: gone.id })))).toEqual(['/member']);
    expect((await refusal(issueSession(ctx, { member_id: other.owner.id }))).appCode).toBe('not_found');
    const s = await issueSession(ctx, { member_id: org.owner.id, hours: 720 });
    expect(new Date(s.expires_at).getTime() - Date.now()).toBeGreaterThan(719 * 3600_000);
    expect((await createInProcessClient(t.deps, { token: s.session_token }).auth.me()).member.id).toBe(org.owner.id);
  });

  it('issueApiKey: known permissions, an expiry in the future; listApiKeysOf never answers a secret', async () => {
    const org = await createTestOrganization(t.db);
    const clerk = await createTestMember(t.db, org.id, { role: 'clerk' });
    const ctx = await adminContext(t.db, org.id, new Date());
    expect(pointers(await refusal(issueApiKey(ctx, { member_id: clerk.id, expires_at: new Date(Date.now() - 1000) })))).toEqual(['/expires_at']);
    expect(pointers(await refusal(issueApiKey(ctx, { member_id: clerk.id, permissions: ['receivables.invoice.read', 'god.mode'] })))).toEqual(['/permissions/1']);
    const key = await issueApiKey(ctx, { member_id: clerk.id, name: 'Integration', expires_at: new Date(Date.now() + 86_400_000) });
    expect(key.permissions).toContain('receivables.invoice.create');
    expect(key.permissions).not.toContain('organization.members.manage');
    const { items: listed } = await listApiKeysOf(ctx, { member_id: clerk.id });
    expect(listed).toHaveLength(2);
    expect(listed[0]).toMatchObject({ id: key.id, name: 'Integration', state: 'active', owner_member_id: clerk.id });
    // The secret is everything after fk_<key id>_ (base64url, which may itself hold underscores).
    const secret = key.api_key.slice(`fk_${key.id}_`.length);
    expect(secret.length).toBeGreaterThanOrEqual(20);
    expect(JSON.stringify(listed)).not.toContain(secret);
    expect(Object.keys(listed[0]!)).not.toEqual(expect.arrayContaining(['secret_hash']));
  });
});
