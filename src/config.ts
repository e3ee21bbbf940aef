import { z } from 'zod';
import { derivedDevelopmentKey, parseKey } from './lib/secret-box';

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./.data'),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Secret that signs list cursors; derived per process when unset (cursors then die with it). */
  CURSOR_SECRET: z.string().min(16).optional(),
  PUBLIC_BASE_URL: z.string().url().optional(),
  /** Largest file POST /v1/documents accepts, in bytes (10 MiB by default). */
  DOCUMENT_MAX_BYTES: z.coerce.number().int().min(1).max(1024 * 1024 * 1024).default(10 * 1024 * 1024),
  /** Seed the demo on an empty database; unset: on the embedded one only (a production PostgreSQL never gets demo credentials by accident). */
  SEED_DEMO: z.enum(['true', 'false']).optional(),
  /** Requests per API key per window (RATE_LIMIT_WINDOW_SECONDS). */
  RATE_LIMIT_PER_KEY: z.coerce.number().int().min(1).default(600),
  /** Requests per organization per window, across all its API keys. */
  RATE_LIMIT_PER_ORGANIZATION: z.coerce.number().int().min(1).default(1800),
  /** Window of the per-key and per-organization limits, in seconds. */
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  /** Failed key authentications allowed per source address per RATE_LIMIT_AUTH_FAILURE_WINDOW_SECONDS. */
  RATE_LIMIT_AUTH_FAILURES: z.coerce.number().int().min(1).default(20),
  RATE_LIMIT_AUTH_FAILURE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  /**
   * Redis holding the rate-limit counters (e.g. redis://127.0.0.1:6379): every process using it
   * enforces one limit. Unset: the counters are in PostgreSQL (in memory on the embedded database).
   */
  REDIS_URL: z.string().url().optional(),
  /** Prefix of the rate-limit keys in Redis (`<prefix>:key:<id>`, `<prefix>:org:<id>`, `<prefix>:authfail:<address>`). */
  RATE_LIMIT_REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,100}$/, 'letters, digits, ".", "_", ":" and "-" only (1 to 100)')
    .default('finance'),
  /** Failed logins (auth.login) allowed per source address per LOGIN_FAILURE_WINDOW_SECONDS; the next attempt is 429. */
  LOGIN_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).default(20),
  LOGIN_FAILURE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  /** Consecutive failed logins of one account before it is locked; each further failure doubles the lock from 1 s. */
  LOGIN_ACCOUNT_FREE_FAILURES: z.coerce.number().int().min(1).max(100).default(5),
  /** The longest an account is locked after failed logins, in seconds. */
  LOGIN_ACCOUNT_MAX_LOCK_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  /** How long a person's session lives after its last use (sliding), in hours. */
  SESSION_HOURS: z.coerce.number().int().min(1).max(720).default(12),
  /** Trust X-Forwarded-For from a proxy in front of the service (the source address of rate limits). */
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  /** How often expired idempotency keys are purged, in seconds (0 turns the job off). */
  IDEMPOTENCY_PURGE_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(900),
  /** How often failed-login counters that no longer count are purged, in seconds (0 turns the job off). */
  LOGIN_FAILURE_PURGE_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(3600),
  /** How often the escalation job looks for unsigned claim sign-offs past the working-day limit (0: never). */
  ESCALATION_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(600),
  /** How often the MyInvois sweep re-enqueues e-invoice work any organization has due, in seconds (0: never). */
  MYINVOIS_SWEEP_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(60),
  /** Run the MyInvois simulator inside the server (auto: with the embedded database only). */
  MYINVOIS_SIMULATOR: z.enum(['auto', 'on', 'off']).default('auto'),
  /** Its port (another free one when taken). */
  MYINVOIS_SIMULATOR_PORT: z.coerce.number().int().min(0).max(65535).default(8765),
  /** Time limit of one request to MyInvois, in milliseconds. */
  MYINVOIS_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(30_000),
  /** How often this process looks for due background jobs, in milliseconds (0: this process runs no jobs). */
  JOB_POLL_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).default(5000),
  /** Jobs one process claims at a time. */
  JOB_BATCH_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  /** How long a claimed job is held before another process may take it again (its process may have died), in seconds. */
  JOB_LEASE_SECONDS: z.coerce.number().int().min(10).max(86_400).default(300),
  /** Days a finished job is kept (dead jobs are kept until an operator deletes them). */
  JOB_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(7),
  /** After SIGTERM, how long the in-flight requests and jobs may take to finish before the process exits anyway (exit code 1), in milliseconds. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /**
   * After SIGTERM, how long the process keeps serving with /readyz answering 503 before it stops
   * accepting connections, in milliseconds: time for a load balancer to notice (0: close at once).
   */
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(0),
  /** When set, GET /metrics needs `Authorization: Bearer <token>`; unset, /metrics is open (keep it on an internal network). */
  METRICS_TOKEN: z.string().min(16).optional(),
  /**
   * AES-256 key (64 hex digits or base64 of 32 bytes) encrypting payout channel fields at rest.
   * Required with DATABASE_URL (start-up fails without it). Only the embedded database may do
   * without: a development key derived from DATA_DIR is used then.
   */
  PAYOUT_ENCRYPTION_KEY: z
    .string()
    .refine((v) => parseKey(v) !== undefined, 'must be 32 bytes written as 64 hex digits or base64')
    .optional(),
});

export type Config = z.infer<typeof schema>;

/** Every variable the service reads (.env.example lists each with its default). */
export const CONFIG_VARIABLES = Object.keys(schema.shape) as (keyof Config)[];

const MISSING_PAYOUT_KEY =
  'is required when DATABASE_URL is set: payout account numbers are encrypted under it ' +
  '(generate one with `openssl rand -hex 32`); only the embedded database may use the derived development key';

/** A PostgreSQL deployment is a real one: its payout fields are never encrypted under a key anyone can derive. */
const withRules = schema.superRefine((c, ctx) => {
  if (c.DATABASE_URL && !c.PAYOUT_ENCRYPTION_KEY) {
    ctx.addIssue({ code: 'custom', path: ['PAYOUT_ENCRYPTION_KEY'], message: MISSING_PAYOUT_KEY });
  }
});

/** Parses the environment once; a bad value stops start-up with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = withRules.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

/**
 * The key payout channel fields are encrypted under (see PAYOUT_ENCRYPTION_KEY): the configured one,
 * or on the embedded database only, a development key derived from DATA_DIR.
 */
export function payoutEncryptionKey(config: Pick<Config, 'PAYOUT_ENCRYPTION_KEY' | 'DATA_DIR' | 'DATABASE_URL'>): Buffer {
  if (config.PAYOUT_ENCRYPTION_KEY) {
    const key = parseKey(config.PAYOUT_ENCRYPTION_KEY);
    if (key) return key;
    throw new Error('PAYOUT_ENCRYPTION_KEY: must be 32 bytes written as 64 hex digits or base64');
  }
  if (config.DATABASE_URL) throw new Error(`PAYOUT_ENCRYPTION_KEY ${MISSING_PAYOUT_KEY}`);
  return derivedDevelopmentKey(config.DATA_DIR);
}
