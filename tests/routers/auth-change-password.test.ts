import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createInProcessClient } from '../../src/client';
import { members, sessions, settingsHistory } from '../../src/db/schema';
import { appRouter } from '../../src/routers/app';
import { createInProcessContext } from '../../src/routers/context';
import { createCallerFactory } from '../../src/routers/trpc';
import { createTestMember, createTestOrganization, uniqueEmail } from '../factories/organization';
import { useTestApp } from '../helpers/app';

/**
 * auth.changePassword: a person changes their own password with the current one; every other session
 * of theirs ends, the one they used stays. A wrong current password is a 401 on that field, counted
 * and limited as a failed login. auth.me carries the organization's time zone and record languages.
 */
const t = useTestApp();
const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a longer staple of words';

let ipCounter = 0;
const freshIp = () => `10.19.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;
const anonymous = (ip: string) => createCallerFactory(appRouter)(createInProcessContext(t.deps, { ip }));
const refusal = (p: Promise<unknown>) => p.then(() => { throw new Error('expected a refusal'); }, (e) => e);

async function person() {
  const org = await createTestOrganization(t.db, { timeZone: 'Asia/Kuching', recordLanguages: ['en', 'ms'] });
  const email = uniqueEmail();
  const member = await createTestMember(t.db, org.id, { role: 'employee', email, password: PASSWORD, name: 'Nur Aina' });
  const ip = freshIp();
  const first = await anonymous(ip).auth.login({ email, password: PASSWORD });
  const second = await anonymous(ip).auth.login({ email, password: PASSWORD });
  return { org, member, email, ip, first: first.session_token!, second: second.session_token! };
}

const change = (ip: string, token: string, payload: object) =>
  t.app.inject({ method: 'POST', url: '/trpc/auth.changePassword', remoteAddress: ip, headers: { authorization: `Bearer ${token}` }, payload });
const meStatus = async (token: string) => (await t.app.inject({ method: 'GET', url: '/trpc/auth.me', headers: { authorization: `Bearer ${token}` } })).statusCode;

describe('auth.changePassword', () => {
  it('with the right current password: the new one logs in, the old one no longer; other sessions end, this one stays', async () => {
    const p = await person();
    const res = await change(p.ip, p.first, { current_password: PASSWORD, new_password: NEW_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    // Every session but the one used: the member's factory session and the second login.
    expect(res.json().result.data).toEqual({ changed: true, sessions_ended: 2 });
    expect(await meStatus(p.first)).toBe(200);
    expect(await meStatus(p.second)).toBe(401);
    expect(await meStatus(p.member.session)).toBe(401);
    const open = await t.db.select().from(sessions).where(and(eq(sessions.memberId, p.member.id), isNull(sessions.revokedAt)));
    expect(open).toHaveLength(1);
    expect((await refusal(anonymous(freshIp()).auth.login({ email: p.email, password: PASSWORD }))).appCode).toBe('unauthenticated');
    expect((await anonymous(freshIp()).auth.login({ email: p.email, password: NEW_PASSWORD })).member.id).toBe(p.member.id);
    const [history] = await t.db.select().from(settingsHistory).where(and(eq(settingsHistory.organizationId, p.org.id), eq(settingsHistory.action, 'change_password')));
    expect(history).toMatchObject({ entity: 'members', recordId: p.member.id, actorMemberId: p.member.id });
    expect(JSON.stringify(history)).not.toContain(NEW_PASSWORD);
  });

  it('a wrong current password is 401 current_password_wrong at /current_password; nothing changes and the session stays valid', async () => {
    const p = await person();
    const [before] = await t.db.select({ hash: members.passwordHash }).from(members).where(eq(members.id, p.member.id));
    const res = await change(p.ip, p.first, { current_password: 'not the password', new_password: NEW_PASSWORD });
    expect(res.statusCode).toBe(401);
    const problem = res.json().error.data.problem;
    expect(problem.code).toBe('current_password_wrong');
    expect(problem.errors).toEqual([{ pointer: '/current_password', detail: 'is not your current password' }]);
    // Not a session problem: no Bearer challenge, the session and the others still work.
    expect(res.headers['www-authenticate']).toBeUndefined();
    expect(await meStatus(p.first)).toBe(200);
    expect(await meStatus(p.second)).toBe(200);
    const [after] = await t.db.select({ hash: members.passwordHash }).from(members).where(eq(members.id, p.member.id));
    expect(after?.hash).toBe(before?.hash);
  });

  it('wrong current passwords count as failed logins: past the account-and-address limit even the right one is 429 with Retry-After', async () => {
    const p = await person();
    for (let i = 0; i < 5; i++) expect((await change(p.ip, p.first, { current_password: `wrong ${i}`, new_password: NEW_PASSWORD })).statusCode).toBe(401);
    const limited = await change(p.ip, p.first, { current_password: PASSWORD, new_password: NEW_PASSWORD });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.data.problem.code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The same counters as logging in: a login of that account from that address is refused too.
    expect((await refusal(anonymous(p.ip).auth.login({ email: p.email, password: PASSWORD }))).appCode).toBe('rate_limited');
  });

  it('the new password follows the members’ policy (422 at /new_password) and must differ; unknown fields are 400; an API key is 403 person_required', async () => {
    const p = await person();
    const short = await change(p.ip, p.first, { current_password: PASSWORD, new_password: 'short' });
    expect(short.statusCode).toBe(422);
    expect(short.json().error.data.problem.errors).toEqual([{ pointer: '/new_password', detail: 'must be at least 12 characters' }]);
    const same = await change(p.ip, p.first, { current_password: PASSWORD, new_password: PASSWORD });
    expect(same.statusCode).toBe(422);
    expect(same.json().error.data.problem.errors).toEqual([{ pointer: '/new_password', detail: 'must differ from the current password' }]);
    const blank = await change(p.ip, p.first, { current_password: '', new_password: NEW_PASSWORD });
    expect(blank.statusCode).toBe(422);
    expect(blank.json().error.data.problem.errors[0].pointer).toBe('/current_password');
    expect((await change(p.ip, p.first, { current_password: PASSWORD, new_password: NEW_PASSWORD, extra: 1 })).statusCode).toBe(400);
    const byKey = await refusal(createInProcessClient(t.deps, { token: p.member.apiKey }).auth.changePassword({ current_password: PASSWORD, new_password: NEW_PASSWORD }));
    expect(byKey.appCode).toBe('person_required');
    // None of these changed anything.
    expect((await anonymous(freshIp()).auth.login({ email: p.email, password: PASSWORD })).member.id).toBe(p.member.id);
  });
});

describe('auth.me', () => {
  it('carries the organization’s time zone and record languages beside its id and name', async () => {
    const p = await person();
    const me = await createInProcessClient(t.deps, { token: p.first }).auth.me();
    expect(me.organization).toEqual({ id: p.org.id, name: expect.any(String), time_zone: 'Asia/Kuching', record_languages: ['en', 'ms'] });
  });
});
