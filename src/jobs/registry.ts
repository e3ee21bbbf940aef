import type { Database } from '../db/client';
import type { JobRow } from '../db/queries/jobs';

/**
 * Job kinds and their handlers, and the periodic schedules (docs/design.md §14). A runner claims
 * only the kinds its registry knows, so a process never takes a job it cannot run.
 *
 * Adding a job is one call, where the process's registry is built (src/jobs/standard-jobs.ts):
 *
 *     registry.register('escalate-signoffs', escalateSignoffs, { everySeconds: 300 });
 *
 * `handler({db, now, job})` runs inside a transaction that also marks the job done: its writes and
 * the mark commit together, and a throw rolls both back and schedules a retry (exponential backoff,
 * or exactly `RetryAfter(seconds)`, src/jobs/errors.ts) until `maxAttempts`, then the job is dead.
 * A handler must therefore be safe to run again after a crash (idempotent): a lost process's job is
 * taken again when its lease runs out. Handlers take services' plain functions, never tRPC.
 * `everySeconds` (optional) enqueues the job once per period, whichever process gets there first;
 * leave it out for jobs enqueued by business code (`enqueue(tx, {...})`, src/jobs/queue.ts).
 */

export interface JobContext {
  /** The job's own transaction (the database itself for `ownTransactions` handlers). */
  db: Database;
  /** The runner's clock at the batch. */
  now: Date;
  job: JobRow;
}

/**
 * A handler answers nothing (done), or (with `ownTransactions`) `{ runAgainAt }`: the job is queued
 * again for then (a poll that keeps looking until an outside system answers), attempts counted afresh.
 */
export type JobHandler = (ctx: JobContext) => Promise<void | { runAgainAt: Date }>;

export interface JobOptions {
  /** Enqueue once every this many seconds (a periodic job). */
  everySeconds?: number;
  /** Attempts before a periodic run is dead (5 by default; jobs enqueued by code say so in enqueue). */
  maxAttempts?: number;
  /**
   * The handler gets the database itself, not a transaction, and commits its own steps: for work
   * that must record a step before calling an outside system (the MyInvois submission). It must
   * still be safe to run again; the job is marked done after it returns.
   */
  ownTransactions?: boolean;
}

export interface JobDefinition extends JobOptions {
  kind: string;
  handler: JobHandler;
}

export class JobRegistry {
  readonly #jobs = new Map<string, JobDefinition>();

  register(kind: string, handler: JobHandler, options: JobOptions = {}): this {
    if (!/^[a-z0-9][a-z0-9._:-]{0,99}$/.test(kind)) throw new Error(`job kind ${JSON.stringify(kind)}: use lower-case letters, digits, . _ : -`);
    if (this.#jobs.has(kind)) throw new Error(`job kind ${kind} is registered twice`);
    if (options.everySeconds !== undefined && !(Number.isInteger(options.everySeconds) && options.everySeconds >= 1)) {
      throw new Error(`job kind ${kind}: everySeconds must be a whole number of seconds, at least 1`);
    }
    this.#jobs.set(kind, { kind, handler, ...options });
    return this;
  }

  get(kind: string): JobDefinition | undefined {
    return this.#jobs.get(kind);
  }

  kinds(): string[] {
    return [...this.#jobs.keys()];
  }

  periodic(): (JobDefinition & { everySeconds: number })[] {
    return [...this.#jobs.values()].filter((d): d is JobDefinition & { everySeconds: number } => d.everySeconds !== undefined);
  }
}
