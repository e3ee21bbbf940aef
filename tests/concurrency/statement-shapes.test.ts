import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { openDatabase, queryRows, sql, type DatabaseHandle } from '../../src/db/client';
import type { AppDeps } from '../../src/deps';
import { buildServer } from '../../src/server';
import { createRateLimits } from '../../src/services/rate-limit/limits';
import { createTestCustomer } from '../factories/customer';
import { bearer, createTestOrganization } from '../factories/organization';
import { createReceivablesSetup } from '../factories/receivables';
import { onPostgres, testDatabase, testDatabaseEnv } from '../helpers/app';
import { TEST_PAYOUT_ENCRYPTION_KEY } from '../helpers/keys';

/**
 * postgres.js keeps a prepared statement per connection and text, never evicted: the number of
 * texts must not grow with the row counts callers send. One connection (poolSize 1), so
 * pg_prepared_statements, read on it, lists every statement the app prepared. PostgreSQL only.
 */
describe.skipIf(!onPostgres)('prepared statements stay bounded across documents of 1 to N lines', () => {
  let handle: DatabaseHandle;
  let app: FastifyInstance;
  beforeAll(async () => {
    handle = await openDatabase(testDatabase({ poolSize: 1 }));
    const config = loadConfig({ PAYOUT_ENCRYPTION_KEY: TEST_PAYOUT_ENCRYPTION_KEY, RATE_LIMIT_AUTH_FAILURES: '1000000', ...testDatabaseEnv(), LOG_LEVEL: 'silent', CURSOR_SECRET: 'test-cursor-secret-0123456789' } as NodeJS.ProcessEnv);
    const deps: AppDeps = { db: handle.db, dbKind: handle.kind, config, log: pino({ level: 'silent' }), now: () => new Date(), rateLimits: createRateLimits(config, handle.kind, handle.db) };
    app = await buildServer(deps);
  });
  afterAll(async () => {
    await app?.close();
    await handle?.close();
  });

  it('creating documents of 1 to 48 lines (two shares each) adds a handful of statements, not one per count', async () => {
    const db = handle.db;
    const org = await createTestOrganization(db);
    const ref = await createReceivablesSetup(db, org.id);
    const customer = await createTestCustomer(db, org.id);
    const shares = [
      { analytic_account_id: ref.alpha.id, percentage: '60' },
      { analytic_account_id: ref.beta.id, percentage: '40' },
    ];
    const create = async (n: number) => {
      const lines = Array.from({ length: n }, (_, i) => ({ account_id: ref.revenue.id, description: `Item ${i}`, quantity: '1', unit_price: '10.00', tax_code_id: ref.sv8.id, shares }));
      const res = await app.inject({
        method: 'POST',
        url: '/v1/receivables/invoices',
        headers: { ...bearer(org.owner.apiKey), 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        payload: JSON.stringify({ kind: 'sales_invoice', customer_id: customer.id, lines }),
      });
      expect(res.statusCode, res.body).toBe(201);
      const id = (res.json() as { id: string }).id;
      const read = await app.inject({ method: 'GET', url: `/v1/receivables/invoices/${id}`, headers: bearer(org.owner.apiKey) });
      expect(read.statusCode).toBe(200);
    };
    const statements = async () => Number((await queryRows<{ n: string }>(db, sql`select count(*) as n from pg_prepared_statements`))[0]!.n);

    // Warm: every statement a create and a read use, at the smallest counts.
    for (let n = 1; n <= 4; n++) await create(n);
    const warm = await statements();
    for (let n = 5; n <= 48; n++) await create(n);
    const after = await statements();
    console.info(`prepared statements: ${warm} after documents of 1..4 lines, ${after} after 1..48`);
    // New chunk sizes (8, 16, 32 rows) for lines and shares: a few texts each, never 44 new counts.
    expect(after - warm).toBeLessThanOrEqual(12);
  }, 300_000);
});
