import { deleteFinishedJobs } from '../db/queries/jobs';
import { deleteStaleLoginFailures } from '../db/queries/login-failures';
import { ACCOUNT_RUN_RESET_SECONDS } from '../services/access/login';
import { purgeExpiredIdempotencyKeys } from '../services/idempotency/idempotency';
import type { JobHandler } from './registry';

/**
 * The purge jobs: they delete only rows that can never change an answer again, so running one
 * early, twice or in two processes at once changes nothing a caller sees. System-wide (no
 * organization). Each deletes in batches inside its job's transaction.
 */

const BATCH = 5000;

async function inBatches(step: () => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await step();
    total += n;
    if (n < BATCH) return total;
  }
}

/**
 * Idempotency keys whose 24 hours are over (DESIGN section 7): lookups already ignore them (the key
 * is new again, and storing it anew replaces the row), so deleting them only keeps the table small.
 */
export const purgeIdempotencyKeys: JobHandler = async ({ db, now }) => {
  await purgeExpiredIdempotencyKeys(db, now, BATCH);
};

/**
 * Failed-login counters that behave like a missing row (an address window that ended; an account
 * run forgotten a day after its last failure, with no lock in force). `windowSeconds` is the
 * configured LOGIN_FAILURE_WINDOW_SECONDS, the window the login service counts with.
 */
export function purgeLoginFailures(windowSeconds: number): JobHandler {
  return async ({ db, now }) => {
    await inBatches(() =>
      deleteStaleLoginFailures(db, { now, addressWindowSeconds: windowSeconds, accountResetSeconds: ACCOUNT_RUN_RESET_SECONDS, batchSize: BATCH }),
    );
  };
}

/** Jobs done more than `retentionDays` ago (dead jobs stay, for an operator to read). */
export function purgeFinishedJobs(retentionDays: number): JobHandler {
  return async ({ db, now }) => {
    const before = new Date(now.getTime() - retentionDays * 86_400_000);
    await inBatches(() => deleteFinishedJobs(db, { before, batchSize: BATCH }));
  };
}
