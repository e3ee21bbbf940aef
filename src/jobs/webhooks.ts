import { attemptDelivery, type WebhookDeps } from '../services/webhooks/deliver';
import { DELIVER_JOB } from '../services/webhooks/schedule';
import type { JobRegistry } from './registry';

/**
 * The webhook delivery job: one pending delivery's next attempt. It commits its own steps (the
 * attempt's record after the request), answers when to try again on the delivery's schedule, and
 * is claimed like every job (FOR UPDATE SKIP LOCKED, a lease), so no two processes make the same
 * attempt at once and a process that dies mid-request leaves it to be made again.
 */
export function registerWebhookJobs(registry: JobRegistry, deps: WebhookDeps): void {
  registry.register(
    DELIVER_JOB,
    async (ctx) => {
      const payload = ctx.job.payload as { delivery_id?: unknown };
      if (typeof payload.delivery_id !== 'string' || !ctx.job.organizationId) return;
      const next = await attemptDelivery(ctx.db, deps, { organizationId: ctx.job.organizationId, deliveryId: payload.delivery_id, now: ctx.now });
      return next.runAgainAt ? { runAgainAt: next.runAgainAt } : undefined;
    },
    { ownTransactions: true },
  );
}
