import type { Logger } from 'pino';
import { payoutEncryptionKey, type Config } from '../config';
import { intermediaryOf, outboundOf } from '../services/einvoicing/build-client';
import type { MyinvoisDeps } from '../services/einvoicing/connection';
import { MYINVOIS_JOBS } from '../services/einvoicing/outbox';
import { CHECK_CLAIM_LINES_JOB } from '../services/einvoicing/claim-line-checks';
import { MYINVOIS_SWEEP, registerMyinvoisJobs } from './myinvois';
import { escalateDueSignoffs } from '../services/workflow/approvals/escalation';
import { refreshSignoffsOnPassingDates } from '../services/workflow/approvals/dated-refresh';
import { loginWindows } from '../services/access/login';
import { purgeEvents, purgeFinishedJobs, purgeIdempotencyKeys, purgeLoginFailures, purgeUnboundFiles } from './purges';
import { registerWebhookJobs } from './webhooks';
import type { WebhookDeps } from '../services/webhooks/deliver';
import { DELIVER_JOB, EVENT_RETENTION_DAYS } from '../services/webhooks/schedule';
import { JobRegistry } from './registry';
import { mailTransportOf, type MailTransport } from '../integrations/mail';
import { MAIL_JOB, PASSWORD_RESET_JOB } from '../services/mail/notify';
import { passwordResetJob, sendMailJob } from '../services/mail/send-mail';
import { REMINDER_JOB, sendDueReminders } from '../services/receivables/payment-reminders';

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
  purgeEvents: 'purge-events',
  webhookDeliver: DELIVER_JOB,
  escalateSignoffs: 'escalate-signoffs',
  refreshSignoffsOnDates: 'refresh-signoffs-on-dates',
  myinvoisSubmit: MYINVOIS_JOBS.submit,
  myinvoisPoll: MYINVOIS_JOBS.poll,
  myinvoisCancel: MYINVOIS_JOBS.cancel,
  myinvoisRecover: MYINVOIS_JOBS.recover,
  myinvoisCheckClaimLines: CHECK_CLAIM_LINES_JOB,
  myinvoisSweep: MYINVOIS_SWEEP,
  mailSend: MAIL_JOB,
  mailPasswordReset: PASSWORD_RESET_JOB,
  paymentReminders: REMINDER_JOB,
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
  | 'MYINVOIS_INTERMEDIARY_CLIENT_ID'
  | 'MYINVOIS_INTERMEDIARY_CLIENT_SECRET'
  | 'OUTBOUND_ALLOWED_NETWORKS'
  | 'PAYOUT_ENCRYPTION_KEY'
  | 'DATA_DIR'
  | 'DATABASE_URL'
  | 'SMTP_URL'
  | 'MAIL_FROM'
  | 'PUBLIC_BASE_URL'
  | 'PORT'
>;

/** The console's address as links in e-mail give it: PUBLIC_BASE_URL, else this server on localhost. */
export function publicBaseUrl(config: Pick<Config, 'PUBLIC_BASE_URL' | 'PORT'>): string {
  return (config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
}

const every = (seconds: number) => (seconds > 0 ? { everySeconds: seconds } : {});

/**
 * `myinvois`: test seams for the MyInvois jobs (an HTTP function that loses answers, a token cache);
 * `mail`: where e-mail goes (by default SMTP_URL, else .eml files on the embedded database).
 * `webhooks`: for the delivery job (its outbound policy, jitter, header clock).
 */
export function buildJobRegistry(
  config: JobConfig,
  seams: { myinvois?: Partial<Omit<MyinvoisDeps, 'key'>>; mail?: MailTransport; webhooks?: Partial<WebhookDeps>; log?: Logger } = {},
): JobRegistry {
  const registry = new JobRegistry();
  registry.register(JOB_KINDS.purgeIdempotencyKeys, purgeIdempotencyKeys, every(config.IDEMPOTENCY_PURGE_INTERVAL_SECONDS));
  registry.register(JOB_KINDS.purgeLoginFailures, purgeLoginFailures(loginWindows(config)), every(config.LOGIN_FAILURE_PURGE_INTERVAL_SECONDS));
  registry.register(JOB_KINDS.purgeUnboundFiles, purgeUnboundFiles, every(config.UNBOUND_FILE_PURGE_INTERVAL_SECONDS));
  registry.register(JOB_KINDS.purgeFinishedJobs, purgeFinishedJobs(config.JOB_RETENTION_DAYS), every(86_400));
  registry.register(JOB_KINDS.purgeEvents, purgeEvents(EVENT_RETENTION_DAYS), every(3_600));
  // Unsigned claim sign-offs past the organization's working-day limit get their next hop.
  registry.register(JOB_KINDS.escalateSignoffs, async (ctx) => void (await escalateDueSignoffs(ctx.db, ctx.now)), every(config.ESCALATION_INTERVAL_SECONDS));
  // Open sign-offs whose approver left with a dated end get the fallback in `eligible` (as set-up writes do), on the same period.
  registry.register(JOB_KINDS.refreshSignoffsOnDates, async (ctx) => void (await refreshSignoffsOnPassingDates(ctx.db, ctx.now)), every(config.ESCALATION_INTERVAL_SECONDS));
  const mail = { transport: seams.mail ?? mailTransportOf(config), from: config.MAIL_FROM, baseUrl: publicBaseUrl(config) };
  registry.register(JOB_KINDS.mailSend, (ctx) => sendMailJob(mail, ctx));
  registry.register(JOB_KINDS.mailPasswordReset, passwordResetJob);
  // Hourly, so each organization's day is reached in its own time zone; a reminder is claimed in its
  // own committed step before its e-mail, so the job commits its own steps.
  registry.register(JOB_KINDS.paymentReminders, async (ctx) => void (await sendDueReminders(ctx.db, mail, ctx.now)), { everySeconds: 3_600, ownTransactions: true });
  registerMyinvoisJobs(registry, { key: payoutEncryptionKey(config), timeoutMs: config.MYINVOIS_TIMEOUT_MS, outbound: outboundOf({ config }), intermediary: intermediaryOf(config), ...seams.myinvois }, { sweepSeconds: config.MYINVOIS_SWEEP_INTERVAL_SECONDS });
  registerWebhookJobs(registry, {
    key: payoutEncryptionKey(config),
    outbound: seams.myinvois?.outbound ?? outboundOf({ config }),
    // The managers of the endpoints are e-mailed by the delivery itself; the operator's log says it too.
    onDisabled: (endpoint) => seams.log?.warn({ organizationId: endpoint.organizationId, endpointId: endpoint.id }, 'webhook endpoint disabled after 5 days of failed deliveries'),
    ...seams.webhooks,
  });
  return registry;
}
