import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCustomer } from '../factories/customer';
import { bearer, createTestOrganization } from '../factories/organization';
import { onPostgres, testDatabaseEnv, useTestApp } from '../helpers/app';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import { countIdempotencyKeys, customerCreateTarget, fetchWrite, invoiceCreateTarget, type SentWrite } from '../helpers/writes';

const PER_KEY = 60;

/**
 * Two real server processes on two ports sharing one PostgreSQL: idempotency and rate limits must
 * hold across them (docs/design.md §7, §8 and §14). PostgreSQL only: PGlite is one process.
 */
describe.skipIf(!onPostgres)('two server processes sharing one PostgreSQL', () => {
  const t = useTestApp();
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    const env = { ...testDatabaseEnv(), RATE_LIMIT_PER_KEY: String(PER_KEY), DATABASE_POOL_SIZE: '10' };
    // One after the other: both apply (already applied) migrations at start.
    servers.push(await startServerProcess(env));
    servers.push(await startServerProcess(env));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  // The invoice's reference data (customer, account, tax code) is created through the services in the
  // shared database before firing (WriteTarget.setup).
  it.each([
    ['POST /trpc/receivables.customers.create', () => customerCreateTarget()],
    ['POST /v1/receivables/invoices', () => invoiceCreateTarget()],
  ] as const)('%s: 50 identical keyed creates fired at once across both make one record; the others replay or are in progress', async (name, makeTarget) => {
    const target = makeTarget();
    const org = await createTestOrganization(t.db);
    await target.setup?.(t.db, org.id);
    const body = target.body('a');
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => fetchWrite(servers[i % 2]!.url, target, { token: org.owner.apiKey, key: 'burst-1', body })),
    );

    expect(await target.countRecords(t.db, org.id)).toBe(1);
    expect(await countIdempotencyKeys(t.db, org.id)).toBe(1);

    const originals = answers.filter((a) => a.statusCode === 201 && a.headers['idempotent-replayed'] === undefined);
    expect(originals).toHaveLength(1);
    const original = originals[0] as SentWrite;
    let replays = 0;
    let inProgress = 0;
    for (const a of answers) {
      if (a === original) continue;
      if (a.statusCode === 201) {
        expect(a.headers['idempotent-replayed']).toBe('true');
        expect(a.body).toBe(original.body);
        expect(a.headers.etag).toBe(original.headers.etag);
        expect(a.headers.location).toBe(original.headers.location);
        replays++;
      } else {
        expect(a.statusCode, a.body).toBe(409);
        expect(target.problem(a.json()).code).toBe('idempotency_in_progress');
        expect(Number(a.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        inProgress++;
      }
    }
    expect(replays + inProgress).toBe(49);
    console.info(`${name}: 50 concurrent keyed creates: 1 created, ${replays} replayed, ${inProgress} in progress`);

    // A later retry, on either process, replays.
    for (const server of servers) {
      const later = await fetchWrite(server.url, target, { token: org.owner.apiKey, key: 'burst-1', body });
      expect(later.statusCode).toBe(201);
      expect(later.headers['idempotent-replayed']).toBe('true');
      expect(later.body).toBe(original.body);
      expect(later.headers.etag).toBe(original.headers.etag);
    }
    // And the same key over another body is refused on both, writing nothing.
    for (const server of servers) {
      const reused = await fetchWrite(server.url, target, { token: org.owner.apiKey, key: 'burst-1', body: target.body('b') });
      expect(reused.statusCode).toBe(409);
      expect(target.problem(reused.json()).code).toBe('idempotency_key_reused');
    }
    expect(await target.countRecords(t.db, org.id)).toBe(1);
  });

  it(`with a limit of ${PER_KEY} per key, ${PER_KEY + 1} requests at once across both give exactly ${PER_KEY} successes and one 429`, async () => {
    const org = await createTestOrganization(t.db);
    const customer = await createTestCustomer(t.db, org.id);
    const answers = await Promise.all(
      Array.from({ length: PER_KEY + 1 }, async (_, i) => {
        const res = await fetch(`${servers[i % 2]!.url}/v1/receivables/customers/${customer.id}`, { headers: bearer(org.owner.apiKey) });
        return { status: res.status, headers: Object.fromEntries(res.headers.entries()), body: await res.text() };
      }),
    );
    const ok = answers.filter((a) => a.status === 200);
    const limited = answers.filter((a) => a.status === 429);
    expect(ok).toHaveLength(PER_KEY);
    expect(limited).toHaveLength(1);
    const refusal = limited[0]!;
    expect(JSON.parse(refusal.body).code).toBe('rate_limited');
    expect(refusal.headers['content-type']).toMatch(/^application\/problem\+json/);
    const retryAfter = Number(refusal.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(Math.max(1, Number(refusal.headers['ratelimit-reset'])));
    // Every success saw a different remaining count: one counter, not one per process.
    const remaining = ok.map((a) => Number(a.headers['ratelimit-remaining'])).sort((x, y) => x - y);
    expect(remaining).toEqual(Array.from({ length: PER_KEY }, (_, i) => i));
  });
});
