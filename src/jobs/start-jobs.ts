import type { Logger } from 'pino';
import type { Config } from '../config';
import type { Database } from '../db/client';
import type { MailTransport } from '../integrations/mail';
import type { OutboundPolicy } from '../integrations/outbound/guard';
import { JobRunner } from './runner';
import { buildJobRegistry } from './standard-jobs';

/**
 * The server process's job runner (main.ts): the standard jobs, polled every JOB_POLL_INTERVAL_MS,
 * or no runner at all when that is 0 (a process that only answers requests). Tests build their own
 * JobRunner and call runOnce.
 */
export function startJobRunner(deps: { db: Database; config: Config; log: Logger; now: () => Date; outbound?: OutboundPolicy; mail?: MailTransport }): JobRunner | undefined {
  const { config } = deps;
  if (config.JOB_POLL_INTERVAL_MS === 0) return undefined;
  const runner = new JobRunner({
    db: deps.db,
    registry: buildJobRegistry(config, { ...(deps.outbound ? { myinvois: { outbound: deps.outbound }, webhooks: { outbound: deps.outbound } } : {}), ...(deps.mail ? { mail: deps.mail } : {}), log: deps.log }),
    log: deps.log.child({ component: 'jobs' }),
    clock: deps.now,
    batchSize: config.JOB_BATCH_SIZE,
    leaseSeconds: config.JOB_LEASE_SECONDS,
    pollIntervalMs: config.JOB_POLL_INTERVAL_MS,
  });
  runner.start();
  return runner;
}
