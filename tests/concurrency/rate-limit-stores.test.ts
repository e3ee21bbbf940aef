import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, sql } from '../../src/db/client';
import { RateLimits, type RateLimitSettings } from '../../src/services/rate-limit/limits';
import { createTestCustomer } from '../factories/customer';
import { bearer, createTestMember, createTestOrganization, type TestMember } from '../factories/organization';
import { createTestApp, onPostgres, testDatabaseEnv, useTestApp, type TestApp } from '../helpers/app';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';

/**
 * The rate-limit stores (docs/design.md §8, issue 13): the counters in PostgreSQL (one statement per
 * keyed request) or in Redis (REDIS_URL: one Lua script per keyed request, RateLimiterRedis for the
 * rest) stay exact across processes. The Redis of the machine (TEST_REDIS_URL; .ci/run starts it);
 * every test app and process here uses a prefix of its own, so nothing collides with other files.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const newPrefix = () => `test-rl-${randomUUID()}`;

let redis: Redis;
beforeAll(() => {
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  await redis.quit();
});

async function dropPrefix(prefix: string) {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
}

const settings = (s: Partial<RateLimitSettings> = {}): RateLimitSettings => ({
  perKey: 3,
  perOrganization: 5,
  windowSeconds: 60,
  authFailures: 2,
  authFailureWindowSeconds: 300,
  ...s,
});

describe('RateLimits on Redis', () => {
  const prefix = newPrefix();
  let client: Redis;
  beforeAll(() => {
    client = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    await dropPrefix(prefix);
    await client.quit();
  });

  it('hitKey counts the key and its organization down in the keys RateLimiterRedis uses; over the key, the organization is not counted', async () => {
    const limits = new RateLimits(settings(), { kind: 'redis', client, prefix });
    const [keyId, orgId] = [randomUUID(), randomUUID()];
    for (let i = 1; i <= 3; i++) {
      const states = await limits.hitKey(keyId, orgId);
      expect(states).toHaveLength(2);
      const [tightest, other] = states;
      expect(tightest).toMatchObject({ name: 'key', limit: 3, remaining: 3 - i, allowed: true });
      expect(other).toMatchObject({ name: 'organization', limit: 5, remaining: 5 - i, allowed: true });
      for (const s of states) {
        expect(s.resetSeconds).toBeGreaterThanOrEqual(55);
        expect(s.resetSeconds).toBeLessThanOrEqual(60);
      }
    }
    const over = await limits.hitKey(keyId, orgId);
    expect(over).toEqual([{ name: 'key', limit: 3, remaining: 0, resetSeconds: expect.any(Number), allowed: false }]);
    expect(over[0]!.resetSeconds).toBeGreaterThanOrEqual(55);
    expect(over[0]!.resetSeconds).toBeLessThanOrEqual(60);

    // The counters as Redis holds them: the key counted 4 times, the organization 3 (not the refused one).
    expect(await redis.get(`${prefix}:key:${keyId}`)).toBe('4');
    expect(await redis.get(`${prefix}:org:${orgId}`)).toBe('3');
    const ttl = await redis.pttl(`${prefix}:org:${orgId}`);
    expect(ttl).toBeGreaterThan(55_000);
    expect(ttl).toBeLessThanOrEqual(60_000);

    // rate-limiter-flexible's own store reads the same counters and counts on from them.
    const orgLimiter = new RateLimiterRedis({ storeClient: redis, keyPrefix: `${prefix}:org`, points: 5, duration: 60 });
    expect((await orgLimiter.get(orgId))?.consumedPoints).toBe(3);
    await orgLimiter.consume(orgId, 1);
    const anotherKey = randomUUID();
    const [tightest] = await limits.hitKey(anotherKey, orgId);
    expect(tightest).toMatchObject({ name: 'organization', remaining: 0, allowed: true });
    const refused = await limits.hitKey(anotherKey, orgId);
    // The key still allowed it, the organization did not: both counted, the refusal comes first.
    expect(refused.map((s) => [s.name, s.allowed, s.remaining])).toEqual([
      ['organization', false, 0],
      ['key', true, 1],
    ]);
  });

  it('a window ends: the counters start again', async () => {
    const limits = new RateLimits(settings({ perKey: 1, windowSeconds: 2 }), { kind: 'redis', client, prefix });
    const [keyId, orgId] = [randomUUID(), randomUUID()];
    const [first] = await limits.hitKey(keyId, orgId);
    expect(first).toMatchObject({ name: 'key', remaining: 0, resetSeconds: 2, allowed: true });
    expect((await limits.hitKey(keyId, orgId))[0]).toMatchObject({ name: 'key', allowed: false });
    await new Promise((r) => setTimeout(r, 2100));
    expect((await limits.hitKey(keyId, orgId))[0]).toMatchObject({ name: 'key', remaining: 0, allowed: true });
  });

  it('addressState reads without counting; a reserved attempt kept counts, one released does not; over the limit the address is refused until the reset', async () => {
    const limits = new RateLimits(settings(), { kind: 'redis', client, prefix });
    const address = `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
    expect(await limits.addressState(address)).toEqual({ name: 'address', limit: 2, remaining: 2, resetSeconds: 0, allowed: true });
    expect(await limits.addressState(address)).toMatchObject({ remaining: 2, allowed: true });

    // A good credential gives its unit back.
    const good = await limits.reserveAuthAttempt(address);
    expect(good.state).toMatchObject({ name: 'address', limit: 2, remaining: 1, allowed: true });
    await good.release();
    await good.release();
    expect(await limits.addressState(address)).toMatchObject({ remaining: 2, allowed: true });

    const first = await limits.reserveAuthAttempt(address);
    expect(first.state).toMatchObject({ name: 'address', limit: 2, remaining: 1, allowed: true });
    expect(first.state.resetSeconds).toBeGreaterThanOrEqual(295);
    expect(first.state.resetSeconds).toBeLessThanOrEqual(300);
    expect(await limits.addressState(address)).toMatchObject({ remaining: 1, allowed: true });
    // The attempt that reaches the limit is still checked (and answered 401 when it fails): only the next one is refused.
    expect((await limits.reserveAuthAttempt(address)).state).toMatchObject({ remaining: 0, allowed: true });
    const refused = await limits.reserveAuthAttempt(address);
    expect(refused.state).toMatchObject({ name: 'address', limit: 2, remaining: 0, allowed: false });
    // A refused attempt checked nothing, so it is no failure: its unit went back at once.
    await refused.release();
    const state = await limits.addressState(address);
    expect(state).toMatchObject({ name: 'address', limit: 2, remaining: 0, allowed: false });
    expect(state.resetSeconds).toBeGreaterThanOrEqual(295);
    expect(state.resetSeconds).toBeLessThanOrEqual(300);
    expect(await redis.get(`${prefix}:authfail:${address}`)).toBe('2');

    // Another process (another RateLimits on the same Redis) sees the same address.
    const other = new RateLimits(settings(), { kind: 'redis', client: redis, prefix });
    expect(await other.addressState(address)).toMatchObject({ remaining: 0, allowed: false });
    expect(await other.addressState(`${address}0`)).toMatchObject({ remaining: 2, allowed: true });
  });

  it('a unit reserved in a window that has ended is not given back to the next window', async () => {
    const limits = new RateLimits(settings({ authFailureWindowSeconds: 1 }), { kind: 'redis', client, prefix });
    const address = `10.7.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
    const old = await limits.reserveAuthAttempt(address);
    await new Promise((r) => setTimeout(r, 1100));
    const current = await limits.reserveAuthAttempt(address);
    expect(current.state).toMatchObject({ remaining: 1, allowed: true });
    await old.release();
    expect(await redis.get(`${prefix}:authfail:${address}`)).toBe('1');
  });

  it('close() leaves a client it does not own open', async () => {
    const limits = new RateLimits(settings(), { kind: 'redis', client, prefix });
    await limits.close();
    expect(await client.ping()).toBe('PONG');
  });
});

describe('reserved attempts in memory and in PostgreSQL', () => {
  const t = useTestApp();
  const stores = () => [
    ['memory', new RateLimits(settings({ authFailureWindowSeconds: 1 }), { kind: 'memory' })] as const,
    ...(onPostgres ? [['postgres', new RateLimits(settings({ authFailureWindowSeconds: 1 }), { kind: 'postgres', db: t.db })] as const] : []),
  ];

  it('a released unit is given back once; a kept one counts; a refused one holds nothing', async () => {
    for (const [kind, limits] of stores()) {
      const address = `10.6.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
      const good = await limits.reserveAuthAttempt(address);
      expect(good.state).toMatchObject({ name: 'address', limit: 2, remaining: 1, allowed: true });
      await good.release();
      await good.release();
      expect(await limits.addressState(address)).toMatchObject({ remaining: 2, allowed: true });
      expect((await limits.reserveAuthAttempt(address)).state).toMatchObject({ remaining: 1, allowed: true });
      expect((await limits.reserveAuthAttempt(address)).state).toMatchObject({ remaining: 0, allowed: true });
      const refused = await limits.reserveAuthAttempt(address);
      expect(refused.state).toMatchObject({ remaining: 0, allowed: false });
      await refused.release();
      expect(await limits.addressState(address)).toMatchObject({ remaining: 0, allowed: false });
      if (kind === 'postgres') {
        const [row] = await queryRows<{ points: number }>(t.db, sql`select points from rate_limit_counters where key = ${`authfail:${address}`}`);
        expect(Number(row?.points)).toBe(2);
      }
    }
  });

  it('a unit reserved in a window that has ended is not given back to the next window', async () => {
    for (const [, limits] of stores()) {
      const address = `10.5.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
      const old = await limits.reserveAuthAttempt(address);
      await new Promise((r) => setTimeout(r, 1100));
      expect((await limits.reserveAuthAttempt(address)).state).toMatchObject({ remaining: 1, allowed: true });
      await old.release();
      expect(await limits.addressState(address)).toMatchObject({ remaining: 1 });
    }
  });
});

describe('a test app with REDIS_URL (inject)', () => {
  const prefix = newPrefix();
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ REDIS_URL, RATE_LIMIT_REDIS_PREFIX: prefix, RATE_LIMIT_PER_KEY: '3', RATE_LIMIT_PER_ORGANIZATION: '100' });
  });
  afterAll(async () => {
    await t?.app.close();
    await t?.handle.close();
    await dropPrefix(prefix);
  });

  it('counts keyed requests in Redis: the headers count down, the next is 429 with Retry-After; bad keys count against the address', async () => {
    const org = await createTestOrganization(t.db);
    const customer = await createTestCustomer(t.db, org.id);
    const url = `/v1/receivables/customers/${customer.id}`;
    for (let i = 1; i <= 3; i++) {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(org.owner.apiKey) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe('3');
      expect(res.headers['ratelimit-remaining']).toBe(String(3 - i));
    }
    const over = await t.app.inject({ method: 'GET', url, headers: bearer(org.owner.apiKey) });
    expect(over.statusCode).toBe(429);
    expect(over.json().code).toBe('rate_limited');
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(Math.max(1, Number(over.headers['ratelimit-reset'])));
    expect(await redis.get(`${prefix}:key:${org.owner.apiKeyId}`)).toBe('4');
    expect(await redis.get(`${prefix}:org:${org.id}`)).toBe('3');

    const from = '10.8.7.6';
    const bad = await t.app.inject({ method: 'GET', url, headers: bearer(`fk_${randomUUID()}_${'x'.repeat(32)}`), remoteAddress: from });
    expect(bad.statusCode).toBe(401);
    expect(await redis.get(`${prefix}:authfail:${from}`)).toBe('1');
  });

  it('closing the server quits its Redis connection', async () => {
    const prefix2 = newPrefix();
    const connected = async () => String(await redis.client('LIST')).includes(`name=${prefix2}:rate-limits `);
    const other = await createTestApp({ REDIS_URL, RATE_LIMIT_REDIS_PREFIX: prefix2 });
    try {
      const org = await createTestOrganization(other.db);
      const customer = await createTestCustomer(other.db, org.id);
      const res = await other.app.inject({ method: 'GET', url: `/v1/receivables/customers/${customer.id}`, headers: bearer(org.owner.apiKey) });
      expect(res.statusCode).toBe(200);
      expect(await redis.exists(`${prefix2}:key:${org.owner.apiKeyId}`)).toBe(1);
      expect(await connected()).toBe(true);
    } finally {
      await other.app.close();
      await other.handle.close();
      await dropPrefix(prefix2);
    }
    expect(await connected()).toBe(false);
  });
});

const PER_KEY = 30;
const PER_ORG = 40;

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

async function getCustomer(server: ServerProcess, customerId: string, token: string): Promise<Answer> {
  const res = await fetch(`${server.url}/v1/receivables/customers/${customerId}`, { headers: bearer(token) });
  return { status: res.status, headers: Object.fromEntries(res.headers.entries()), body: await res.text() };
}

function expectRefusal(a: Answer, limit: number, what: RegExp) {
  expect(a.status).toBe(429);
  expect(a.headers['content-type']).toMatch(/^application\/problem\+json/);
  const problem = JSON.parse(a.body) as { code: string; detail: string };
  expect(problem.code).toBe('rate_limited');
  expect(problem.detail).toMatch(what);
  expect(a.headers['ratelimit-limit']).toBe(String(limit));
  expect(a.headers['ratelimit-remaining']).toBe('0');
  const reset = Number(a.headers['ratelimit-reset']);
  expect(reset).toBeGreaterThanOrEqual(1);
  expect(reset).toBeLessThanOrEqual(60);
  const retryAfter = Number(a.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(reset);
}

/**
 * Two real server processes on two ports sharing one PostgreSQL database (and, for the Redis store,
 * one Redis): N + extra keyed requests fired at once, split across both, give exactly N successes.
 * PostgreSQL only: PGlite is one process.
 */
describe.skipIf(!onPostgres).each([
  ['PostgreSQL', false],
  ['Redis', true],
] as const)('two server processes, rate-limit counters in %s', (_store, useRedis) => {
  const t = useTestApp();
  const prefix = newPrefix();
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    const env: Record<string, string> = {
      ...testDatabaseEnv(),
      RATE_LIMIT_PER_KEY: String(PER_KEY),
      RATE_LIMIT_PER_ORGANIZATION: String(PER_ORG),
      DATABASE_POOL_SIZE: '5',
      ...(useRedis ? { REDIS_URL, RATE_LIMIT_REDIS_PREFIX: prefix } : {}),
    };
    // One after the other: both apply (already applied) migrations at start.
    servers.push(await startServerProcess(env));
    servers.push(await startServerProcess(env));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    if (useRedis) await dropPrefix(prefix);
  });

  /** Where the key's counter stands in the store of this run. */
  async function keyCount(apiKeyId: string): Promise<number> {
    if (useRedis) return Number(await redis.get(`${prefix}:key:${apiKeyId}`));
    // The key's row of rate-limiter-flexible's table.
    const [row] = await queryRows<{ points: number }>(t.db, sql`select points from rate_limit_counters where key = ${`key:${apiKeyId}`}`);
    return Number(row?.points);
  }

  it.each([1, 10])(`per key: ${PER_KEY} + %i requests at once across both give exactly ${PER_KEY} successes`, async (extra) => {
    const org = await createTestOrganization(t.db);
    const customer = await createTestCustomer(t.db, org.id);
    const answers = await Promise.all(
      Array.from({ length: PER_KEY + extra }, (_, i) => getCustomer(servers[i % 2]!, customer.id, org.owner.apiKey)),
    );
    const ok = answers.filter((a) => a.status === 200);
    const limited = answers.filter((a) => a.status !== 200);
    expect(ok).toHaveLength(PER_KEY);
    expect(limited).toHaveLength(extra);
    for (const a of limited) expectRefusal(a, PER_KEY, /API key/);
    // Every success saw a different remaining count of the key (the tighter limit): one counter, not one per process.
    for (const a of ok) expect(a.headers['ratelimit-limit']).toBe(String(PER_KEY));
    const remaining = ok.map((a) => Number(a.headers['ratelimit-remaining'])).sort((x, y) => x - y);
    expect(remaining).toEqual(Array.from({ length: PER_KEY }, (_, i) => i));
    // Both processes answered, and the refused requests were counted too.
    expect(await keyCount(org.owner.apiKeyId)).toBe(PER_KEY + extra);
    // The next one, on either process, is refused as well.
    for (const server of servers) expectRefusal(await getCustomer(server, customer.id, org.owner.apiKey), PER_KEY, /API key/);
  });

  it.each([1, 10])(`per organization: ${PER_ORG} + %i requests at once over its keys, across both, give exactly ${PER_ORG} successes`, async (extra) => {
    const org = await createTestOrganization(t.db);
    const customer = await createTestCustomer(t.db, org.id);
    // Enough keys that none reaches its own limit: only the organization's can refuse.
    const keys: TestMember[] = [org.owner, await createTestMember(t.db, org.id, { role: 'viewer' }), await createTestMember(t.db, org.id, { role: 'viewer' })];
    const total = PER_ORG + extra;
    expect(Math.ceil(total / keys.length)).toBeLessThan(PER_KEY);
    const answers = await Promise.all(
      Array.from({ length: total }, (_, i) => getCustomer(servers[i % 2]!, customer.id, keys[i % keys.length]!.apiKey)),
    );
    const ok = answers.filter((a) => a.status === 200);
    const limited = answers.filter((a) => a.status !== 200);
    expect(ok).toHaveLength(PER_ORG);
    expect(limited).toHaveLength(extra);
    for (const a of limited) expectRefusal(a, PER_ORG, /organization/);
    // Where the organization's limit was the tighter one, each success saw a different count.
    const orgRemaining = ok.filter((a) => a.headers['ratelimit-limit'] === String(PER_ORG)).map((a) => Number(a.headers['ratelimit-remaining']));
    expect(new Set(orgRemaining).size).toBe(orgRemaining.length);
    expect(orgRemaining).toContain(0);
    for (const a of ok) expect(Number(a.headers['ratelimit-remaining'])).toBeGreaterThanOrEqual(0);
    // A key of another organization is not affected.
    const other = await createTestOrganization(t.db);
    const elsewhere = await getCustomer(servers[1]!, (await createTestCustomer(t.db, other.id)).id, other.owner.apiKey);
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.headers['ratelimit-remaining']).toBe(String(PER_KEY - 1));
  });
});

const AUTH_FAILURES = 20;

/**
 * The failed-authentication limit per address across two real server processes (issue 14): each
 * credential is checked only after a unit of its address's budget was reserved in the shared store,
 * so 100 wrong keys at once from one address, split across both, are 20 answers of 401 and 80 of
 * 429. The processes trust the loopback proxy (TRUST_PROXY=127.0.0.1), so each test names its own
 * client address in X-Forwarded-For (other files fail keys from 127.0.0.1 itself).
 */
describe.skipIf(!onPostgres).each([
  ['PostgreSQL', false],
  ['Redis', true],
] as const)('two server processes, failed authentications per address counted in %s', (_store, useRedis) => {
  const t = useTestApp();
  const prefix = newPrefix();
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    const env: Record<string, string> = {
      ...testDatabaseEnv(),
      RATE_LIMIT_AUTH_FAILURES: String(AUTH_FAILURES),
      TRUST_PROXY: '127.0.0.1',
      DATABASE_POOL_SIZE: '5',
      ...(useRedis ? { REDIS_URL, RATE_LIMIT_REDIS_PREFIX: prefix } : {}),
    };
    servers.push(await startServerProcess(env));
    servers.push(await startServerProcess(env));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    if (useRedis) await dropPrefix(prefix);
  });

  const clientAddress = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;

  async function getAs(server: ServerProcess, customerId: string, token: string, from: string): Promise<Answer> {
    const res = await fetch(`${server.url}/v1/receivables/customers/${customerId}`, { headers: { ...bearer(token), 'X-Forwarded-For': from } });
    return { status: res.status, headers: Object.fromEntries(res.headers.entries()), body: await res.text() };
  }

  it(`100 wrong keys and sessions at once from one address across both: ${AUTH_FAILURES} answered 401, the rest 429`, async () => {
    const org = await createTestOrganization(t.db);
    const customer = await createTestCustomer(t.db, org.id);
    const from = clientAddress();
    // A good key, seen by both processes first: once cached it is not reserved for, and it is not a failure.
    for (const server of servers) expect((await getAs(server, customer.id, org.owner.apiKey, from)).status).toBe(200);
    const wrong = (i: number) => (i % 4 === 0 ? `fs_${randomUUID().replaceAll('-', '')}` : `fk_${randomUUID()}_${'x'.repeat(32)}`);
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => getAs(servers[i % 2]!, customer.id, wrong(i), from)));
    const failed = answers.filter((a) => a.status === 401);
    const limited = answers.filter((a) => a.status !== 401);
    expect(failed).toHaveLength(AUTH_FAILURES);
    expect(limited).toHaveLength(100 - AUTH_FAILURES);
    for (const a of limited) {
      expect(a.status).toBe(429);
      expect(a.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(a.body)).toMatchObject({ code: 'rate_limited', detail: expect.stringMatching(/failed authentications/) });
      expect(a.headers['ratelimit-limit']).toBe(String(AUTH_FAILURES));
      expect(a.headers['ratelimit-remaining']).toBe('0');
      expect(Number(a.headers['retry-after'])).toBeGreaterThanOrEqual(Math.max(1, Number(a.headers['ratelimit-reset'])));
    }
    // One counter for both processes: every answered failure saw a different count.
    const remaining = failed.map((a) => Number(a.headers['ratelimit-remaining'])).sort((x, y) => x - y);
    expect(remaining).toEqual(Array.from({ length: AUTH_FAILURES }, (_, i) => i));
    // The address waits on either process, even with the good key; another address does not.
    for (const server of servers) expect((await getAs(server, customer.id, org.owner.apiKey, from)).status).toBe(429);
    expect((await getAs(servers[1]!, customer.id, org.owner.apiKey, clientAddress())).status).toBe(200);
  });
});
