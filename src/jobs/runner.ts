import type { Logger } from 'pino';
import type { Database } from '../db/client';
import { claimDueJobs, failExpiredLeases, markJobDone, markJobFailed, rescheduleJob, type JobRow } from '../db/queries/jobs';
import { describeJobError, RetryAfter } from './errors';
import { enqueuePeriodic } from './queue';
import type { JobRegistry } from './registry';

/**
 * Runs due jobs from the job table (docs/design.md §14). Each batch: enqueue the periodic jobs of the
 * current period, claim up to `batchSize` due jobs in one statement (FOR UPDATE SKIP LOCKED, so
 * runners in any number of processes never take the same job), then run each in its own
 * transaction together with marking it done. A failure is recorded outside that transaction and
 * retried with exponential backoff and jitter (or exactly as RetryAfter says) until the job is dead.
 * A process that dies mid-job loses nothing: its lease runs out, the attempt its claim counted is
 * spent (failed with the same backoff, or dead after the last), and another runner takes it again.
 *
 * `runOnce(now)` is one batch on an injected clock (tests); `start()` polls every `pollIntervalMs`
 * and `stop()` waits for the batch under way. On the embedded database it runs in the server process.
 */

export interface JobRunnerOptions {
  db: Database;
  registry: JobRegistry;
  log?: Logger;
  /** The clock of `start()`'s batches. */
  clock?: () => Date;
  /** Jobs claimed per batch (10). */
  batchSize?: number;
  /** How long a claim holds a job before another runner may take it (300 s). */
  leaseSeconds?: number;
  /** Pause between batches of `start()` (5000 ms). */
  pollIntervalMs?: number;
  /** First retry delay (30 s), doubled with each attempt up to `maxBackoffSeconds` (3600 s). */
  backoffSeconds?: number;
  maxBackoffSeconds?: number;
  /** In [0, 1); the jitter adds up to a quarter of the delay. */
  random?: () => number;
}

export interface BatchResult {
  claimed: number;
  done: number;
  failed: number;
  dead: number;
  /** Claims another runner had taken over by the time this one ran them (lease ran out). */
  lost: number;
}

/** The delay before retrying after attempt `attempts` (1-based): base·2^(n-1), capped, plus up to 25 % jitter. */
export function backoffMs(attempts: number, opts: { base: number; max: number; random: number }): number {
  const seconds = Math.min(opts.max, opts.base * 2 ** Math.max(0, attempts - 1));
  return Math.round(seconds * 1000 * (1 + 0.25 * opts.random));
}

export class JobRunner {
  readonly #o: Required<Omit<JobRunnerOptions, 'log'>> & { log?: Logger };
  #timer: NodeJS.Timeout | undefined;
  #batch: Promise<unknown> | undefined;
  #stopped = true;

  constructor(options: JobRunnerOptions) {
    this.#o = {
      clock: () => new Date(),
      batchSize: 10,
      leaseSeconds: 300,
      pollIntervalMs: 5000,
      backoffSeconds: 30,
      maxBackoffSeconds: 3600,
      random: Math.random,
      ...options,
    };
  }

  /** One batch at `now`: periodic enqueues, claim, run. */
  async runOnce(now: Date = this.#o.clock()): Promise<BatchResult> {
    const { db, registry } = this.#o;
    const kinds = registry.kinds();
    for (const p of registry.periodic()) await enqueuePeriodic(db, { kind: p.kind, everySeconds: p.everySeconds, now, maxAttempts: p.maxAttempts });
    const result: BatchResult = { claimed: 0, done: 0, failed: 0, dead: 0, lost: 0 };
    // A lease that ran out is a process that died mid-job: that claim's attempt is spent.
    const expired = await failExpiredLeases(db, { now, kinds, backoffSeconds: this.#o.backoffSeconds, maxBackoffSeconds: this.#o.maxBackoffSeconds });
    result.failed += expired.failed;
    result.dead += expired.dead;
    const leaseUntil = new Date(now.getTime() + this.#o.leaseSeconds * 1000);
    const claimed = await claimDueJobs(db, { now, limit: this.#o.batchSize, leaseUntil, kinds });
    result.claimed = claimed.length;
    for (const job of claimed) {
      const outcome = await this.#run(job, now);
      result[outcome] += 1;
    }
    return result;
  }

  async #run(job: JobRow, now: Date): Promise<'done' | 'failed' | 'dead' | 'lost'> {
    const { db, registry, log } = this.#o;
    const definition = registry.get(job.kind);
    try {
      if (!definition) throw new Error(`no handler for job kind ${job.kind}`);
      const finish = (tx: Database, again: void | { runAgainAt: Date }) =>
        again ? rescheduleJob(tx, { id: job.id, attempts: job.attempts, runAt: again.runAgainAt }) : markJobDone(tx, { id: job.id, attempts: job.attempts, now });
      const ran = definition.ownTransactions
        ? // The handler commits its own steps (a request to an outside system between them); its claim
          // (the lease) keeps other runners off meanwhile, and the mark comes after.
          await finish(db, await definition.handler({ db, now, job }))
        : await db.transaction(async (tx) => {
            // Mark first: the row lock is held until commit, so nobody takes the job while it runs.
            if (!(await markJobDone(tx, { id: job.id, attempts: job.attempts, now }))) return false;
            if (await definition.handler({ db: tx, now, job })) throw new Error(`job kind ${job.kind}: runAgainAt needs ownTransactions`);
            return true;
          });
      return ran ? 'done' : 'lost';
    } catch (error) {
      const message = describeJobError(error);
      const backoff = () => backoffMs(job.attempts, { base: this.#o.backoffSeconds, max: this.#o.maxBackoffSeconds, random: this.#o.random() });
      const delayMs = !(error instanceof RetryAfter) ? backoff() : error.options.orBackoff ? Math.max(error.seconds * 1000, backoff()) : error.seconds * 1000;
      const state = await markJobFailed(db, { id: job.id, attempts: job.attempts, now, retryAt: new Date(now.getTime() + delayMs), error: message });
      if (!state) return 'lost';
      const fields = { jobId: job.id, kind: job.kind, attempts: job.attempts, maxAttempts: job.maxAttempts, error: message };
      if (state === 'dead') log?.error(fields, 'job failed its last attempt and is dead');
      else log?.warn({ ...fields, retryInMs: delayMs }, 'job failed; will retry');
      return state;
    }
  }

  /** Polls every `pollIntervalMs` until `stop()`; a failing batch (database away) is logged and retried. */
  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    const tick = async () => {
      if (this.#stopped) return;
      this.#batch = this.runOnce().catch((err) => this.#o.log?.warn({ error: describeJobError(err) }, 'job batch failed; will retry'));
      const result = await this.#batch;
      this.#batch = undefined;
      if (this.#stopped) return;
      // A full batch suggests more are due: go again at once.
      const full = typeof result === 'object' && result !== null && (result as BatchResult).claimed >= this.#o.batchSize;
      this.#timer = setTimeout(() => void tick(), full ? 0 : this.#o.pollIntervalMs);
      this.#timer.unref();
    };
    void tick();
  }

  /**
   * Stops polling and waits for the batch under way (its jobs finish or fail as usual), at most
   * `timeoutMs`: a job still running then is taken again by another process when its lease runs out.
   */
  async stop(opts: { timeoutMs?: number } = {}): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!this.#batch) return;
    const timeoutMs = opts.timeoutMs ?? 30_000;
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        this.#o.log?.warn({ timeoutMs }, 'stopped waiting for the job batch; its lease will hand it on');
        resolve();
      }, timeoutMs);
      timer.unref();
    });
    await Promise.race([this.#batch, limit]);
    clearTimeout(timer);
  }
}
