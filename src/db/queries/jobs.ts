import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import { anyOf, queryRows, type Database } from '../client';
import { jobs } from '../schema';

/**
 * The job table's statements (schema/jobs.ts, src/jobs/). Jobs are infrastructure, not tenant
 * data: claiming takes every organization's due jobs at once (a job carries its organization id for
 * its handler), so these take kinds and clocks instead of an organization id.
 */

export type JobRow = typeof jobs.$inferSelect;
export type NewJob = Pick<typeof jobs.$inferInsert, 'kind' | 'payload' | 'organizationId' | 'runAt' | 'dedupeKey' | 'maxAttempts' | 'createdAt'>;

/** Inserts a job; with a dedupe key already pending (queued, running, failed), inserts nothing and answers undefined. */
export async function insertJob(db: Database, job: NewJob): Promise<string | undefined> {
  const [row] = await db.insert(jobs).values(job).onConflictDoNothing().returning({ id: jobs.id });
  return row?.id;
}

/**
 * Inserts a job, or, with its dedupe key already pending and waiting (queued or failed), brings that
 * job's run time forward to `runAt` when it is later: work that must not wait for a far-off run.
 * A running job is left alone (it reschedules itself when it ends). Answers the id when it inserted.
 */
export async function insertJobNoLaterThan(db: Database, job: NewJob & { dedupeKey: string }): Promise<string | undefined> {
  const [row] = await queryRows<{ id: string; inserted: boolean }>(
    db,
    sql`insert into jobs (kind, payload, organization_id, run_at, dedupe_key, max_attempts, created_at)
        values (${job.kind}, ${JSON.stringify(job.payload ?? {})}::jsonb, ${job.organizationId ?? null}::uuid,
                ${job.runAt.toISOString()}::timestamptz, ${job.dedupeKey}, ${job.maxAttempts ?? 5}, ${job.createdAt.toISOString()}::timestamptz)
        on conflict (dedupe_key) where state in ('queued', 'running', 'failed') and dedupe_key is not null
        do update set run_at = least(jobs.run_at, excluded.run_at)
          where jobs.state <> 'running' and jobs.run_at > excluded.run_at
        returning id, (xmax = 0) as inserted`,
  );
  return row?.inserted ? row.id : undefined;
}

/**
 * A claimed job that asked to run again later (its handler answered `runAgainAt`): queued at that
 * time with its attempts counted afresh, inside the handler's transaction like markJobDone.
 */
export async function rescheduleJob(tx: Database, q: { id: string; attempts: number; runAt: Date }): Promise<boolean> {
  const rows = await tx
    .update(jobs)
    .set({ state: 'queued', attempts: 0, lockedUntil: null, runAt: q.runAt, lastError: null })
    .where(stillClaimed(q.id, q.attempts))
    .returning({ id: jobs.id });
  return rows.length === 1;
}

/**
 * Inserts a periodic job unless a job with its dedupe key exists in any state (a period already
 * done is not run again); two processes racing meet the pending-key unique index instead.
 */
export async function insertJobOnce(db: Database, job: NewJob & { dedupeKey: string }): Promise<string | undefined> {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`insert into jobs (kind, payload, organization_id, run_at, dedupe_key, max_attempts, created_at)
        select ${job.kind}, ${JSON.stringify(job.payload ?? {})}::jsonb, ${job.organizationId ?? null}::uuid,
               ${job.runAt.toISOString()}::timestamptz, ${job.dedupeKey}, ${job.maxAttempts ?? 5}, ${job.createdAt.toISOString()}::timestamptz
        where not exists (select 1 from jobs where dedupe_key = ${job.dedupeKey})
        on conflict do nothing
        returning id`,
  );
  return row?.id;
}

/**
 * Claims up to `limit` due jobs of the given kinds in one statement: queued jobs whose time has come
 * and failed ones whose retry is due (a running job whose lease ran out is first turned into a
 * failed one by failExpiredLeases). Rows another process is claiming are skipped, not waited for.
 * Each claim counts an attempt and takes a lease until `leaseUntil`: a process that dies while
 * running the job has spent that attempt.
 */
export async function claimDueJobs(db: Database, q: { now: Date; limit: number; leaseUntil: Date; kinds: string[] }): Promise<JobRow[]> {
  if (q.kinds.length === 0 || q.limit < 1) return [];
  // Taken in turns across kinds (each kind's oldest first, then each kind's second, ...): a backlog of
  // one kind (deliveries to a webhook endpoint that is down) never holds up e-mail or e-invoice
  // submissions due behind it. Each kind's candidates are locked in its own index range
  // (jobs_kind_due_idx); those not taken are let go when the statement's transaction ends.
  const due = sql`(
    select c.id from unnest(${sql.param([...q.kinds])}::text[]) as k(kind)
    cross join lateral (
      select j.id, j.run_at from jobs j
      where j.kind = k.kind and j.state in ('queued', 'failed') and j.run_at <= ${q.now.toISOString()}::timestamptz
      order by j.run_at
      limit ${q.limit}
      for update skip locked
    ) c
    order by row_number() over (partition by k.kind order by c.run_at), c.run_at
    limit ${q.limit})`;
  return db
    .update(jobs)
    .set({ state: 'running', attempts: sql`${jobs.attempts} + 1`, lockedUntil: q.leaseUntil })
    .where(inArray(jobs.id, due))
    .returning();
}

export const LEASE_RAN_OUT = 'the process running the job stopped before it finished (its lease ran out)';

/**
 * Running jobs whose lease ran out (their process died: SIGKILL, OOM, a poison answer): the attempt
 * their claim counted is spent, so each is failed and retried after the same backoff as a thrown
 * error (`base·2^(attempts-1)` seconds, capped), or dead when that was its last attempt. A job that
 * kills its process is thus dead after max_attempts, never re-leased for ever. Rows still locked
 * (a run under way past its lease holds its row) are left alone. Answers how many became each.
 */
export async function failExpiredLeases(
  db: Database,
  q: { now: Date; kinds: string[]; backoffSeconds: number; maxBackoffSeconds: number },
): Promise<{ failed: number; dead: number }> {
  if (q.kinds.length === 0) return { failed: 0, dead: 0 };
  const now = sql`${q.now.toISOString()}::timestamptz`;
  const dead = sql`${jobs.attempts} >= ${jobs.maxAttempts}`;
  const expired = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(anyOf(jobs.kind, q.kinds), eq(jobs.state, 'running'), lte(jobs.lockedUntil, q.now)))
    .for('update', { skipLocked: true });
  const rows = await db
    .update(jobs)
    .set({
      state: sql`case when ${dead} then 'dead' else 'failed' end`,
      runAt: sql`case when ${dead} then ${jobs.runAt}
                 else ${now} + least(${q.maxBackoffSeconds}::float8, ${q.backoffSeconds}::float8 * power(2, greatest(${jobs.attempts} - 1, 0))) * interval '1 second' end`,
      finishedAt: sql`case when ${dead} then ${now} else null end`,
      lockedUntil: null,
      lastError: LEASE_RAN_OUT,
    })
    .where(inArray(jobs.id, expired))
    .returning({ state: jobs.state });
  return { failed: rows.filter((r) => r.state === 'failed').length, dead: rows.filter((r) => r.state === 'dead').length };
}

/** The claim `attempts` made, still current: only it may finish or fail the job. */
const stillClaimed = (id: string, attempts: number) => and(eq(jobs.id, id), eq(jobs.state, 'running'), eq(jobs.attempts, attempts));

/**
 * Marks a claimed job done, inside the handler's transaction: the row stays locked until commit (so
 * no other process takes it meanwhile, lease or not), and a rollback undoes the mark with the work.
 * False when the claim is no longer current (another process took the job after the lease ran out).
 */
export async function markJobDone(tx: Database, q: { id: string; attempts: number; now: Date }): Promise<boolean> {
  const rows = await tx
    .update(jobs)
    .set({ state: 'done', lockedUntil: null, finishedAt: q.now })
    .where(stillClaimed(q.id, q.attempts))
    .returning({ id: jobs.id });
  return rows.length === 1;
}

/** Records a failed attempt: retried at `retryAt`, or dead when no attempts are left. Answers the new state. */
export async function markJobFailed(
  db: Database,
  q: { id: string; attempts: number; now: Date; retryAt: Date; error: string },
): Promise<'failed' | 'dead' | undefined> {
  const dead = sql`${jobs.attempts} >= ${jobs.maxAttempts}`;
  const [row] = await db
    .update(jobs)
    .set({
      state: sql`case when ${dead} then 'dead' else 'failed' end`,
      runAt: sql`case when ${dead} then ${jobs.runAt} else ${q.retryAt.toISOString()}::timestamptz end`,
      finishedAt: sql`case when ${dead} then ${q.now.toISOString()}::timestamptz else null end`,
      lockedUntil: null,
      lastError: q.error,
    })
    .where(stillClaimed(q.id, q.attempts))
    .returning({ state: jobs.state });
  return row?.state as 'failed' | 'dead' | undefined;
}

/** Deletes up to `batchSize` jobs done before `before`; answers how many went. Dead jobs stay for an operator. */
export async function deleteFinishedJobs(db: Database, q: { before: Date; batchSize: number }): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with gone as (
          delete from jobs where id in (
            select id from jobs where state = 'done' and finished_at < ${q.before.toISOString()}::timestamptz limit ${q.batchSize})
          returning 1)
        select count(*)::int as n from gone`,
  );
  return Number(row?.n ?? 0);
}

/**
 * The organization's job of one of these kinds that a person should see: a pending one (queued,
 * running or failed) first, else the latest. Scoped by organization (the einvoice GET shows it).
 */
export async function findOrganizationJob(db: Database, q: { organizationId: string; kinds: string[] }): Promise<JobRow | undefined> {
  if (q.kinds.length === 0) return undefined;
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.organizationId, q.organizationId), anyOf(jobs.kind, q.kinds)))
    .orderBy(sql`(${jobs.state} in ('queued', 'running', 'failed')) desc`, sql`${jobs.createdAt} desc`, sql`${jobs.id} desc`)
    .limit(1);
  return row;
}

/** Jobs not done, by kind and state (the /metrics gauges). */
export async function countUnfinishedJobs(db: Database): Promise<{ kind: string; state: string; n: number }[]> {
  const rows = await queryRows<{ kind: string; state: string; n: number }>(
    db,
    sql`select kind, state, count(*)::int as n from jobs where state in ('queued', 'running', 'failed', 'dead') group by kind, state`,
  );
  return rows.map((r) => ({ kind: r.kind, state: r.state, n: Number(r.n) }));
}

/** One job, for tests and operators. */
export async function findJob(db: Database, id: string): Promise<JobRow | undefined> {
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
  return row;
}
