import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createTestCustomer } from '../factories/customer';
import { bearer, createTestOrganization } from '../factories/organization';
import { useTestApp, type TestApp } from '../helpers/app';
import { expectProblem } from '../helpers/problem';

/**
 * TRUST_PROXY names the proxies in front of the service (or their number): the source address of the
 * failed-authentication limit is the right-most X-Forwarded-For entry no trusted proxy wrote, never an
 * entry the client wrote itself (issue 14).
 */
const AUTH_FAILURES = 3;
const env = (TRUST_PROXY: string) => ({ TRUST_PROXY, RATE_LIMIT_AUTH_FAILURES: String(AUTH_FAILURES) });

/** A fresh address per test: counters per address are shared by everything on it (on PostgreSQL, by every test file). */
const address = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
const badKey = () => `fk_${randomUUID()}_${'x'.repeat(32)}`;

async function customerUrl(t: TestApp) {
  const org = await createTestOrganization(t.db);
  const customer = await createTestCustomer(t.db, org.id);
  return { org, url: `/v1/receivables/customers/${customer.id}` };
}

const remaining = (res: { headers: Record<string, unknown> }) => Number(res.headers['ratelimit-remaining']);

describe('TRUST_PROXY in the configuration', () => {
  const base = { PAYOUT_ENCRYPTION_KEY: undefined };
  it('`true` is refused at start-up with a message saying what to set instead', () => {
    expect(() => loadConfig({ ...base, TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: `true` is not accepted.*first one, which the client writes.*hop count/s);
  });

  it('a list of addresses and CIDR ranges, a hop count, or nothing', () => {
    expect(loadConfig({ ...base, TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,fd00::/8,loopback' }).TRUST_PROXY).toEqual(['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8', 'loopback']);
    expect(typeof loadConfig({ ...base, TRUST_PROXY: '2' }).TRUST_PROXY).toBe('function');
    expect(loadConfig({ ...base }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: '0' }).TRUST_PROXY).toBe(false);
  });

  it('anything else names the wrong entries', () => {
    expect(() => loadConfig({ ...base, TRUST_PROXY: '10.0.0.0/33,127.0.0.1,proxy.local' })).toThrow(/TRUST_PROXY: .*"10\.0\.0\.0\/33", "proxy\.local"/);
    expect(() => loadConfig({ ...base, TRUST_PROXY: '1,2' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ ...base, TRUST_PROXY: '99' })).toThrow(/TRUST_PROXY: a hop count is 0 to 32/);
  });
});

describe('TRUST_PROXY=127.0.0.1 (a list of proxies)', () => {
  const t = useTestApp(env('127.0.0.1'));

  it('a first X-Forwarded-For entry the client wrote neither dodges the limit nor locks out the address it names', async () => {
    const { org, url } = await customerUrl(t);
    const [attacker, victim] = [address(), address()];
    for (let i = 1; i <= AUTH_FAILURES; i++) {
      // A different made-up first entry each time, and the victim's address: the proxy appended the attacker's.
      const res = await t.app.inject({ method: 'GET', url, headers: { ...bearer(badKey()), 'x-forwarded-for': `${address()}, ${victim}, ${attacker}` } });
      expectProblem(res, 401);
      expect(remaining(res)).toBe(AUTH_FAILURES - i);
    }
    const blocked = await t.app.inject({ method: 'GET', url, headers: { ...bearer(badKey()), 'x-forwarded-for': `${address()}, ${attacker}` } });
    expectProblem(blocked, 429, 'rate_limited');
    const victimAnswer = await t.app.inject({ method: 'GET', url, headers: { ...bearer(org.owner.apiKey), 'x-forwarded-for': victim } });
    expect(victimAnswer.statusCode).toBe(200);
  });

  it('from a peer that is not a trusted proxy, X-Forwarded-For is ignored', async () => {
    const { url } = await customerUrl(t);
    const peer = address();
    for (let i = 1; i <= AUTH_FAILURES; i++) {
      const res = await t.app.inject({ method: 'GET', url, remoteAddress: peer, headers: { ...bearer(badKey()), 'x-forwarded-for': address() } });
      expect(remaining(res)).toBe(AUTH_FAILURES - i);
    }
    expectProblem(await t.app.inject({ method: 'GET', url, remoteAddress: peer, headers: { ...bearer(badKey()), 'x-forwarded-for': address() } }), 429, 'rate_limited');
  });
});

describe('TRUST_PROXY=2 (a hop count)', () => {
  const t = useTestApp(env('2'));

  it('the client is the entry the second proxy appended, whatever the client wrote before it', async () => {
    const { url } = await customerUrl(t);
    const [client, firstProxy] = [address(), address()];
    for (let i = 1; i <= AUTH_FAILURES; i++) {
      const res = await t.app.inject({
        method: 'GET',
        url,
        remoteAddress: address(),
        headers: { ...bearer(badKey()), 'x-forwarded-for': `${address()}, ${client}, ${firstProxy}` },
      });
      expectProblem(res, 401);
      expect(remaining(res)).toBe(AUTH_FAILURES - i);
    }
    const blocked = await t.app.inject({ method: 'GET', url, remoteAddress: address(), headers: { ...bearer(badKey()), 'x-forwarded-for': `${client}, ${address()}` } });
    expectProblem(blocked, 429, 'rate_limited');
  });
});
