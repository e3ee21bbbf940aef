import { randomUUID } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestOrganization } from '../factories/organization';
import { onPostgres, testDatabase, testDatabaseEnv, useTestApp } from '../helpers/app';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import { fetchWrite, invoiceCreateTarget } from '../helpers/writes';
import { withDatabaseName } from '../helpers/worker-database';

/** The test database's URL with an application name (the backends this test terminates are found by it). */
function withApplicationName(url: string, name: string): string {
  const u = new URL(url);
  u.searchParams.set('application_name', name);
  return u.toString();
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The database layer under faults (PostgreSQL only): replicas starting together on an empty
 * database, and the database dropping the service's connections while requests are in flight.
 */
describe.skipIf(!onPostgres)('database faults', () => {
  const t = useTestApp();
  // Databases made, dropped and their backends terminated on PostgreSQL itself (not through a pooler).
  const admin = onPostgres ? postgres(withDatabaseName(process.env.TEST_DATABASE_DIRECT_URL ?? process.env.TEST_DATABASE_URL!, 'postgres'), { max: 1, onnotice: () => {} }) : undefined;
  const servers: ServerProcess[] = [];
  const databases: string[] = [];

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    for (const db of databases) await admin!.unsafe(`drop database if exists "${db}" with (force)`);
    await admin?.end({ timeout: 5 });
  });

  it.skipIf(process.env.SKIP_REPLICAS === '1')('three processes started at once on an empty database all become ready', async () => {
    const [{ current }] = (await t.db.execute(`select current_database() as current` as never)) as unknown as [{ current: string }];
    const fresh = `${current}_replicas_${randomUUID().slice(0, 8)}`;
    databases.push(fresh);
    await admin!.unsafe(`create database "${fresh}"`);
    const env = { ...testDatabaseEnv({ database: fresh }), DATABASE_POOL_SIZE: '3' };
    const started = await Promise.allSettled([startServerProcess(env), startServerProcess(env), startServerProcess(env)]);
    for (const s of started) if (s.status === 'fulfilled') servers.push(s.value);
    expect(started.map((s) => (s.status === 'fulfilled' ? 'ready' : String(s.reason).slice(0, 2000)))).toEqual(['ready', 'ready', 'ready']);
    for (const s of servers.splice(0)) {
      expect((await fetch(`${s.url}/readyz`)).status).toBe(200);
      await s.stop();
    }
  }, 240_000);

  describe('the database terminates the connections of a process while requests are in flight', () => {
    const name = `finance-api-reset-${randomUUID().slice(0, 8)}`;
    let server: ServerProcess;
    beforeAll(async () => {
      // The key's and organization's limits out of the way: eight workers on a quiet machine make more
      // requests in the test's ten seconds than a key's 600 a minute (429 is not what is under test).
      server = await startServerProcess({
        ...testDatabaseEnv(),
        DATABASE_URL: withApplicationName(testDatabase().url, name),
        DATABASE_POOL_SIZE: '4',
        RATE_LIMIT_PER_KEY: '1000000',
        RATE_LIMIT_PER_ORGANIZATION: '1000000',
      });
      servers.push(server);
    }, 120_000);

    it('the process keeps running and answering, and a create after it succeeds', async () => {
      const target = invoiceCreateTarget();
      const org = await createTestOrganization(t.db);
      await target.setup?.(t.db, org.id);
      let stop = false;
      const statuses = new Map<number | string, number>();
      const count = (key: number | string) => statuses.set(key, (statuses.get(key) ?? 0) + 1);
      // Each request is given 15 s: one the server does not answer by then is counted (and fails the
      // test below) instead of holding the workers, and so the test, until its timeout. (postgres.js's
      // own reconnect backoff grows to 10-20 s after a burst of cut connections: requests queued
      // behind the pool went unanswered for that long; the pool's backoff is now at most 1 s.)
      const worker = async () => {
        while (!stop) {
          const res = await fetchWrite(server.url, target, {
            token: org.owner.apiKey,
            key: randomUUID(),
            body: target.body(randomUUID().slice(0, 6)),
            signal: AbortSignal.timeout(15_000),
          }).catch((error: Error) => (error.name === 'TimeoutError' ? 'no answer in 15 s' : 'connection dropped'));
          // A 503 is counted with its code and Retry-After, so a 503 of another kind shows in the failure.
          count(typeof res === 'string' ? res : res.statusCode === 503 ? `503 ${res.json().code} retry-after ${res.headers['retry-after']}` : res.statusCode);
        }
      };
      const workers = Array.from({ length: 8 }, worker);
      let terminated = 0;
      // Twenty bursts, 150 to 450 ms apart: enough lost connections in a row for a growing backoff to show.
      for (let round = 0; round < 20; round++) {
        await sleep(150 + Math.random() * 300);
        const rows = await admin!`select pg_terminate_backend(pid) as ok from pg_stat_activity where application_name = ${name}`;
        terminated += rows.length;
      }
      await sleep(300);
      stop = true;
      await Promise.all(workers);
      console.info(`connection resets: ${terminated} backends terminated; answers ${JSON.stringify(Object.fromEntries(statuses))}`);
      expect(terminated).toBeGreaterThan(0);
      await sleep(500);
      if (server.child.exitCode !== null || process.env.FAULT_VERBOSE) console.info(server.output().slice(-4000));
      expect(server.child.exitCode, server.output()).toBeNull();
      expect(server.child.signalCode).toBeNull();
      // Answers during the resets are 201, or 503 `unavailable` with Retry-After (the connection was
      // lost under the request): never a 500, never a request left unanswered.
      const unanswered = [...statuses.keys()].filter((s) => s !== 201 && s !== '503 unavailable retry-after 1');
      if (unanswered.length > 0) console.info(server.output().slice(-8000));
      expect(unanswered).toEqual([]);
      // Afterwards: ready, and a create goes through (the pool reconnects on its own).
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      const after = await fetchWrite(server.url, target, { token: org.owner.apiKey, key: randomUUID(), body: target.body('after') });
      expect(after.statusCode, after.body).toBe(201);
    }, 120_000);
  });
});
