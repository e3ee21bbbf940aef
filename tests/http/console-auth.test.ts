import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sessions } from '../../src/db/schema';
import { sha256Hex } from '../../src/lib/crypto';
import { createTestMember, createTestOrganization, uniqueEmail } from '../factories/organization';
import { uploadTestDocument } from '../factories/receivables';
import { useTestApp } from '../helpers/app';
import { multipartBody, SAMPLE_PDF } from '../helpers/multipart';
import { expectProblem } from '../helpers/problem';

const t = useTestApp();
const PASSWORD = 'correct horse battery';
const HOST = 'localhost:3000';
const ORIGIN = 'http://localhost:3000';
const CONSOLE = { 'x-requested-with': 'console' };

let ipCounter = 0;
const freshIp = () => `10.26.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

async function person(role: 'accountant' | 'owner' = 'accountant') {
  const org = await createTestOrganization(t.db);
  const email = uniqueEmail();
  const member = await createTestMember(t.db, org.id, { role, email, password: PASSWORD, name: 'Nur Aina' });
  return { org, member, email };
}

type Headers = Record<string, string>;

function login(payload: object, headers: Headers = { host: HOST, ...CONSOLE }) {
  return t.app.inject({ method: 'POST', url: '/trpc/auth.login', remoteAddress: freshIp(), headers, payload });
}

/** Signs in with the cookie; answers the cookie's `name=value` and the whole Set-Cookie header. */
async function cookieLogin(email: string) {
  const res = await login({ email, password: PASSWORD, cookie: true });
  expect(res.statusCode, res.body).toBe(200);
  const setCookie = String(res.headers['set-cookie']);
  const pair = setCookie.split(';')[0]!;
  return { res, setCookie, cookie: pair, token: pair.slice('fs_session='.length) };
}

const trpcGet = (path: string, headers: Headers) => t.app.inject({ method: 'GET', url: `/trpc/${path}`, headers: { host: HOST, ...headers } });
const trpcPost = (path: string, headers: Headers, payload: object = {}) =>
  t.app.inject({ method: 'POST', url: `/trpc/${path}`, headers: { host: HOST, 'content-type': 'application/json', ...headers }, payload });
const customer = () => ({ code: `C${Math.random().toString(36).slice(2, 8)}`, legal_name: 'Kedai Runcit Aminah' });

describe('auth.login with cookie: true', () => {
  it('sets an HttpOnly, SameSite=Strict session cookie and answers no token', async () => {
    const { member, org, email } = await person();
    const { res, setCookie, token } = await cookieLogin(email);
    expect(setCookie).toMatch(/^fs_session=fs_[A-Za-z0-9_-]+; Max-Age=2592000; HttpOnly; SameSite=Strict; Path=\/$/);
    // Plain HTTP to a loopback host: no Secure (a browser would drop it); anywhere else it is Secure.
    expect(setCookie).not.toContain('Secure');
    expect(res.headers['cache-control']).toBe('no-store');
    const answer = res.json().result.data;
    expect(answer).not.toHaveProperty('session_token');
    expect(JSON.stringify(answer)).not.toContain(token);
    expect(answer).toMatchObject({ member: { id: member.id }, organization: { id: org.id }, expires_at: expect.any(String) });
    const [row] = await t.db.select({ memberId: sessions.memberId }).from(sessions).where(eq(sessions.tokenHash, sha256Hex(token)));
    expect(row?.memberId).toBe(member.id);
  });

  it('marks the cookie Secure over HTTPS and over plain HTTP to a host that is not loopback', async () => {
    const { email } = await person();
    for (const host of ['console.example.my', '192.168.1.20:3000']) {
      const res = await login({ email, password: PASSWORD, cookie: true }, { host, ...CONSOLE });
      expect(res.statusCode, res.body).toBe(200);
      expect(String(res.headers['set-cookie'])).toMatch(/; Secure$/);
    }
  });

  it('without cookie the login answers the bearer token as before and sets no cookie', async () => {
    const { email } = await person();
    const res = await login({ email, password: PASSWORD }, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.json().result.data.session_token).toMatch(/^fs_/);
  });

  it('a cookie login without the console header, or from another origin, is 403 csrf_refused before any password is checked', async () => {
    const { email } = await person();
    const bare = await login({ email, password: PASSWORD, cookie: true }, { host: HOST });
    expect(bare.statusCode, bare.body).toBe(403);
    expect(bare.json().error.data.problem.code).toBe('csrf_refused');
    const foreign = await login({ email, password: 'wrong', cookie: true }, { host: HOST, origin: 'https://evil.example', ...CONSOLE });
    expect(foreign.statusCode, foreign.body).toBe(403);
    expect(foreign.headers['set-cookie']).toBeUndefined();
  });

  it('names the organizations of a person of several only after the password is right', async () => {
    const a = await createTestOrganization(t.db, { name: 'Syarikat Alpha' });
    const b = await createTestOrganization(t.db, { name: 'Syarikat Beta' });
    const email = uniqueEmail();
    await createTestMember(t.db, a.id, { role: 'employee', email, password: PASSWORD });
    const inB = await createTestMember(t.db, b.id, { role: 'employee', email, password: PASSWORD });
    const wrong = await login({ email, password: 'not the password', cookie: true });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).not.toContain('Syarikat');
    const picker = await login({ email, password: PASSWORD, cookie: true });
    expect(picker.statusCode, picker.body).toBe(422);
    expect(picker.headers['set-cookie']).toBeUndefined();
    const problem = picker.json().error.data.problem;
    expect(problem.errors).toEqual([{ pointer: '/organization_id', detail: 'is required: you are a member of several organizations' }]);
    expect([...problem.organizations].sort((x: { name: string }, y: { name: string }) => x.name.localeCompare(y.name))).toEqual([
      { id: a.id, name: 'Syarikat Alpha' },
      { id: b.id, name: 'Syarikat Beta' },
    ]);
    const chosen = await login({ email, password: PASSWORD, cookie: true, organization_id: b.id });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json().result.data).toMatchObject({ member: { id: inB.id }, organization: { id: b.id, name: 'Syarikat Beta' } });
  });
});

describe('requests authenticated by the session cookie', () => {
  it('a GET works without the console header (tRPC and /v1)', async () => {
    const { member, email } = await person();
    const { cookie } = await cookieLogin(email);
    const me = await trpcGet('auth.me', { cookie });
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json().result.data).toMatchObject({ member: { id: member.id }, via: 'session' });
    const list = await t.app.inject({ method: 'GET', url: '/v1/receivables/customers', headers: { host: HOST, cookie, 'sec-fetch-site': 'same-origin' } });
    expect(list.statusCode, list.body).toBe(200);
  });

  it('a write without X-Requested-With: console is 403 csrf_refused (tRPC and /v1), and nothing is written', async () => {
    const { email } = await person();
    const { cookie } = await cookieLogin(email);
    const trpc = await trpcPost('receivables.customers.create', { cookie }, customer());
    expect(trpc.statusCode, trpc.body).toBe(403);
    expect(trpc.json().error.data.problem).toMatchObject({ code: 'csrf_refused', detail: expect.stringContaining('X-Requested-With: console') });
    const rest = await t.app.inject({ method: 'POST', url: '/v1/receivables/customers', headers: { host: HOST, cookie, 'idempotency-key': crypto.randomUUID() }, payload: customer() });
    expectProblem(rest, 403, 'csrf_refused');
    const list = await t.app.inject({ method: 'GET', url: '/v1/receivables/customers', headers: { host: HOST, cookie } });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().customers).toEqual([]);
  });

  it('a request from another origin or site is 403, whatever its method', async () => {
    const { email } = await person();
    const { cookie } = await cookieLogin(email);
    const foreign = await trpcPost('receivables.customers.create', { cookie, ...CONSOLE, origin: 'https://evil.example' }, customer());
    expect(foreign.statusCode, foreign.body).toBe(403);
    expect(foreign.json().error.data.problem.code).toBe('csrf_refused');
    const nullOrigin = await trpcPost('receivables.customers.create', { cookie, ...CONSOLE, origin: 'null' }, customer());
    expect(nullOrigin.statusCode).toBe(403);
    const crossSiteGet = await trpcGet('auth.me', { cookie, 'sec-fetch-site': 'cross-site' });
    expect(crossSiteGet.statusCode).toBe(403);
    const otherPortGet = await trpcGet('auth.me', { cookie, origin: 'http://localhost:5173' });
    expect(otherPortGet.statusCode).toBe(403);
  });

  it('a write with the header from the same origin succeeds', async () => {
    const { email } = await person();
    const { cookie } = await cookieLogin(email);
    const trpc = await trpcPost('receivables.customers.create', { cookie, ...CONSOLE, origin: ORIGIN, 'sec-fetch-site': 'same-origin' }, customer());
    expect(trpc.statusCode, trpc.body).toBe(201);
    const rest = await t.app.inject({
      method: 'POST',
      url: '/v1/receivables/customers',
      headers: { host: HOST, cookie, ...CONSOLE, origin: ORIGIN, 'idempotency-key': crypto.randomUUID() },
      payload: customer(),
    });
    expect(rest.statusCode, rest.body).toBe(201);
  });

  it('PUBLIC_BASE_URL names an origin of its own too', async () => {
    const { createTestApp } = await import('../helpers/app');
    const other = await createTestApp({ PUBLIC_BASE_URL: 'https://finance.example.my' });
    try {
      const org = await createTestOrganization(other.db);
      const email = uniqueEmail();
      await createTestMember(other.db, org.id, { role: 'accountant', email, password: PASSWORD });
      const res = await other.app.inject({
        method: 'POST',
        url: '/trpc/auth.login',
        headers: { host: '10.0.0.5:3000', origin: 'https://finance.example.my', ...CONSOLE },
        payload: { email, password: PASSWORD, cookie: true },
      });
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      await other.app.close();
      await other.handle.close();
    }
  });

  it('the upload, the content and an invoice PDF route take the cookie by the same rule', async () => {
    const { org, member, email } = await person();
    const { cookie } = await cookieLogin(email);
    const { payload, contentType } = multipartBody({ filename: 'scan.pdf', contentType: 'application/pdf', content: SAMPLE_PDF });
    const upload = (headers: Headers) =>
      t.app.inject({ method: 'POST', url: '/v1/documents', headers: { host: HOST, cookie, 'content-type': contentType, 'idempotency-key': crypto.randomUUID(), ...headers }, payload });
    expectProblem(await upload({}), 403, 'csrf_refused');
    const stored = await upload({ ...CONSOLE, origin: ORIGIN });
    expect(stored.statusCode, stored.body).toBe(201);
    // An <img> or <a> of the console: a GET with the cookie and no custom header.
    const doc = await uploadTestDocument(t.db, org.id, member.id);
    const content = await t.app.inject({ method: 'GET', url: `/v1/documents/${doc.id}/content`, headers: { host: HOST, cookie, 'sec-fetch-site': 'same-origin' } });
    expect(content.statusCode, content.body).toBe(200);
    expect(content.headers['content-type']).toBe('application/pdf');
    const fromElsewhere = await t.app.inject({ method: 'GET', url: `/v1/documents/${doc.id}/content`, headers: { host: HOST, cookie, 'sec-fetch-site': 'cross-site' } });
    expectProblem(fromElsewhere, 403, 'csrf_refused');
    const pdf = await t.app.inject({ method: 'GET', url: `/v1/receivables/invoices/${crypto.randomUUID()}/pdf`, headers: { host: HOST, cookie } });
    // Authenticated by the cookie: the unknown invoice is 404, not 401.
    expectProblem(pdf, 404);
  });

  it('a bearer wins over the cookie: no console header needed, and a bad cookie beside it changes nothing', async () => {
    const { org, email } = await person();
    const res = await trpcPost('receivables.customers.create', { authorization: `Bearer ${org.owner.apiKey}`, 'idempotency-key': crypto.randomUUID(), cookie: 'fs_session=fs_unknown', origin: 'https://evil.example' }, customer());
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['set-cookie']).toBeUndefined();
    const { token } = await cookieLogin(email);
    const bearerSession = await trpcGet('auth.me', { authorization: `Bearer ${token}` });
    expect(bearerSession.statusCode).toBe(200);
  });

  it('an unknown cookie is 401 and clears the cookie (tRPC and /v1)', async () => {
    const cookie = 'fs_session=fs_notasessionthatexists';
    const trpc = await trpcGet('auth.me', { cookie });
    expect(trpc.statusCode).toBe(401);
    expect(String(trpc.headers['set-cookie'])).toMatch(/^fs_session=; Max-Age=0; HttpOnly; SameSite=Strict; Path=\/$/);
    const rest = await t.app.inject({ method: 'GET', url: '/v1/receivables/customers', headers: { host: HOST, cookie } });
    expectProblem(rest, 401, 'unauthenticated');
    expect(String(rest.headers['set-cookie'])).toMatch(/^fs_session=; Max-Age=0/);
    const notASession = await trpcGet('auth.me', { cookie: 'fs_session=fk_abc_def' });
    expect(notASession.statusCode).toBe(401);
  });

  it('an expired session by cookie is 401', async () => {
    const { email } = await person();
    const { cookie } = await cookieLogin(email);
    t.setNow(new Date(Date.now() + 13 * 3600_000));
    try {
      const res = await trpcGet('auth.me', { cookie });
      expect(res.statusCode).toBe(401);
      expect(String(res.headers['set-cookie'])).toMatch(/Max-Age=0/);
    } finally {
      t.setNow(undefined);
    }
  });

  it('logout needs the console header, ends the session and clears the cookie; the old cookie is 401 afterwards', async () => {
    const { email } = await person();
    const { cookie, token } = await cookieLogin(email);
    const refused = await trpcPost('auth.logout', { cookie });
    expect(refused.statusCode).toBe(403);
    const out = await trpcPost('auth.logout', { cookie, ...CONSOLE, origin: ORIGIN });
    expect(out.statusCode, out.body).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/^fs_session=; Max-Age=0; HttpOnly; SameSite=Strict; Path=\/$/);
    const [row] = await t.db.select({ revokedAt: sessions.revokedAt }).from(sessions).where(eq(sessions.tokenHash, sha256Hex(token)));
    expect(row?.revokedAt).not.toBeNull();
    const after = await trpcGet('auth.me', { cookie });
    expect(after.statusCode).toBe(401);
  });

  it('a bearer logout sets no cookie', async () => {
    const { email } = await person();
    const res = await login({ email, password: PASSWORD }, {});
    const token = res.json().result.data.session_token;
    const out = await trpcPost('auth.logout', { authorization: `Bearer ${token}` });
    expect(out.statusCode, out.body).toBe(200);
    expect(out.headers['set-cookie']).toBeUndefined();
  });
});
