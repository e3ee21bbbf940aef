import type { Database } from '../db/client';
import { insertJob, insertJobOnce } from '../db/queries/jobs';

/**
 * Enqueuing a job (docs/design.md §14). Pass the caller's transaction as `db` to write the job
 * atomically with the business change (an outbox row): a rollback leaves no job, a commit leaves
 * the change and the job that follows it up. Never runs anything itself: a JobRunner claims it.
 */

export interface EnqueueInput {
  kind: string;
  /** JSON the handler reads (ids, not whole records). */
  payload?: unknown;
  /** The organization the job works for; absent for system-wide jobs (purges). */
  organizationId?: string | null;
  /** Not before this moment; now by default. */
  runAt?: Date;
  /** At most one pending job (queued, running or waiting for a retry) per key. */
  dedupeKey?: string;
  maxAttempts?: number;
  /** The clock of `created_at` and of the default `runAt`. */
  now?: Date;
}

/** Answers the new job's id, or undefined when a job with the same dedupe key is already pending. */
export async function enqueue(db: Database, input: EnqueueInput): Promise<string | undefined> {
  const now = input.now ?? new Date();
  return insertJob(db, {
    kind: input.kind,
    payload: input.payload ?? {},
    organizationId: input.organizationId ?? null,
    runAt: input.runAt ?? now,
    dedupeKey: input.dedupeKey ?? null,
    maxAttempts: input.maxAttempts,
    createdAt: now,
  });
}

/** The dedupe key of a periodic job's period: the number of whole periods since the epoch. */
export function periodKey(kind: string, everySeconds: number, now: Date): string {
  return `periodic:${kind}:${everySeconds}:${Math.floor(now.getTime() / 1000 / everySeconds)}`;
}

/**
 * Enqueues the current period's run of a periodic job, once: not again while it is pending nor
 * after it is done (any number of processes may call this every tick). Answers the id when it did.
 */
export async function enqueuePeriodic(db: Database, input: { kind: string; everySeconds: number; now: Date; maxAttempts?: number }) {
  return insertJobOnce(db, {
    kind: input.kind,
    payload: {},
    organizationId: null,
    runAt: input.now,
    dedupeKey: periodKey(input.kind, input.everySeconds, input.now),
    maxAttempts: input.maxAttempts,
    createdAt: input.now,
  });
}
