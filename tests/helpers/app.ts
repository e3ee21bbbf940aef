import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, inject } from 'vitest';
import { loadConfig } from '../../src/config';
import { openDatabase, type Database, type DatabaseHandle, type DatabasePooler, type OpenDatabaseOptions } from '../../src/db/client';
import type { AppDeps } from '../../src/deps';
import { buildServer } from '../../src/server';
import { createRateLimits } from '../../src/services/rate-limit/limits';
import { TEST_PAYOUT_ENCRYPTION_KEY } from './keys';
import { withDatabaseName } from './worker-database';

export const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/**
 * What TEST_DATABASE_URL points at (as DATABASE_POOLER): `pgbouncer-transaction` when the tests run
 * through PgBouncer (.ci/run's pooled pass), with TEST_DATABASE_DIRECT_URL naming PostgreSQL itself
 * for what needs a session of its own (the migrations).
 */
export const testPooler = (process.env.TEST_DATABASE_POOLER ?? 'none') as DatabasePooler;

function onDatabase(url: string, database: string | undefined): string {
  return database ? withDatabaseName(url, database) : url;
}

/** openDatabase's options for the test database (or another `database` on the same server), through the pooler when there is one. */
export function testDatabase(opts: { database?: string; poolSize?: number } = {}): OpenDatabaseOptions & { url: string } {
  const direct = process.env.TEST_DATABASE_DIRECT_URL;
  return {
    url: onDatabase(process.env.TEST_DATABASE_URL!, opts.database),
    pooler: testPooler,
    ...(direct ? { directUrl: onDatabase(direct, opts.database) } : {}),
    ...(opts.poolSize ? { poolSize: opts.poolSize } : {}),
  };
}

/** The service's database variables for the test database (a server process, loadConfig), as testDatabase. */
export function testDatabaseEnv(opts: { database?: string } = {}): { DATABASE_URL: string; DATABASE_POOLER: DatabasePooler; DATABASE_DIRECT_URL?: string } {
  const d = testDatabase(opts);
  return { DATABASE_URL: d.url, DATABASE_POOLER: testPooler, ...(d.directUrl ? { DATABASE_DIRECT_URL: d.directUrl } : {}) };
}

/**
 * The tests' MyInvois simulators and local servers listen on 127.0.0.1: the test configuration
 * allows that network explicitly (OUTBOUND_ALLOWED_NETWORKS), the guard itself is not weakened.
 * Tests of the guard pass `OUTBOUND_ALLOWED_NETWORKS: ''`.
 */
export const TEST_OUTBOUND_NETWORKS = '127.0.0.1/32';

export interface TestApp {
  deps: AppDeps;
  db: Database;
  app: FastifyInstance;
  handle: DatabaseHandle;
  /** Moves the injected clock; `undefined` goes back to the real one. */
  setNow(date: Date | undefined): void;
}

/**
 * `dataDir`: open an embedded database kept in that folder (one the admin CLI wrote, say) instead of a
 * fresh in-memory copy of the template; ignored on PostgreSQL, where every process shares the test database.
 * `database`: this server database instead of the test database (tests/concurrency/pgbouncer.test.ts: through PgBouncer).
 */
export async function createTestApp(env: Record<string, string> = {}, opts: { dataDir?: string; database?: OpenDatabaseOptions & { url: string } } = {}): Promise<TestApp> {
  const url = opts.database?.url ?? process.env.TEST_DATABASE_URL;
  const template = opts.dataDir ? null : inject('pgliteTemplate');
  const handle = await openDatabase(
    opts.database
      ? opts.database
      : url
        ? testDatabase({ poolSize: 10 })
        : opts.dataDir
          ? { dataDir: opts.dataDir }
          : { dataDir: 'memory://', loadDataDir: template ? new Blob([readFileSync(template)]) : undefined },
  );
  if (!url && !template) await handle.migrate();
  let fixed: Date | undefined;
  // Failed-authentication counting per address is shared by every test on 127.0.0.1; tests of that
  // limit set their own value and addresses.
  const config = loadConfig({
    RATE_LIMIT_AUTH_FAILURES: '1000000',
    PAYOUT_ENCRYPTION_KEY: TEST_PAYOUT_ENCRYPTION_KEY,
    OUTBOUND_ALLOWED_NETWORKS: TEST_OUTBOUND_NETWORKS,
    ...env,
    ...(opts.database
      ? { DATABASE_URL: opts.database.url, DATABASE_POOLER: opts.database.pooler ?? 'none', DATABASE_DIRECT_URL: opts.database.directUrl }
      : url
        ? testDatabaseEnv()
        : { DATABASE_URL: undefined }),
    LOG_LEVEL: 'silent',
    CURSOR_SECRET: 'test-cursor-secret-0123456789',
  } as NodeJS.ProcessEnv);
  const deps: AppDeps = {
    db: handle.db,
    dbKind: handle.kind,
    config,
    log: pino({ level: 'silent' }),
    now: () => fixed ?? new Date(),
    rateLimits: createRateLimits(config, handle.kind, handle.db),
  };
  const app = await buildServer(deps);
  return { deps, db: handle.db, app, handle, setNow: (d) => (fixed = d) };
}

/** One app and database per test file, closed afterwards (PGlite would keep the process alive). */
export function useTestApp(env: Record<string, string> = {}): TestApp {
  const holder = {} as TestApp;
  beforeAll(async () => {
    Object.assign(holder, await createTestApp(env));
  });
  afterAll(async () => {
    await holder.app?.close();
    await holder.handle?.close();
  });
  return holder;
}
