import { deleteExpiredIdempotencyKeysOfAllOrganizations } from '../db/queries/idempotency';
import { deleteUnboundFilesOfAllOrganizations } from '../db/queries/files';
import { deleteFinishedJobs } from '../db/queries/jobs';
import { deleteStaleLoginFailures } from '../db/queries/login-failures';
import { deleteEventsOfAllOrganizations } from '../db/queries/events';
import { deleteDeliveriesOfAllOrganizations } from '../db/queries/webhooks';
import type { LoginFailureKind } from '../db/queries/login-failures';
import { enqueue } from './queue';
import type { JobContext, JobHandler } from './registry';

/**
 * The purge jobs: they delete only rows that can never change an answer again, so running one
 * early, twice or in two processes at once changes nothing a caller sees. System-wide (no
 * organization). Each deletes in batches inside its job's transaction, at most MAX_BATCHES a run.
 */

const BATCH = 5000;
/** Batches one run deletes at most, so its transaction stays short; a continuation takes the rest. */
const MAX_BATCHES = 20;

/**
 * Deletes batch after batch; when the cap is reached with rows left, enqueues a continuation of the
 * same kind in the job's transaction (one pending at a time), which the next batch of the runner takes.
 */
async function inBatches(ctx: JobContext, step: () => Promise<number>): Promise<number> {
  let total = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const n = await step();
    total += n;
    if (n < BATCH) return total;
  }
  await enqueue(ctx.db, { kind: ctx.job.kind, now: ctx.now, dedupeKey: `${ctx.job.kind}:continuation` });
  return total;
}

/**
 * Idempotency keys whose 24 hours are over (docs/design.md §7): lookups already ignore them (the key
 * is new again, and storing it anew replaces the row), so deleting them only keeps the table small.
 */
export const purgeIdempotencyKeys: JobHandler = async (ctx) => {
  await inBatches(ctx, () => deleteExpiredIdempotencyKeysOfAllOrganizations(ctx.db, { now: ctx.now, batchSize: BATCH }));
};

/**
 * Failed-login counters that behave like a missing row: their window ended. `windows` are the
 * configured windows the login service counts with, by kind (loginWindows(config)).
 */
export function purgeLoginFailures(windows: Record<LoginFailureKind, number>): JobHandler {
  return async (ctx) => {
    await inBatches(ctx, () => deleteStaleLoginFailures(ctx.db, { now: ctx.now, windows, batchSize: BATCH }));
  };
}

/** Jobs done more than `retentionDays` ago (dead jobs stay, for an operator to read). */
export function purgeFinishedJobs(retentionDays: number): JobHandler {
  return async (ctx) => {
    const before = new Date(ctx.now.getTime() - retentionDays * 86_400_000);
    await inBatches(ctx, () => deleteFinishedJobs(ctx.db, { before, batchSize: BATCH }));
  };
}

/** How long an uploaded file may wait to be bound to a record before it is collected. */
export const UNBOUND_FILE_HOURS = 24;

/**
 * Uploaded files never bound to a record (an invoice, a claim line, a settlement) within a day of
 * their upload: nobody but their uploader could ever read them, and they take the organization's
 * storage quota.
 */
export const purgeUnboundFiles: JobHandler = async (ctx) => {
  const before = new Date(ctx.now.getTime() - UNBOUND_FILE_HOURS * 3600_000);
  await inBatches(ctx, () => deleteUnboundFilesOfAllOrganizations(ctx.db, { before, batchSize: UNBOUND_FILE_BATCH }));
};

/** Files are large: fewer a batch. */
const UNBOUND_FILE_BATCH = 500;

/**
 * Events and webhook deliveries (their attempts with them) older than their retention: no list
 * answers them any more. A delivery still pending is left to finish.
 */
export function purgeEvents(retentionDays: number): JobHandler {
  return async (ctx) => {
    const before = new Date(ctx.now.getTime() - retentionDays * 86_400_000);
    await inBatches(ctx, () => deleteDeliveriesOfAllOrganizations(ctx.db, { before, batchSize: BATCH }));
    await inBatches(ctx, () => deleteEventsOfAllOrganizations(ctx.db, { before, batchSize: BATCH }));
  };
}
