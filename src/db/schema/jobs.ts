import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations';

/**
 * The job table (docs/design.md §14): background work claimed with FOR UPDATE SKIP LOCKED, so any
 * number of server processes share it and a crash loses nothing (src/jobs/runner.ts).
 *
 * States: `queued` (waiting for `run_at`), `running` (claimed; `locked_until` is the lease, after
 * which another process may take it again), `failed` (an attempt failed; retried at `run_at`),
 * `done`, `dead` (failed `max_attempts` times; left for an operator). `attempts` counts claims, and
 * doubles as the fencing token of a claim: only the claim that holds the current count may finish it.
 * `organization_id` is null for system-wide jobs (purges). `last_error` is a short description made
 * by src/jobs/errors.ts: never SQL, parameters or secrets.
 */
export const JOB_STATES = ['queued', 'running', 'failed', 'done', 'dead'] as const;
export type JobState = (typeof JOB_STATES)[number];

export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id').references(() => organizations.id),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<unknown>().notNull().default({}),
    runAt: timestamp('run_at', { withTimezone: true }).notNull(),
    state: text('state').$type<JobState>().notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    /** At most one pending (queued, running or failed) job per key: a periodic job is enqueued once. */
    dedupeKey: text('dedupe_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    check('jobs_state_known', sql`${t.state} in ('queued', 'running', 'failed', 'done', 'dead')`),
    check('jobs_max_attempts_positive', sql`${t.maxAttempts} >= 1`),
    // Claiming, in turns across kinds: each kind's jobs waiting to run (queued, or failed and waiting
    // for their retry) in run order.
    index('jobs_kind_due_idx').on(t.kind, t.runAt).where(sql`${t.state} in ('queued', 'failed')`),
    // Claiming again: running jobs whose lease ran out (their process died).
    index('jobs_lease_idx').on(t.lockedUntil).where(sql`${t.state} = 'running'`),
    uniqueIndex('jobs_dedupe_pending').on(t.dedupeKey).where(sql`${t.state} in ('queued', 'running', 'failed') and ${t.dedupeKey} is not null`),
    // Periodic enqueue looks a key up in any state (a period already done is not enqueued again).
    index('jobs_dedupe_idx').on(t.dedupeKey).where(sql`${t.dedupeKey} is not null`),
    index('jobs_finished_idx').on(t.finishedAt).where(sql`${t.state} = 'done'`),
  ],
);
