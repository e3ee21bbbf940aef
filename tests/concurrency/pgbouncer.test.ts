/**
 * The service behind PgBouncer in transaction pooling mode (DATABASE_POOLER=pgbouncer-transaction):
 * the hot path's named statements, idempotent writes (transaction-scoped advisory locks), the
 * migrations (a session-level lock, over the direct URL) and the job runner all work through it.
 * Runs when TEST_PGBOUNCER_URL names the test database through a PgBouncer (.ci/run starts one:
 * bench/_pgbouncer.ts); PostgreSQL itself is TEST_DATABASE_DIRECT_URL, or TEST_DATABASE_URL.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, openDatabase, queryRows, sql, type DatabaseHandle, type OpenDatabaseOptions } from '../../src/db/client';
import { findCustomer } from '../../src/db/queries/customers';
import { jobs } from '../../src/db/schema';
import { enqueue } from '../../src/jobs/queue';
import { JobRegistry } from '../../src/jobs/registry';
import { JobRunner } from '../../src/jobs/runner';
import { bearer, createTestOrganization, type TestOrganization } from '../factories/organization';
import { createTestApp, type TestApp } from '../helpers/app';
import { invoiceCreateTarget } from '../helpers/writes';
import { withDatabaseName } from '../helpers/worker-database';

const pooledUrl = process.env.TEST_PGBOUNCER_URL;
const directUrl = process.env.TEST_DATABASE_DIRECT_URL ?? process.env.TEST_DATABASE_URL;

/** The test database (or another one of the server) through PgBouncer, as the service opens it there. */
function pooled(opts: { database?: string; poolSize?: number; direct?: boolean } = {}): OpenDatabaseOptions & { url: string } {
  const database = opts.database ?? new URL(pooledUrl!).pathname.slice(1);
  return {
    url: withDatabaseName(pooledUrl!, database),
    pooler: 'pgbouncer-transaction',
    ...(opts.direct === false ? {} : { directUrl: withDatabaseName(directUrl!, database) }),
    poolSize: opts.poolSize ?? 8,
  };
}

describe.skipIf(!pooledUrl || !directUrl)('through PgBouncer in transaction mode', () => {
  let t: TestApp;
  let org: TestOrganization;
  const target = invoiceCreateTarget();

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_KEY: '100000', RATE_LIMIT_PER_ORGANIZATION: '100000', RATE_LIMIT_PER_MEMBER: '100000' }, { database: pooled() });
    org = await createTestOrganization(t.db);
    await target.setup!(t.db, org.id);
  });
  afterAll(async () => {
    await t?.app.close();
    await t?.handle.close();
  });

  const post = (body: unknown, key: string) =>
    t.app.inject({ method: 'POST', url: target.url, headers: { ...bearer(org.owner.apiKey), 'content-type': 'application/json', 'idempotency-key': key }, payload: JSON.stringify(body) });
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(org.owner.apiKey) });

  it('keyed creates sent three times each at once, then once more: one invoice per key, every answer of a key the same invoice', async () => {
    const keys = Array.from({ length: 12 }, () => randomUUID());
    const first = await Promise.all(keys.flatMap((key, i) => [0, 1, 2].map(() => post(target.body(`k${i}`), key))));
    // A copy that arrives while its key's first request still runs is 409 idempotency_in_progress.
    expect(first.filter((r) => r.statusCode !== 201 && r.statusCode !== 409).map((r) => r.body)).toEqual([]);
    const again = await Promise.all(keys.map((key, i) => post(target.body(`k${i}`), key)));
    expect(again.map((r) => r.statusCode)).toEqual(keys.map(() => 201));
    keys.forEach((_key, i) => {
      const ids = first.slice(i * 3, i * 3 + 3).filter((r) => r.statusCode === 201).map((r) => target.record(r.json()).id);
      for (const id of ids) expect(id).toBe(target.record(again[i]!.json()).id);
    });
    expect(await target.countRecords(t.db, org.id)).toBe(keys.length);
    for (let i = 0; i < keys.length; i++) expect(await target.countRecords(t.db, org.id, `k${i}`)).toBe(1);
  });

  it('the hot path (keyed reads and list pages, named statements without a pooler) answers 150 concurrent requests, and leaves no named statement on the server', async () => {
    const created = await post(target.body('read'), randomUUID());
    expect(created.statusCode).toBe(201);
    const invoice = target.record(created.json());
    const customerId = target.body().customer_id as string;
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => [
        get(`/v1/receivables/invoices/${invoice.id}`),
        get(`/v1/receivables/customers/${customerId}`),
        get('/v1/receivables/invoices?limit=5'),
      ]).flat(),
    );
    expect(answers.filter((r) => r.statusCode !== 200).map((r) => `${r.statusCode} ${r.body.slice(0, 300)}`)).toEqual([]);
    expect(new Set(answers.filter((_, i) => i % 3 === 0).map((r) => r.json().id))).toEqual(new Set([invoice.id]));
    expect(answers[2]!.json().documents.length).toBe(5);
    // The named customer read inside a transaction, then what the server session it ran on holds.
    const held = await t.db.transaction(async (tx) => {
      const customer = await findCustomer(tx, { organizationId: org.id, id: customerId, today: '2026-11-28' });
      expect(customer?.id).toBe(customerId);
      return queryRows<{ name: string }>(tx, sql`select name from pg_prepared_statements`);
    });
    expect(held).toEqual([]);
  });

  it('the job runner: two runners on pooled connections run 60 jobs exactly once', async () => {
    const other = await openDatabase(pooled({ poolSize: 4 }));
    try {
      const kind = `test-pooled-${randomUUID().slice(0, 8)}`;
      const runs = new Map<string, number>();
      const now = new Date('2026-11-28T06:00:00Z');
      for (let i = 0; i < 60; i++) await enqueue(t.db, { kind, payload: { i }, now });
      const runner = (handle: DatabaseHandle) =>
        new JobRunner({
          db: handle.db,
          registry: new JobRegistry().register(kind, async ({ job }) => {
            runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
          }),
          batchSize: 7,
          random: () => 0,
        });
      const drain = async (r: JobRunner) => {
        while ((await r.runOnce(now)).claimed > 0);
      };
      const [a, b] = [runner(t.handle), runner(other)];
      await Promise.all([drain(a), drain(b), drain(a), drain(b)]);
      expect(runs.size).toBe(60);
      expect([...runs.values()].filter((n) => n !== 1)).toEqual([]);
      const rows = await t.db.select({ state: jobs.state, attempts: jobs.attempts }).from(jobs).where(eq(jobs.kind, kind));
      expect(rows.map((r) => `${r.state} ${r.attempts}`)).toEqual(rows.map(() => 'done 1'));
    } finally {
      await other.close();
    }
  });

  it('migrations: two processes migrating a fresh database at once both finish (over the direct URL); without one they are refused', async () => {
    const admin = postgres(withDatabaseName(directUrl!, 'postgres'), { max: 1, onnotice: () => {} });
    const fresh = `pooled_migrations_${randomUUID().slice(0, 8)}`;
    await admin.unsafe(`create database "${fresh}"`);
    const handles: DatabaseHandle[] = [];
    try {
      handles.push(await openDatabase(pooled({ database: fresh, poolSize: 2 })), await openDatabase(pooled({ database: fresh, poolSize: 2 })));
      await Promise.all(handles.map((h) => h.migrate()));
      const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] };
      const [applied] = await queryRows<{ n: number }>(handles[0]!.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      expect(applied!.n).toBe(journal.entries.length);
      const undirected = await openDatabase(pooled({ database: fresh, poolSize: 1, direct: false }));
      handles.push(undirected);
      await expect(undirected.migrate()).rejects.toThrow('DATABASE_DIRECT_URL is required with DATABASE_POOLER=pgbouncer-transaction');
    } finally {
      for (const h of handles) await h.close();
      await admin.unsafe(`drop database if exists "${fresh}" with (force)`);
      await admin.end({ timeout: 5 });
    }
  }, 120_000);
});
