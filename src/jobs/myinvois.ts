import { organizationsWithEinvoiceWork } from '../db/queries/einvoices';
import { CHECK_CLAIM_LINES_JOB, checkClaimLinesDue, enqueueClaimLineChecks, organizationsWithLineChecksDue } from '../services/einvoicing/claim-line-checks';
import type { MyinvoisDeps } from '../services/einvoicing/connection';
import { enqueueMyinvois, MYINVOIS_JOBS } from '../services/einvoicing/outbox';
import { cancelDue, pollDue, recoverDue, submitDue } from '../services/einvoicing/submission';
import type { JobContext, JobRegistry } from './registry';

/**
 * The MyInvois jobs (docs/myinvois.md point 4): one pending job per organization and kind, enqueued by
 * the issuing and cancelling steps in their own transaction (services/einvoicing/outbox.ts) and by
 * each other (a submission enqueues its poll, and its recovery when a request's outcome is unknown). They commit their own steps (a row is marked
 * `sending` before the request leaves), so they run with `ownTransactions`. A sweep every
 * `sweepSeconds` enqueues the work any organization still has due, so nothing waits on a job that
 * died. The work itself is services/einvoicing/submission.ts.
 */

/** The periodic job that re-enqueues any organization's due e-invoice work. */
export const MYINVOIS_SWEEP = 'myinvois-sweep';

const organizationOf = (ctx: JobContext): string => {
  const id = ctx.job.organizationId ?? (ctx.job.payload as { organization_id?: string }).organization_id;
  if (!id) throw new Error('a MyInvois job names no organization');
  return id;
};

export function registerMyinvoisJobs(registry: JobRegistry, deps: MyinvoisDeps, options: { sweepSeconds: number }): void {
  registry.register(
    MYINVOIS_JOBS.submit,
    async (ctx) => {
      const { more } = await submitDue(ctx.db, organizationOf(ctx), ctx.now, deps);
      return more ? { runAgainAt: ctx.now } : undefined;
    },
    { ownTransactions: true },
  );
  // The poll keeps itself scheduled for the next document due (a verdict, or a rejection watch).
  registry.register(
    MYINVOIS_JOBS.poll,
    async (ctx) => {
      const { next } = await pollDue(ctx.db, organizationOf(ctx), ctx.now, deps);
      return next ? { runAgainAt: next } : undefined;
    },
    { ownTransactions: true },
  );
  // Looks up at LHDN the documents whose submission's outcome is unknown, a few searches a minute.
  registry.register(
    MYINVOIS_JOBS.recover,
    async (ctx) => {
      const { next } = await recoverDue(ctx.db, organizationOf(ctx), ctx.now, deps);
      return next ? { runAgainAt: next } : undefined;
    },
    { ownTransactions: true },
  );
  registry.register(
    CHECK_CLAIM_LINES_JOB,
    async (ctx) => {
      const { next } = await checkClaimLinesDue(ctx.db, organizationOf(ctx), ctx.now, deps);
      return next ? { runAgainAt: next } : undefined;
    },
    { ownTransactions: true },
  );
  registry.register(MYINVOIS_JOBS.cancel, async (ctx) => void (await cancelDue(ctx.db, organizationOf(ctx), ctx.now, deps)), { ownTransactions: true });
  if (options.sweepSeconds > 0) {
    registry.register(
      MYINVOIS_SWEEP,
      async (ctx) => {
        for (const work of await organizationsWithEinvoiceWork(ctx.db, ctx.now)) await enqueueMyinvois(ctx.db, work.kind, work.organizationId, ctx.now, ctx.now);
        for (const organizationId of await organizationsWithLineChecksDue(ctx.db, ctx.now)) {
          await enqueueClaimLineChecks(ctx.db, organizationId, ctx.now);
        }
      },
      { everySeconds: options.sweepSeconds },
    );
  }
}
