/**
 * The job table on both databases (src/jobs/): enqueue inside a caller's transaction, a runner's
 * batch (handler and done mark commit together, a failure rolls the handler's writes back), and the
 * purge jobs deleting exactly the rows that can no longer change an answer. Every test uses its own
 * job kinds, so runners of other test files sharing the PostgreSQL database never take its jobs;
 * purged rows are dated 1999, so a purge at a 1999 "now" touches no other test's rows.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { queryRows } from '../../src/db/client';
import { findJob } from '../../src/db/queries/jobs';
import { idempotencyKeys, jobs, loginFailures } from '../../src/db/schema';
import { purgeFinishedJobs, purgeIdempotencyKeys, purgeLoginFailures } from '../../src/jobs/purges';
import { enqueue } from '../../src/jobs/queue';
import { JobRegistry, type JobHandler } from '../../src/jobs/registry';
import { JobRunner } from '../../src/jobs/runner';
import { buildJobRegistry, JOB_KINDS } from '../../src/jobs/standard-jobs';
import { createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';

const t = useTestApp();

const uniqueKind = (name: string) => `test-${name}-${randomUUID().slice(0, 8)}`;
const runnerFor = (kind: string, handler: JobHandler) => new JobRunner({ db: t.db, registry: new JobRegistry().register(kind, handler), random: () => 0 });
const NOW = new Date('2026-11-23T10:00:00Z');

describe('enqueue', () => {
  it('inside a transaction that rolls back leaves no job; one that commits leaves it queued', async () => {
    const org = await createTestOrganization(t.db);
    const kind = uniqueKind('outbox');
    await expect(
      t.db.transaction(async (tx) => {
        await enqueue(tx, { kind, payload: { n: 1 }, organizationId: org.id, now: NOW });
        throw new Error('the business change failed');
      }),
    ).rejects.toThrow('the business change failed');
    expect(await t.db.select().from(jobs).where(eq(jobs.kind, kind))).toEqual([]);

    const id = await t.db.transaction((tx) => enqueue(tx, { kind, payload: { n: 2 }, organizationId: org.id, now: NOW }));
    const row = await findJob(t.db, id!);
    expect(row).toMatchObject({ kind, payload: { n: 2 }, organizationId: org.id, state: 'queued', attempts: 0, maxAttempts: 5, lastError: null });
    expect(row!.runAt.toISOString()).toBe(NOW.toISOString());
  });

  it('a dedupe key already pending enqueues nothing; once the job is done the key is free again', async () => {
    const kind = uniqueKind('dedupe');
    const key = `${kind}:customer-1`;
    const first = await enqueue(t.db, { kind, dedupeKey: key, now: NOW });
    expect(first).toBeDefined();
    expect(await enqueue(t.db, { kind, dedupeKey: key, now: NOW })).toBeUndefined();
    await runnerFor(kind, async () => {}).runOnce(NOW);
    expect((await findJob(t.db, first!))!.state).toBe('done');
    expect(await enqueue(t.db, { kind, dedupeKey: key, now: NOW })).toBeDefined();
  });
});

describe('a batch of the runner', () => {
  it('runs a due job with its handler writes and the done mark in one transaction; a job not yet due waits', async () => {
    const org = await createTestOrganization(t.db);
    const kind = uniqueKind('writes');
    const seen: unknown[] = [];
    const runner = runnerFor(kind, async ({ db, job, now }) => {
      seen.push(job.payload);
      expect(now).toEqual(NOW);
      await enqueue(db, { kind: `${kind}-followup`, organizationId: job.organizationId, now });
    });
    const due = await enqueue(t.db, { kind, payload: { claim: 'a' }, organizationId: org.id, now: NOW });
    const later = await enqueue(t.db, { kind, payload: { claim: 'b' }, organizationId: org.id, runAt: new Date(NOW.getTime() + 60_000), now: NOW });
    expect(await runner.runOnce(NOW)).toEqual({ claimed: 1, done: 1, failed: 0, dead: 0, lost: 0 });
    expect(seen).toEqual([{ claim: 'a' }]);
    expect(await findJob(t.db, due!)).toMatchObject({ state: 'done', attempts: 1, lockedUntil: null, finishedAt: NOW });
    expect((await findJob(t.db, later!))!.state).toBe('queued');
    expect(await t.db.select().from(jobs).where(eq(jobs.kind, `${kind}-followup`))).toHaveLength(1);
  });

  it('takes kinds in turns: a backlog of one kind due first does not hold up another kind due after it', async () => {
    const backlog = uniqueKind('backlog');
    const mail = uniqueKind('mail');
    for (let i = 0; i < 25; i++) await enqueue(t.db, { kind: backlog, payload: { i }, now: new Date(NOW.getTime() - 3_600_000 + i * 1000) });
    await enqueue(t.db, { kind: mail, payload: {}, now: NOW });
    const ran: string[] = [];
    const registry = new JobRegistry().register(backlog, async () => void ran.push(backlog)).register(mail, async () => void ran.push(mail));
    const result = await new JobRunner({ db: t.db, registry, random: () => 0, batchSize: 10 }).runOnce(NOW);
    // Ten claimed: the one mail job and nine of the backlog (oldest first); fifteen wait for the next batch.
    expect(result).toMatchObject({ claimed: 10, done: 10 });
    expect(ran.filter((k) => k === mail)).toHaveLength(1);
    const left = await t.db.select({ payload: jobs.payload }).from(jobs).where(and(eq(jobs.kind, backlog), eq(jobs.state, 'queued')));
    expect(left.map((r) => (r.payload as { i: number }).i).sort((a, b) => a - b)).toEqual(Array.from({ length: 16 }, (_, i) => i + 9));
  });

  it('a failing handler leaves none of its writes; the failure is recorded and retried after the backoff', async () => {
    const kind = uniqueKind('fails');
    const runner = runnerFor(kind, async ({ db, now }) => {
      await enqueue(db, { kind: `${kind}-followup`, now });
      throw new Error('MyInvois answered 503');
    });
    const id = await enqueue(t.db, { kind, now: NOW });
    expect(await runner.runOnce(NOW)).toMatchObject({ claimed: 1, failed: 1 });
    const row = await findJob(t.db, id!);
    expect(row).toMatchObject({ state: 'failed', attempts: 1, lastError: 'Error: MyInvois answered 503', lockedUntil: null, finishedAt: null });
    expect(row!.runAt.toISOString()).toBe(new Date(NOW.getTime() + 30_000).toISOString());
    expect(await t.db.select().from(jobs).where(eq(jobs.kind, `${kind}-followup`))).toEqual([]);
  });

  it('a database error is recorded by its SQLSTATE, without the statement or its parameters', async () => {
    const kind = uniqueKind('sql');
    const runner = runnerFor(kind, async ({ db }) => {
      await db.execute(sql`select ${'secret-value'}::int`);
    });
    const id = await enqueue(t.db, { kind, now: NOW });
    await runner.runOnce(NOW);
    const row = await findJob(t.db, id!);
    expect(row!.lastError).toBe('database error 22P02');
  });
});

describe('start and stop', () => {
  it('start() polls for due jobs; stop() waits for the job under way, which finishes done', async () => {
    const kind = uniqueKind('polled');
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    const runner = new JobRunner({
      db: t.db,
      registry: new JobRegistry().register(kind, async () => {
        entered();
        await new Promise((r) => setTimeout(r, 200));
      }),
      pollIntervalMs: 20,
    });
    runner.start();
    try {
      const id = await enqueue(t.db, { kind });
      await inside;
      await runner.stop();
      expect((await findJob(t.db, id!))!.state).toBe('done');
    } finally {
      await runner.stop();
    }
  });
});

describe('the standard jobs', () => {
  it('are registered with their periods from the configuration; a period of 0 leaves one unscheduled', () => {
    const registry = buildJobRegistry(loadConfig({ IDEMPOTENCY_PURGE_INTERVAL_SECONDS: '0' } as NodeJS.ProcessEnv));
    expect(registry.kinds().sort()).toEqual(Object.values(JOB_KINDS).sort());
    expect(Object.fromEntries(registry.periodic().map((p) => [p.kind, p.everySeconds]))).toEqual({
      [JOB_KINDS.purgeLoginFailures]: 3600,
      [JOB_KINDS.purgeUnboundFiles]: 3600,
      [JOB_KINDS.purgeFinishedJobs]: 86_400,
      [JOB_KINDS.purgeEvents]: 3600,
      [JOB_KINDS.escalateSignoffs]: 600,
      [JOB_KINDS.refreshSignoffsOnDates]: 600,
      [JOB_KINDS.myinvoisSweep]: 60,
      [JOB_KINDS.paymentReminders]: 3600,
    });
  });

  it('purging login failures deletes the counters whose window ended, by kind, and nothing else', async () => {
    const at = (iso: string) => new Date(iso);
    const now = at('1999-01-02T00:10:00Z');
    const s = (name: string) => `${name}-${randomUUID()}`;
    const rows = [
      { name: s('address-window-ended'), kind: 'address' as const, windowStartedAt: at('1999-01-02T00:05:00Z'), gone: true },
      { name: s('address-window-open'), kind: 'address' as const, windowStartedAt: at('1999-01-02T00:05:01Z'), gone: false },
      { name: s('pair-window-ended'), kind: 'pair' as const, windowStartedAt: at('1999-01-01T23:55:00Z'), gone: true },
      { name: s('pair-window-open'), kind: 'pair' as const, windowStartedAt: at('1999-01-01T23:55:01Z'), gone: false },
      { name: s('account-window-ended'), kind: 'account' as const, windowStartedAt: at('1999-01-01T23:10:00Z'), gone: true },
      { name: s('account-window-open'), kind: 'account' as const, windowStartedAt: at('1999-01-01T23:10:01Z'), gone: false },
    ];
    await t.db.insert(loginFailures).values(
      rows.map((r) => ({ kind: r.kind, subject: r.name, failures: 7, windowStartedAt: r.windowStartedAt, lastFailedAt: r.windowStartedAt })),
    );
    const kind = uniqueKind('purge-login');
    await enqueue(t.db, { kind, now });
    expect(await runnerFor(kind, purgeLoginFailures({ address: 300, pair: 900, account: 3600 })).runOnce(now)).toMatchObject({ done: 1 });
    const left = await t.db.select({ subject: loginFailures.subject }).from(loginFailures).where(inArray(loginFailures.subject, rows.map((r) => r.name)));
    expect(left.map((r) => r.subject).sort()).toEqual(rows.filter((r) => !r.gone).map((r) => r.name).sort());
  });

  it('purging idempotency keys deletes those whose 24 hours are over, and keeps every key that can still replay', async () => {
    const org = await createTestOrganization(t.db);
    const now = new Date('1999-03-02T12:00:00Z');
    const key = (name: string, expiresAt: string) => ({
      organizationId: org.id,
      scope: 'api_key:test',
      key: name,
      fingerprint: 'f',
      route: 'receivables.customers.create',
      status: 201,
      body: '{}',
      createdAt: new Date(new Date(expiresAt).getTime() - 86_400_000),
      expiresAt: new Date(expiresAt),
    });
    await t.db.insert(idempotencyKeys).values([
      key('expired-long-ago', '1999-03-01T00:00:00Z'),
      key('expired-just-now', '1999-03-02T12:00:00Z'),
      key('still-replays', '1999-03-02T12:00:00.001Z'),
    ]);
    const kind = uniqueKind('purge-idempotency');
    await enqueue(t.db, { kind, now });
    expect(await runnerFor(kind, purgeIdempotencyKeys).runOnce(now)).toMatchObject({ done: 1 });
    const left = await t.db
      .select({ key: idempotencyKeys.key })
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.organizationId, org.id), eq(idempotencyKeys.scope, 'api_key:test')));
    expect(left.map((r) => r.key)).toEqual(['still-replays']);
  });

  it('purging finished jobs deletes done jobs past their retention and keeps dead ones', async () => {
    const kind = uniqueKind('finished');
    const old = new Date('1999-01-01T00:00:00Z');
    const [, dead, recent] = await t.db
      .insert(jobs)
      .values([
        { kind, runAt: old, createdAt: old, state: 'done', finishedAt: old },
        { kind, runAt: old, createdAt: old, state: 'dead', finishedAt: old },
        { kind, runAt: old, createdAt: old, state: 'done', finishedAt: new Date('1999-01-07T00:00:01Z') },
      ])
      .returning({ id: jobs.id });
    const purgeKind = uniqueKind('purge-jobs');
    await enqueue(t.db, { kind: purgeKind, now: new Date('1999-01-08T00:00:00Z') });
    await runnerFor(purgeKind, purgeFinishedJobs(1)).runOnce(new Date('1999-01-08T00:00:00Z'));
    const left = await queryRows<{ id: string }>(t.db, sql`select id from jobs where kind = ${kind} order by created_at`);
    expect(left.map((r) => r.id).sort()).toEqual([dead!.id, recent!.id].sort());
  });
});
