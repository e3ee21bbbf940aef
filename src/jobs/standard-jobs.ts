import type { Config } from '../config';
import { escalateDueSignoffs } from '../services/workflow/approvals/escalation';
import { purgeFinishedJobs, purgeIdempotencyKeys, purgeLoginFailures } from './purges';
import { JobRegistry } from './registry';

/**
 * The jobs a server process runs: every kind with its handler, and the periodic ones with their
 * period. Add a job here with one `registry.register(kind, handler, { everySeconds })` call (see
 * registry.ts). A period of 0 in the configuration leaves that periodic job out.
 */

export const JOB_KINDS = {
  purgeIdempotencyKeys: 'purge-idempotency-keys',
  purgeLoginFailures: 'purge-login-failures',
  purgeFinishedJobs: 'purge-finished-jobs',
  escalateSignoffs: 'escalate-signoffs',
} as const;

type JobConfig = Pick<
  Config,
  'IDEMPOTENCY_PURGE_INTERVAL_SECONDS' | 'LOGIN_FAILURE_PURGE_INTERVAL_SECONDS' | 'LOGIN_FAILURE_WINDOW_SECONDS' | 'JOB_RETENTION_DAYS' | 'ESCALATION_INTERVAL_SECONDS'
>;

const every = (seconds: number) => (seconds > 0 ? { everySeconds: seconds } : {});

export function buildJobRegistry(config: JobConfig): JobRegistry {
  const registry = new JobRegistry();
  registry.register(JOB_KINDS.purgeIdempotencyKeys, purgeIdempotencyKeys, every(config.IDEMPOTENCY_PURGE_INTERVAL_SECONDS));
  registry.register(JOB_KINDS.purgeLoginFailures, purgeLoginFailures(config.LOGIN_FAILURE_WINDOW_SECONDS), every(config.LOGIN_FAILURE_PURGE_INTERVAL_SECONDS));
  registry.register(JOB_KINDS.purgeFinishedJobs, purgeFinishedJobs(config.JOB_RETENTION_DAYS), every(86_400));
  // Unsigned claim sign-offs past the organization's working-day limit get their next hop.
  registry.register(JOB_KINDS.escalateSignoffs, async (ctx) => void (await escalateDueSignoffs(ctx.db, ctx.now)), every(config.ESCALATION_INTERVAL_SECONDS));
  return registry;
}
