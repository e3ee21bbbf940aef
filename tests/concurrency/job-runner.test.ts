/**
 * The job runner on PostgreSQL (docs/design.md §14; PGlite has one connection and cannot race): two
 * runners on separate connections never run a job twice, a job whose lease ran out has spent an
 * attempt and is taken again after the backoff (never while its first run still holds the row; a
 * MyInvois job that kills its process is dead after its 10 attempts), failures are retried with backoff until the
 * job is dead, RetryAfter sets the retry exactly, and a periodic job is enqueued once per period.
 * Each test uses its own job kinds: runners only claim the kinds their registry knows.
 */
import { and, eq } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/client';
import { claimDueJobs, findJob, LEASE_RAN_OUT, markJobDone } from '../../src/db/queries/jobs';
import { jobs } from '../../src/db/schema';
import { RetryAfter } from '../../src/jobs/errors';
import { enqueue } from '../../src/jobs/queue';
import { JobRegistry, type JobHandler } from '../../src/jobs/registry';
import { backoffMs, JobRunner } from '../../src/jobs/runner';
import { enqueueMyinvois, MYINVOIS_JOBS, MYINVOIS_MAX_ATTEMPTS } from '../../src/services/einvoicing/outbox';
import { createTestOrganization } from '../factories/organization';
import { onPostgres, testDatabase, useTestApp } from '../helpers/app';

const NOW = new Date('2026-11-23T10:00:00Z');
const after = (seconds: number, from = NOW) => new Date(from.getTime() + seconds * 1000);
const uniqueKind = (name: string) => `test-${name}-${randomUUID().slice(0, 8)}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!onPostgres)('the job runner across connections', () => {
  const t = useTestApp();
  let other: DatabaseHandle;

  beforeAll(async () => {
    other = await openDatabase(testDatabase({ poolSize: 5 }));
  });
  afterAll(async () => {
    await other?.close();
  });

  const runner = (db: typeof t.db, kind: string, handler: JobHandler, opts: { batchSize?: number; random?: number; everySeconds?: number } = {}) =>
    new JobRunner({
      db,
      registry: new JobRegistry().register(kind, handler, opts.everySeconds ? { everySeconds: opts.everySeconds } : {}),
      batchSize: opts.batchSize ?? 10,
      random: () => opts.random ?? 0,
    });

  it('100 jobs, two runners on separate connections: every job runs exactly once', async () => {
    const kind = uniqueKind('hundred');
    const runs = new Map<string, number>();
    const byRunner = { a: 0, b: 0 };
    const handler = (who: 'a' | 'b'): JobHandler => async ({ job }) => {
      runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
      byRunner[who] += 1;
      await sleep(1);
    };
    const ids = [];
    for (let i = 0; i < 100; i++) ids.push(await enqueue(t.db, { kind, payload: { i }, now: NOW }));
    const a = runner(t.db, kind, handler('a'), { batchSize: 7 });
    const b = runner(other.db, kind, handler('b'), { batchSize: 7 });
    const drain = async (r: JobRunner) => {
      while ((await r.runOnce(NOW)).claimed > 0);
    };
    await Promise.all([drain(a), drain(b), drain(a), drain(b)]);

    expect(runs.size).toBe(100);
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
    expect(byRunner.a + byRunner.b).toBe(100);
    expect(byRunner.a).toBeGreaterThan(0);
    expect(byRunner.b).toBeGreaterThan(0);
    const rows = await t.db.select().from(jobs).where(eq(jobs.kind, kind));
    expect(rows.map((r) => [r.state, r.attempts])).toEqual(rows.map(() => ['done', 1]));
  });

  it('a job whose lease ran out (its process died after claiming) counts that attempt, is retried after the backoff; the dead claim can no longer finish it', async () => {
    const kind = uniqueKind('lease');
    let ran = 0;
    const id = (await enqueue(t.db, { kind, now: NOW }))!;
    // A process claims the job and dies before running it.
    const [claimed] = await claimDueJobs(other.db, { now: NOW, limit: 1, leaseUntil: after(300), kinds: [kind] });
    expect(claimed!.id).toBe(id);
    const b = runner(t.db, kind, async () => void (ran += 1));
    expect((await b.runOnce(after(299))).claimed).toBe(0);
    expect(await b.runOnce(after(300))).toMatchObject({ claimed: 0, failed: 1 });
    expect(await findJob(t.db, id)).toMatchObject({ state: 'failed', attempts: 1, lastError: LEASE_RAN_OUT, runAt: after(330) });
    expect(await b.runOnce(after(330))).toMatchObject({ claimed: 1, done: 1 });
    expect(ran).toBe(1);
    expect(await findJob(t.db, id)).toMatchObject({ state: 'done', attempts: 2 });
    expect(await markJobDone(other.db, { id, attempts: claimed!.attempts, now: after(331) })).toBe(false);
  });

  it('a MyInvois job whose process dies every time it runs it is dead after its 10 attempts, each retry later than the last', async () => {
    const org = await createTestOrganization(t.db);
    await enqueueMyinvois(t.db, 'submit', org.id, NOW, NOW);
    const [job] = await t.db.select().from(jobs).where(and(eq(jobs.organizationId, org.id), eq(jobs.kind, MYINVOIS_JOBS.submit)));
    expect(job).toMatchObject({ state: 'queued', maxAttempts: MYINVOIS_MAX_ATTEMPTS });
    const r = runner(t.db, MYINVOIS_JOBS.submit, async () => {
      throw new Error('a crashed job is never run to the end');
    });
    let at = NOW;
    const delays: number[] = [];
    for (let crash = 1; crash <= 10; crash++) {
      // A process claims the job and dies running it (a poison answer, the OOM killer).
      const claimed = await claimDueJobs(other.db, { now: at, limit: 50, leaseUntil: after(300, at), kinds: [MYINVOIS_JOBS.submit] });
      expect(claimed.map((c) => c.id)).toContain(job!.id);
      await r.runOnce(after(300, at));
      const row = (await findJob(t.db, job!.id))!;
      expect(row).toMatchObject({ attempts: crash, lastError: LEASE_RAN_OUT, lockedUntil: null });
      if (crash < 10) {
        expect(row.state).toBe('failed');
        delays.push(row.runAt.getTime() - after(300, at).getTime());
        at = row.runAt;
      } else {
        expect(row.state).toBe('dead');
      }
    }
    expect(delays[0]).toBe(30_000);
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1]!);
    // Dead: no runner takes it again, however late.
    const late = await claimDueJobs(other.db, { now: after(10 * 86_400), limit: 50, leaseUntil: after(11 * 86_400), kinds: [MYINVOIS_JOBS.submit] });
    expect(late.map((c) => c.id)).not.toContain(job!.id);
    expect(await findJob(t.db, job!.id)).toMatchObject({ state: 'dead', attempts: 10 });
  });

  it('a job still running holds its row: another runner does not take it even after the lease ran out', async () => {
    const kind = uniqueKind('holding');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let ran = 0;
    const id = (await enqueue(t.db, { kind, now: NOW }))!;
    const slow = runner(t.db, kind, async () => {
      ran += 1;
      await gate;
    });
    const first = slow.runOnce(NOW);
    while ((await findJob(other.db, id))!.state !== 'running') await sleep(5);
    await sleep(50);
    const second = runner(other.db, kind, async () => void (ran += 1));
    expect((await second.runOnce(after(3600))).claimed).toBe(0);
    release();
    expect(await first).toMatchObject({ done: 1 });
    expect(ran).toBe(1);
  });

  it('a failing job is retried after an exponential backoff with jitter, then dead after max_attempts with last_error', async () => {
    const kind = uniqueKind('retry');
    const id = (await enqueue(t.db, { kind, now: NOW, maxAttempts: 3 }))!;
    const r = runner(t.db, kind, async () => {
      throw new Error('the tax office is down');
    });
    expect(await r.runOnce(NOW)).toMatchObject({ claimed: 1, failed: 1 });
    let row = (await findJob(t.db, id))!;
    expect(row).toMatchObject({ state: 'failed', attempts: 1, lastError: 'Error: the tax office is down' });
    expect(row.runAt).toEqual(after(30));
    expect((await r.runOnce(after(29))).claimed).toBe(0);

    expect(await r.runOnce(after(30))).toMatchObject({ claimed: 1, failed: 1 });
    row = (await findJob(t.db, id))!;
    expect(row).toMatchObject({ state: 'failed', attempts: 2 });
    expect(row.runAt).toEqual(after(30 + 60));

    expect(await r.runOnce(after(90))).toMatchObject({ claimed: 1, dead: 1 });
    row = (await findJob(t.db, id))!;
    expect(row).toMatchObject({ state: 'dead', attempts: 3, lastError: 'Error: the tax office is down', lockedUntil: null });
    expect(row.finishedAt).toEqual(after(90));
    expect((await r.runOnce(after(100_000))).claimed).toBe(0);
  });

  it('the jitter adds up to a quarter of the delay, and the delay stops growing at its cap', async () => {
    expect(backoffMs(1, { base: 30, max: 3600, random: 0 })).toBe(30_000);
    expect(backoffMs(1, { base: 30, max: 3600, random: 0.5 })).toBe(33_750);
    expect(backoffMs(4, { base: 30, max: 3600, random: 0.999 })).toBeLessThan(300_000);
    expect(backoffMs(20, { base: 30, max: 3600, random: 0 })).toBe(3_600_000);
    const kind = uniqueKind('jitter');
    const id = (await enqueue(t.db, { kind, now: NOW }))!;
    const failing: JobHandler = async () => {
      throw new Error('x');
    };
    await runner(t.db, kind, failing, { random: 0.5 }).runOnce(NOW);
    expect((await findJob(t.db, id))!.runAt).toEqual(new Date(NOW.getTime() + 33_750));
  });

  it('RetryAfter(seconds) sets the retry exactly', async () => {
    const kind = uniqueKind('retry-after');
    const id = (await enqueue(t.db, { kind, now: NOW }))!;
    await runner(t.db, kind, async () => {
      throw new RetryAfter(120, 'the document is still being validated');
    }).runOnce(NOW);
    const row = (await findJob(t.db, id))!;
    expect(row).toMatchObject({ state: 'failed', attempts: 1, lastError: 'retry after 120 s: the document is still being validated' });
    expect(row.runAt).toEqual(after(120));
  });

  it('a lease that ran out on the last attempt makes the job dead instead of claiming it for ever', async () => {
    const kind = uniqueKind('last-lease');
    const id = (await enqueue(t.db, { kind, now: NOW, maxAttempts: 1 }))!;
    await claimDueJobs(other.db, { now: NOW, limit: 1, leaseUntil: after(300), kinds: [kind] });
    const r = runner(t.db, kind, async () => {});
    expect(await r.runOnce(after(300))).toMatchObject({ claimed: 0, dead: 1 });
    expect(await findJob(t.db, id)).toMatchObject({ state: 'dead', attempts: 1, lastError: LEASE_RAN_OUT, finishedAt: after(300) });
  });

  it('a periodic job is enqueued once per period, whichever runners tick and however often', async () => {
    const kind = uniqueKind('periodic');
    let ran = 0;
    const handler: JobHandler = async () => void (ran += 1);
    const a = runner(t.db, kind, handler, { everySeconds: 60 });
    const b = runner(other.db, kind, handler, { everySeconds: 60 });
    await Promise.all([a.runOnce(NOW), b.runOnce(NOW), a.runOnce(after(1)), b.runOnce(after(2))]);
    await Promise.all([a.runOnce(after(30)), b.runOnce(after(59))]);
    expect(ran).toBe(1);
    expect(await t.db.select().from(jobs).where(eq(jobs.kind, kind))).toHaveLength(1);

    await Promise.all([a.runOnce(after(60)), b.runOnce(after(61))]);
    expect(ran).toBe(2);
    const rows = await t.db.select().from(jobs).where(eq(jobs.kind, kind));
    expect(rows.map((r) => r.state)).toEqual(['done', 'done']);
    expect(new Set(rows.map((r) => r.dedupeKey)).size).toBe(2);
  });
});
