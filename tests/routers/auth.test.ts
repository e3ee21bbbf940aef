import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createInProcessClient } from '../../src/client';
import { loginFailures, members, sessions } from '../../src/db/schema';
import { login, loginSettings } from '../../src/services/access/login';
import { sha256Hex } from '../../src/lib/crypto';
import { appRouter } from '../../src/routers/app';
import { createInProcessContext } from '../../src/routers/context';
import { createCallerFactory } from '../../src/routers/trpc';
import { createTestMember, createTestOrganization, uniqueEmail } from '../factories/organization';
import { useTestApp } from '../helpers/app';

const t = useTestApp();
const PASSWORD = 'correct horse battery';

let ipCounter = 0;
/** A fresh source address per test: failed logins are counted per address. */
const freshIp = () => `10.9.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

/** A caller without credentials, as auth.login is called. */
const anonymous = (ip: string) => createCallerFactory(appRouter)(createInProcessContext(t.deps, { ip }));
const refusal = (p: Promise<unknown>) => p.then(() => { throw new Error('expected a refusal'); }, (e) => e);

async function personWithPassword(opts: { role?: 'owner' | 'accountant' | 'viewer'; active?: boolean } = {}) {
  const org = await createTestOrganization(t.db);
  const email = uniqueEmail();
  const member = await createTestMember(t.db, org.id, { role: opts.role ?? 'accountant', email, password: PASSWORD, name: 'Nur Aina', active: opts.active });
  return { org, member, email };
}

function at(iso: string) {
  t.setNow(new Date(iso));
}

describe('auth.login', () => {
  it('gives a session the next request authenticates with; auth.me answers member, organization and sorted permissions', async () => {
    const { org, member, email } = await personWithPassword();
    const ip = freshIp();
    const res = await t.app.inject({ method: 'POST', url: '/trpc/auth.login', remoteAddress: ip, payload: { email: email.toUpperCase(), password: PASSWORD } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const answer = res.json().result.data;
    expect(answer).toMatchObject({ member: { id: member.id, name: 'Nur Aina', email }, organization: { id: org.id } });
    expect(answer.session_token).toMatch(/^fs_/);
    expect(new Date(answer.expires_at).getTime() - Date.now()).toBeGreaterThan(11.9 * 3600_000);

    const me = await t.app.inject({ method: 'GET', url: '/trpc/auth.me', headers: { authorization: `Bearer ${answer.session_token}` } });
    expect(me.statusCode, me.body).toBe(200);
    const body = me.json().result.data;
    expect(body.member).toEqual({ id: member.id, name: 'Nur Aina', email });
    expect(body.organization.id).toBe(org.id);
    expect(body.via).toBe('session');
    expect(body.permissions).toEqual([...body.permissions].sort());
    expect(body.permissions).toContain('receivables.invoice.create');
    expect(body.permissions).not.toContain('organization.members.manage');
    // The token is kept hashed only; the password as argon2id.
    const [row] = await t.db.select().from(sessions).where(and(eq(sessions.organizationId, org.id), eq(sessions.memberId, member.id), eq(sessions.idleSeconds, 43_200)));
    expect(row?.tokenHash).not.toContain(answer.session_token);
    const [m] = await t.db.select({ hash: members.passwordHash }).from(members).where(eq(members.id, member.id));
    expect(m?.hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('auth.me with an API key answers its effective permissions', async () => {
    const org = await createTestOrganization(t.db);
    const viewer = await createTestMember(t.db, org.id, { role: 'viewer', keyPermissions: ['receivables.invoice.read', 'receivables.invoice.create'] });
    const me = await createInProcessClient(t.deps, { token: viewer.apiKey }).auth.me();
    // The key's own ∩ its owner's: a viewer cannot create invoices whatever the key says.
    expect(me.permissions).toEqual(['receivables.invoice.read']);
    expect(me.via).toBe('api_key');
  });

  it('answers the same 401 for a wrong e-mail, a wrong password, an inactive member and a member without a password', async () => {
    const { email } = await personWithPassword();
    const inactive = await personWithPassword({ active: false });
    const org = await createTestOrganization(t.db);
    const noPasswordEmail = uniqueEmail();
    await createTestMember(t.db, org.id, { email: noPasswordEmail });
    const ip = freshIp();
    const send = (payload: object) => t.app.inject({ method: 'POST', url: '/trpc/auth.login', remoteAddress: ip, payload });
    const answers = [
      await send({ email: uniqueEmail('nobody'), password: PASSWORD }),
      await send({ email, password: `${PASSWORD}!` }),
      await send({ email: inactive.email, password: PASSWORD }),
      await send({ email: noPasswordEmail, password: PASSWORD }),
      await send({ email, password: PASSWORD, organization_id: org.id }),
    ];
    const problems = answers.map((a) => {
      expect(a.statusCode).toBe(401);
      return a.json().error.data.problem;
    });
    for (const p of problems) expect({ code: p.code, detail: p.detail, title: p.title }).toEqual({ code: problems[0].code, detail: problems[0].detail, title: problems[0].title });
    expect(problems[0].code).toBe('unauthenticated');
  });

  it('refuses an unknown field (400) and a blank or over-long e-mail (422) before counting anything', async () => {
    const ip = freshIp();
    const caller = anonymous(ip);
    expect((await refusal(caller.auth.login({ email: 'a@b.test', password: 'x', remember: true } as never))).appCode).toBe('invalid_request');
    const blank = await refusal(caller.auth.login({ email: '  ', password: 'x' }));
    expect(blank.appCode).toBe('validation');
    expect(blank.fieldErrors).toEqual([{ pointer: '/email', detail: 'must not be blank' }]);
    const long = await refusal(caller.auth.login({ email: `${'a'.repeat(250)}@b.test`, password: 'x' }));
    expect(long.appCode).toBe('validation');
    expect(long.fieldErrors[0].pointer).toBe('/email');
    expect((await refusal(caller.auth.login({ email: 'a@b.test', password: 'x', organization_id: 'nope' }))).appCode).toBe('invalid_request');
  });

  it('the 21st attempt from one address is 429 with Retry-After, even with the right password; the window ends', async () => {
    const { email } = await personWithPassword();
    const ip = freshIp();
    at('2031-01-01T00:00:00Z');
    try {
      const send = (payload: object) => t.app.inject({ method: 'POST', url: '/trpc/auth.login', remoteAddress: ip, payload });
      // Twenty different accounts, so no account lock plays a part.
      for (let i = 0; i < 20; i++) expect((await send({ email: uniqueEmail(`guess${i}`), password: 'wrong password!' })).statusCode).toBe(401);
      at('2031-01-01T00:01:00Z');
      const refused = await send({ email, password: PASSWORD });
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.data.problem.code).toBe('rate_limited');
      expect(refused.headers['retry-after']).toBe('240');
      // Another address is not affected.
      expect((await t.app.inject({ method: 'POST', url: '/trpc/auth.login', remoteAddress: freshIp(), payload: { email, password: PASSWORD } })).statusCode).toBe(200);
      at('2031-01-01T00:05:00Z');
      expect((await send({ email, password: PASSWORD })).statusCode).toBe(200);
    } finally {
      t.setNow(undefined);
    }
  });

  it("an attacker's failures lock the account out of the attacker's address only: the owner logs in from theirs, at any pace of the attacker", async () => {
    const { email } = await personWithPassword();
    const attacker = freshIp();
    const owner = freshIp();
    const send = (ip: string, password: string) =>
      t.app.inject({ method: 'POST', url: '/trpc/auth.login', remoteAddress: ip, payload: { email, password } });
    let now = new Date('2032-03-01T08:00:00Z').getTime();
    const advance = (seconds: number) => {
      now += seconds * 1000;
      t.setNow(new Date(now));
    };
    advance(0);
    try {
      for (let i = 0; i < 5; i++) expect((await send(attacker, 'not the password')).statusCode).toBe(401);
      // The pair (attacker's address, account) is over its 5 per 15 minutes: refused, even with the right password.
      const refused = await send(attacker, PASSWORD);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('900');
      expect(refused.json().error.data.problem.detail).toMatch(/for this account from this address/);
      // The owner, from their own address, is not locked out.
      expect((await send(owner, PASSWORD)).statusCode).toBe(200);
      // One failure every 15 minutes keeps nobody out either.
      for (let i = 0; i < 4; i++) {
        advance(900);
        expect((await send(attacker, 'not the password')).statusCode).toBe(401);
        expect((await send(owner, PASSWORD)).statusCode).toBe(200);
      }
    } finally {
      t.setNow(undefined);
    }
  });

  it('past the much higher per-account limit the account is locked everywhere until its window ends; a refused attempt counts nothing', async () => {
    const { email } = await personWithPassword();
    const settings = { ...loginSettings(t.deps.config), failuresPerAccount: 3, accountWindowSeconds: 3600 };
    const from = (ip: string) => (password: string) => login({ db: t.db, now: t.deps.now(), ip, settings }, { email, password });
    at('2033-05-01T00:00:00Z');
    try {
      for (let i = 0; i < 3; i++) expect((await refusal(from(freshIp())('not the password'))).appCode).toBe('unauthenticated');
      const locked = await refusal(from(freshIp())(PASSWORD));
      expect(locked.appCode).toBe('rate_limited');
      expect(locked.retryAfterSeconds).toBe(3600);
      expect(locked.detail).toMatch(/^Too many failed logins for this account;/);
      // The refusals gave their units back: the account's counter holds the 3 failures only.
      for (let i = 0; i < 5; i++) await refusal(from(freshIp())('not the password'));
      const [row] = await t.db.select().from(loginFailures).where(and(eq(loginFailures.kind, 'account'), eq(loginFailures.subject, sha256Hex(`login:${email.toLowerCase()}`))));
      expect(row?.failures).toBe(3);
      at('2033-05-01T01:00:00Z');
      expect((await from(freshIp())(PASSWORD)).session_token).toMatch(/^fs_/);
    } finally {
      t.setNow(undefined);
    }
  });

  it("another organization's member with the same e-mail: logging in with their own password neither names the other memberships nor clears the other's failures", async () => {
    const victim = await personWithPassword();
    // The victim's account has failures on record.
    const victimIp = freshIp();
    for (let i = 0; i < 3; i++) await refusal(anonymous(victimIp).auth.login({ email: victim.email, password: 'not the password' }));
    const subject = sha256Hex(`login:${victim.email.toLowerCase()}`);
    const failures = async () =>
      (await t.db.select().from(loginFailures).where(and(eq(loginFailures.kind, 'account'), eq(loginFailures.subject, subject))))[0]?.failures;
    expect(await failures()).toBe(3);

    // Another organization adds a member with the victim's e-mail and a password of its choosing.
    const other = await createTestOrganization(t.db);
    const added = await createInProcessClient(t.deps, { token: other.owner.session }).organization.members.add({
      name: 'Someone Else',
      email: victim.email.toUpperCase(),
      password: 'a password we chose',
      roles: ['viewer'],
    });
    expect(added.email).toBe(victim.email.toUpperCase());
    expect(await failures()).toBe(3);
    // That password opens that membership only: a session, as for an e-mail used nowhere else (no 422 naming organizations).
    const session = await anonymous(freshIp()).auth.login({ email: victim.email, password: 'a password we chose' });
    expect(session.organization.id).toBe(other.id);
    expect(session.member.id).toBe(added.id);
    // The victim's failures are untouched.
    expect(await failures()).toBe(3);
  });

  it('a person of several organizations names one (422 at /organization_id once the password is right)', async () => {
    const email = uniqueEmail('multi');
    const a = await createTestOrganization(t.db, { name: 'Alpha Sdn Bhd' });
    const b = await createTestOrganization(t.db, { name: 'Beta Sdn Bhd' });
    const inA = await createTestMember(t.db, a.id, { role: 'viewer', email, password: PASSWORD });
    await createTestMember(t.db, b.id, { role: 'clerk', email: email.toUpperCase(), password: PASSWORD });
    const caller = anonymous(freshIp());
    expect((await refusal(caller.auth.login({ email, password: 'wrong wrong wrong' }))).appCode).toBe('unauthenticated');
    const e = await refusal(caller.auth.login({ email, password: PASSWORD }));
    expect(e.appCode).toBe('validation');
    expect(e.fieldErrors).toEqual([{ pointer: '/organization_id', detail: expect.any(String) }]);
    expect(e.extensions.organizations.map((o: { id: string }) => o.id).sort()).toEqual([a.id, b.id].sort());
    const ok = await caller.auth.login({ email, password: PASSWORD, organization_id: a.id });
    expect(ok.organization).toEqual({ id: a.id, name: 'Alpha Sdn Bhd' });
    expect(ok.member.id).toBe(inA.id);
  });
});

describe('sessions', () => {
  it('slide: each use moves the expiry 12 hours on (written at most once a minute); unused, the session ends', async () => {
    const { email } = await personWithPassword();
    const caller = anonymous(freshIp());
    at('2033-05-01T00:00:00Z');
    try {
      const { session_token, expires_at } = await caller.auth.login({ email, password: PASSWORD });
      expect(expires_at).toBe('2033-05-01T12:00:00.000Z');
      const me = () => createInProcessClient(t.deps, { token: session_token }).auth.me();
      const expiry = async () => {
        const [row] = await t.db.select({ e: sessions.expiresAt }).from(sessions).where(eq(sessions.tokenHash, sha256Hex(session_token!)));
        return row!.e.toISOString();
      };
      at('2033-05-01T11:00:00Z');
      await me();
      expect(await expiry()).toBe('2033-05-01T23:00:00.000Z');
      at('2033-05-01T11:00:30Z');
      await me();
      expect(await expiry()).toBe('2033-05-01T23:00:00.000Z');
      at('2033-05-01T22:59:00Z');
      await me();
      at('2033-05-02T10:58:00Z');
      expect((await me()).member.email).toBe(email);
      at('2033-05-02T23:00:00Z');
      expect((await refusal(me())).appCode).toBe('unauthenticated');
    } finally {
      t.setNow(undefined);
    }
  });

  it('auth.logout ends the session; the next request with it is 401; an API key cannot log out (403 person_required)', async () => {
    const { email, member } = await personWithPassword();
    const { session_token } = await anonymous(freshIp()).auth.login({ email, password: PASSWORD });
    const client = createInProcessClient(t.deps, { token: session_token });
    expect(await client.auth.logout()).toEqual({ revoked: true });
    const after = await t.app.inject({ method: 'GET', url: '/trpc/auth.me', headers: { authorization: `Bearer ${session_token}` } });
    expect(after.statusCode).toBe(401);
    const byKey = await refusal(createInProcessClient(t.deps, { token: member.apiKey }).auth.logout());
    expect(byKey.appCode).toBe('person_required');
    expect(byKey.status).toBe(403);
    // The member's other session (the factory's) is untouched.
    expect((await createInProcessClient(t.deps, { token: member.session }).auth.me()).member.id).toBe(member.id);
  });
});
