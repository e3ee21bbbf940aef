import { payoutEncryptionKey, type Config } from '../config';
import { outboundOf } from '../services/einvoicing/build-client';
import type { MyinvoisDeps } from '../services/einvoicing/connection';
import { MYINVOIS_JOBS } from '../services/einvoicing/outbox';
import { CHECK_CLAIM_LINES_JOB } from '../services/einvoicing/claim-line-checks';
import { MYINVOIS_SWEEP, registerMyinvoisJobs } from './myinvois';
import { escalateDueSignoffs } from '../services/workflow/approvals/escalation';
import { loginWindows } from '../services/access/login';
import { purgeFinishedJobs, purgeIdempotencyKeys, purgeLoginFailures, purgeUnboundFiles } from './purges';
import { JobRegistry } from './registry';

/**
 * The jobs a server process runs: every kind with its handler, and the periodic ones with their
 * period. Add a job here with one `registry.register(kind, handler, { everySeconds })` call (see
 * registry.ts). A period of 0 in the configuration leaves that periodic job out.
 */

export const JOB_KINDS = {
  purgeIdempotencyKeys: 'purge-idempotency-keys',
  purgeLoginFailures: 'purge-login-failures',
  purgeUnboundFiles: 'purge-unbound-files',
  purgeFinishedJobs: 'purge-finished-jobs',
  escalateSignoffs: 'escalate-signoffs',
  myinvoisSubmit: MYINVOIS_JOBS.submit,
  myinvoisPoll: MYINVOIS_JOBS.poll,
  myinvoisCancel: MYINVOIS_JOBS.cancel,
  myinvoisRecover: MYINVOIS_JOBS.recover,
  myinvoisCheckClaimLines: CHECK_CLAIM_LINES_JOB,
  myinvoisSweep: MYINVOIS_SWEEP,
} as const;

type JobConfig = Pick<
  Config,
  | 'IDEMPOTENCY_PURGE_INTERVAL_SECONDS'
  | 'LOGIN_FAILURE_PURGE_INTERVAL_SECONDS'
  | 'LOGIN_FAILURE_WINDOW_SECONDS'
  | 'LOGIN_ACCOUNT_ADDRESS_WINDOW_SECONDS'
  | 'LOGIN_ACCOUNT_WINDOW_SECONDS'
  | 'UNBOUND_FILE_PURGE_INTERVAL_SECONDS'
  | 'JOB_RETENTION_DAYS'
  | 'ESCALATION_INTERVAL_SECONDS'
  | 'MYINVOIS_SWEEP_INTERVAL_SECONDS'
  | 'MYINVOIS_TIMEOUT_MS'
  | 'OUTBOUND_ALLOWED_NETWORKS'
  | 'PAYOUT_ENCRYPTION_KEY'
  | 'DATA_DIR'
  | 'DATABASE_URL'
>;

const every = (seconds: number) => (seconds > 0 ? { everySeconds: seconds } : {});

/** `myinvois`: test seams for the MyInvois jobs (an HTTP function that loses answers, a token cache). */
export function buildJobRegistry(config: JobConfig, seams: { myinvois?: Partial<Omit<MyinvoisDeps, 'key'>> } = {}): JobRegistry {
  const registry = new JobRegistry();
  registry.register(JOB_KINDS.purgeIdempotencyKeys, purgeIdempotencyKeys, every(config.IDEMPOTENCY_PURGE_INTERVAL_SECONDS));
  registry.register(JOB_KINDS.purgeLoginFailures, purgeLoginFailures(loginWindows(config)), every(config.LOGIN_FAILURE_PURGE_INTERVAL_SECONDS));
  registry.register(JOB_KINDS.purgeUnboundFiles, purgeUnboundFiles, every(config.UNBOUND_FILE_PURGE_INTERVAL_SECONDS));
  registry.register(JOB_KINDS.purgeFinishedJobs, purgeFinishedJobs(config.JOB_RETENTION_DAYS), every(86_400));
  // Unsigned claim sign-offs past the organization's working-day limit get their next hop.
  registry.register(JOB_KINDS.escalateSignoffs, async (ctx) => void (await escalateDueSignoffs(ctx.db, ctx.now)), every(config.ESCALATION_INTERVAL_SECONDS));
  registerMyinvoisJobs(registry, { key: payoutEncryptionKey(config), timeoutMs: config.MYINVOIS_TIMEOUT_MS, outbound: outboundOf({ config }), ...seams.myinvois }, { sweepSeconds: config.MYINVOIS_SWEEP_INTERVAL_SECONDS });
  return registry;
}
