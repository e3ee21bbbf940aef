import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestCustomer } from '../factories/customer';
import { createSession } from '../../src/services/access/admin';
import { bearer, createTestMember, createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { expectProblem } from '../helpers/problem';
import { customerCreateTarget, sendWrite } from '../helpers/writes';

const PER_KEY = 5;
const PER_ORG = 8;
const PER_MEMBER = 4;
const AUTH_FAILURES = 20;
const t = useTestApp({
  RATE_LIMIT_PER_KEY: String(PER_KEY),
  RATE_LIMIT_PER_MEMBER: String(PER_MEMBER),
  RATE_LIMIT_PER_ORGANIZATION: String(PER_ORG),
  RATE_LIMIT_AUTH_FAILURES: String(AUTH_FAILURES),
});

/** A fresh address per test: counters per address are shared by everything on it. */
const address = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;

// On PostgreSQL the per-address counters are shared with every other test app, and other tests fail
// keys from 127.0.0.1: each request names its address.
const read = (url: string, token: string, remoteAddress = address()) =>
  t.app.inject({ method: 'GET', url, headers: bearer(token), remoteAddress });

function limits(res: { headers: Record<string, unknown> }) {
  return {
    limit: Number(res.headers['ratelimit-limit']),
    remaining: Number(res.headers['ratelimit-remaining']),
    reset: Number(res.headers['ratelimit-reset']),
  };
}

describe('rate limits per API key and per organization', () => {
  it('every answer to a key carries RateLimit-* headers that count down; the next one over is 429 with Retry-After', async () => {
    const org = await createTestOrganization(t.db);
    const customer = await createTestCustomer(t.db, org.id);
    const url = `/v1/receivables/customers/${customer.id}`;
    for (let i = 1; i <= PER_KEY; i++) {
      const res = await read(url, org.owner.apiKey);
      expect(res.statusCode).toBe(200);
      const l = limits(res);
      expect(l.limit).toBe(PER_KEY);
      expect(l.remaining).toBe(PER_KEY - i);
      expect(l.reset).toBeGreaterThanOrEqual(1);
      expect(l.reset).toBeLessThanOrEqual(60);
    }
    const over = await read(url, org.owner.apiKey);
    const problem = expectProblem(over, 429, 'rate_limited');
    expect(problem.detail).toMatch(/API key/);
    const l = limits(over);
    expect(l).toMatchObject({ limit: PER_KEY, remaining: 0 });
    const retryAfter = Number(over.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(Math.max(1, l.reset));
  });

  it('error answers and /trpc answers carry the headers too; a session counts against its member and the organization', async () => {
    const org = await createTestOrganization(t.db);
    const missing = await read(`/v1/receivables/customers/${randomUUID()}`, org.owner.apiKey);
    expectProblem(missing, 404, 'not_found');
    expect(limits(missing)).toMatchObject({ limit: PER_KEY, remaining: PER_KEY - 1 });

    const target = customerCreateTarget();
    const noKey = await sendWrite(t.app, target, { token: org.owner.apiKey, remoteAddress: address() });
    expect(noKey.statusCode).toBe(422);
    expect(limits(noKey)).toMatchObject({ limit: PER_KEY, remaining: PER_KEY - 2 });
    const created = await sendWrite(t.app, target, { token: org.owner.apiKey, key: 'rl-1', remoteAddress: address() });
    expect(created.statusCode).toBe(201);
    expect(limits(created)).toMatchObject({ limit: PER_KEY, remaining: PER_KEY - 3 });

    const bySession = await read(`/v1/receivables/customers/${target.record(created.json()).id}`, org.owner.session);
    expect(bySession.statusCode).toBe(200);
    // The member has PER_MEMBER - 1 left, the organization PER_ORG - 4: the tighter is shown.
    expect(limits(bySession)).toMatchObject({ limit: PER_MEMBER, remaining: PER_MEMBER - 1 });
  });

  it("sessions are limited per member (across the member's sessions) like keys: headers count down, the next over is 429 with Retry-After, on /v1 and /trpc", async () => {
    const org = await createTestOrganization(t.db);
    const person = await createTestMember(t.db, org.id, { role: 'viewer' });
    const customer = await createTestCustomer(t.db, org.id);
    const url = `/v1/receivables/customers/${customer.id}`;
    const from = address();
    for (let i = 1; i <= PER_MEMBER - 1; i++) {
      const res = await read(url, person.session, from);
      expect(res.statusCode).toBe(200);
      expect(limits(res)).toMatchObject({ limit: PER_MEMBER, remaining: PER_MEMBER - i });
      expect(limits(res).reset).toBeGreaterThanOrEqual(1);
    }
    // A second session of the same member shares the member's limit.
    const second = await createSession(t.db, { organizationId: org.id, memberId: person.id, now: new Date() });
    const trpc = await t.app.inject({ method: 'GET', url: '/trpc/auth.me', headers: bearer(second.token), remoteAddress: from });
    expect(trpc.statusCode).toBe(200);
    expect(limits(trpc)).toMatchObject({ limit: PER_MEMBER, remaining: 0 });
    const over = await read(url, person.session, from);
    const problem = expectProblem(over, 429, 'rate_limited');
    expect(problem.detail).toMatch(/person/);
    expect(limits(over)).toMatchObject({ limit: PER_MEMBER, remaining: 0 });
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(Math.max(1, limits(over).reset));
    const overTrpc = await t.app.inject({ method: 'GET', url: '/trpc/auth.me', headers: bearer(second.token), remoteAddress: from });
    expect(overTrpc.statusCode).toBe(429);
    // The organization's budget holds across people and keys: PER_MEMBER + 1 counted so far (the refused ones are not).
    const key = await read(url, org.owner.apiKey, from);
    expect(key.statusCode).toBe(200);
    expect(limits(key)).toMatchObject({ limit: PER_ORG, remaining: PER_ORG - PER_MEMBER - 1 });
    // Another member of the organization is not slowed by this one.
    expect((await read(url, org.owner.session, from)).statusCode).toBe(200);
  });

  it('the organization limit holds across its keys, and the headers show the tightest limit', async () => {
    const org = await createTestOrganization(t.db);
    const second = await createTestMember(t.db, org.id, { role: 'viewer' });
    const customer = await createTestCustomer(t.db, org.id);
    const url = `/v1/receivables/customers/${customer.id}`;
    for (let i = 0; i < PER_KEY; i++) expect((await read(url, org.owner.apiKey)).statusCode).toBe(200);
    // Organization: PER_KEY used, PER_ORG - PER_KEY left.
    const left = PER_ORG - PER_KEY;
    for (let i = 1; i <= left; i++) {
      const res = await read(url, second.apiKey);
      expect(res.statusCode).toBe(200);
      // The key has PER_KEY - i left, the organization left - i: the tighter is shown.
      expect(limits(res)).toMatchObject({ limit: PER_ORG, remaining: left - i });
    }
    const over = await read(url, second.apiKey);
    const problem = expectProblem(over, 429, 'rate_limited');
    expect(problem.detail).toMatch(/organization/);
    expect(limits(over)).toMatchObject({ limit: PER_ORG, remaining: 0 });
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('a key over its limit does not slow a key of another organization', async () => {
    const noisy = await createTestOrganization(t.db);
    const quiet = await createTestOrganization(t.db);
    const a = await createTestCustomer(t.db, noisy.id);
    const b = await createTestCustomer(t.db, quiet.id);
    for (let i = 0; i < PER_KEY + 3; i++) await read(`/v1/receivables/customers/${a.id}`, noisy.owner.apiKey);
    expect((await read(`/v1/receivables/customers/${a.id}`, noisy.owner.apiKey)).statusCode).toBe(429);
    const res = await read(`/v1/receivables/customers/${b.id}`, quiet.owner.apiKey);
    expect(res.statusCode).toBe(200);
    expect(limits(res)).toMatchObject({ limit: PER_KEY, remaining: PER_KEY - 1 });
  });
});

describe('failed authentication per source address', () => {
  it(`${AUTH_FAILURES} bad keys from one address are 401; the next is 429 before the key is checked; another address is unaffected`, async () => {
    const org = await createTestOrganization(t.db);
    const customer = await createTestCustomer(t.db, org.id);
    const url = `/v1/receivables/customers/${customer.id}`;
    const attacker = address();
    const badKey = () => `fk_${randomUUID()}_${'x'.repeat(32)}`;
    for (let i = 1; i <= AUTH_FAILURES; i++) {
      const res = await read(url, badKey(), attacker);
      expectProblem(res, 401);
      expect(limits(res)).toMatchObject({ limit: AUTH_FAILURES, remaining: AUTH_FAILURES - i });
    }
    const blocked = await read(url, badKey(), attacker);
    expectProblem(blocked, 429, 'rate_limited');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(300);
    // Refused before the key is looked at: even a valid key from that address waits.
    expectProblem(await read(url, org.owner.apiKey, attacker), 429, 'rate_limited');
    // Over /trpc too.
    const trpc = await t.app.inject({ method: 'GET', url: `/trpc/receivables.customers.get?input=${encodeURIComponent(JSON.stringify({ id: customer.id }))}`, headers: bearer(badKey()), remoteAddress: attacker });
    expect(trpc.statusCode).toBe(429);

    const elsewhere = await read(url, org.owner.apiKey, address());
    expect(elsewhere.statusCode).toBe(200);
  });

  it(`100 wrong keys at once from one address: ${AUTH_FAILURES} are checked and answered 401, the rest 429 without being checked`, async () => {
    const org = await createTestOrganization(t.db);
    const customer = await createTestCustomer(t.db, org.id);
    const url = `/v1/receivables/customers/${customer.id}`;
    const attacker = address();
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => read(url, `fk_${randomUUID()}_${'x'.repeat(32)}`, attacker)),
    );
    const refused = answers.filter((a) => a.statusCode === 429);
    expect(answers.filter((a) => a.statusCode === 401)).toHaveLength(AUTH_FAILURES);
    expect(refused).toHaveLength(100 - AUTH_FAILURES);
    for (const a of refused) {
      expectProblem(a, 429, 'rate_limited');
      expect(limits(a)).toMatchObject({ limit: AUTH_FAILURES, remaining: 0 });
      expect(Number(a.headers['retry-after'])).toBeGreaterThanOrEqual(Math.max(1, limits(a).reset));
    }
    // Each answered failure saw a different count.
    const remaining = answers.filter((a) => a.statusCode === 401).map((a) => limits(a).remaining).sort((x, y) => x - y);
    expect(remaining).toEqual(Array.from({ length: AUTH_FAILURES }, (_, i) => i));
  });

  it('failed session tokens count against the address like failed keys', async () => {
    const org = await createTestOrganization(t.db);
    const customer = await createTestCustomer(t.db, org.id);
    const url = `/v1/receivables/customers/${customer.id}`;
    const from = address();
    for (let i = 1; i <= AUTH_FAILURES; i++) {
      const res = await read(url, `fs_${randomUUID().replaceAll('-', '')}`, from);
      expectProblem(res, 401);
      expect(limits(res)).toMatchObject({ limit: AUTH_FAILURES, remaining: AUTH_FAILURES - i });
    }
    expectProblem(await read(url, `fs_${randomUUID().replaceAll('-', '')}`, from), 429, 'rate_limited');
    // A valid session from that address waits too.
    expectProblem(await read(url, org.owner.session, from), 429, 'rate_limited');
    expect((await read(url, org.owner.session, address())).statusCode).toBe(200);
  });

  it('good sessions and keys (cached or not) give their reserved attempt back', async () => {
    const org = await createTestOrganization(t.db);
    const second = await createTestMember(t.db, org.id, { role: 'viewer' });
    const customer = await createTestCustomer(t.db, org.id);
    const url = `/v1/receivables/customers/${customer.id}`;
    const from = address();
    // More than the address's budget of good attempts (the member's request limit answers 429 past its own).
    for (let i = 0; i < AUTH_FAILURES + 2; i++) expect((await read(url, org.owner.session, from)).statusCode).toBeOneOf([200, 429]);
    // A key seen for the first time, then again.
    expect((await read(url, second.apiKey, from)).statusCode).toBe(200);
    expect((await read(url, second.apiKey, from)).statusCode).toBe(200);
    const failed = await read(url, `fs_${randomUUID().replaceAll('-', '')}`, from);
    expectProblem(failed, 401);
    expect(limits(failed)).toMatchObject({ limit: AUTH_FAILURES, remaining: AUTH_FAILURES - 1 });
  });

  it('100 requests at once with one valid session, or one valid key, from one address: all answered, none counted as a failure', async () => {
    const org = await createTestOrganization(t.db);
    const customer = await createTestCustomer(t.db, org.id);
    const url = `/v1/receivables/customers/${customer.id}`;
    const from = address();
    // Answered 200 up to the member's and the organization's request limits (small here), then 429 by
    // those limits: never 401, never refused by the address's failed-authentication limit.
    const notAFailure = (answers: { statusCode: number; headers: Record<string, unknown> }[]) => {
      expect(answers.filter((a) => a.statusCode !== 200 && a.statusCode !== 429)).toEqual([]);
      expect(answers.filter((a) => a.statusCode === 429).map((a) => limits(a).limit).filter((l) => l === AUTH_FAILURES)).toEqual([]);
      expect(answers.filter((a) => a.statusCode === 200).length).toBeGreaterThan(0);
    };
    notAFailure(await Promise.all(Array.from({ length: 100 }, () => read(url, org.owner.session, from))));
    const other = await createTestOrganization(t.db);
    const otherCustomer = await createTestCustomer(t.db, other.id);
    notAFailure(await Promise.all(Array.from({ length: 100 }, () => read(`/v1/receivables/customers/${otherCustomer.id}`, other.owner.apiKey, from))));
    // The address has its whole budget: a bad token is the first failure.
    const failed = await read(url, `fs_${randomUUID().replaceAll('-', '')}`, from);
    expectProblem(failed, 401);
    expect(limits(failed)).toMatchObject({ limit: AUTH_FAILURES, remaining: AUTH_FAILURES - 1 });
    const third = await createTestOrganization(t.db);
    expect((await read(`/v1/receivables/customers/${randomUUID()}`, third.owner.session, from)).statusCode).toBe(404);
  });

  it('successful authentications and missing credentials are not counted', async () => {
    const org = await createTestOrganization(t.db);
    const customer = await createTestCustomer(t.db, org.id);
    const url = `/v1/receivables/customers/${customer.id}`;
    const from = address();
    for (let i = 0; i < AUTH_FAILURES + 2; i++) {
      expectProblem(await t.app.inject({ method: 'GET', url, remoteAddress: from }), 401);
    }
    const ok = await read(url, org.owner.apiKey, from);
    expect(ok.statusCode).toBe(200);
  });
});
