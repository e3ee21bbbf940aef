import { isIP } from 'node:net';
import { z } from 'zod';
import { parseNetworkList } from './integrations/outbound/networks';
import { derivedDevelopmentKey, parseKey } from './lib/secret-box';

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./.data'),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * What DATABASE_URL points at: `none` (the default), PostgreSQL itself; `pgbouncer-transaction`, a
   * PgBouncer in transaction pooling mode (or another pooler that hands a server connection to a
   * client for one transaction at a time). Behind such a pooler every statement goes unnamed (a named
   * prepared statement would be looked for on whichever server connection the next transaction gets)
   * and the migrations run over DATABASE_DIRECT_URL (their lock is held by a session).
   */
  DATABASE_POOLER: z.enum(['none', 'pgbouncer-transaction']).default('none'),
  /**
   * PostgreSQL itself, not through the pooler (postgres://...:5432/db): only the migrations at
   * start-up use it, one connection for as long as they run. Required with
   * DATABASE_POOLER=pgbouncer-transaction; unset otherwise, the migrations use DATABASE_URL.
   */
  DATABASE_DIRECT_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * What an answer goes through on its way out (routers/output-answer.ts): `fields` (the default)
   * keeps exactly the fields of the procedure's output schema; `full` parses it with zod as well;
   * `strict` (the tests' mode) does both and fails unless they agree. Read from the environment
   * by the router when it loads; checked here so that a wrong value stops the start.
   */
  OUTPUT_VALIDATION: z.enum(['fields', 'full', 'strict']).optional(),
  /** Secret that signs list cursors; derived per process when unset (cursors then die with it). */
  CURSOR_SECRET: z.string().min(16).optional(),
  /** The address people reach the service at (links in e-mail, the console's own origin); unset: http://localhost:<PORT>. */
  PUBLIC_BASE_URL: z.string().url().optional(),
  /** Where e-mail goes (smtp://user:pass@host:587, smtps://...); unset on the embedded database: .eml files under DATA_DIR/mail. */
  SMTP_URL: z.string().url().optional(),
  /** The From of every message. */
  MAIL_FROM: z.string().min(3).default('Finance <no-reply@localhost>'),
  /** Password reset requests per e-mail address (known or not) per PASSWORD_RESET_WINDOW_SECONDS; the next is 429. */
  PASSWORD_RESETS_PER_ACCOUNT: z.coerce.number().int().min(1).default(3),
  /** Password reset requests per source address per PASSWORD_RESET_WINDOW_SECONDS; the next is 429. */
  PASSWORD_RESETS_PER_ADDRESS: z.coerce.number().int().min(1).default(20),
  PASSWORD_RESET_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3600),
  /** The built console (index.html and assets/) served at `/`; unset: dist/web under the project folder. Absent folder: no console. */
  WEB_DIST_DIR: z.string().min(1).optional(),
  /** Largest file POST /v1/documents accepts, in bytes (10 MiB by default). */
  DOCUMENT_MAX_BYTES: z.coerce.number().int().min(1).max(1024 * 1024 * 1024).default(10 * 1024 * 1024),
  /** Seed the demo on an empty database; unset: on the embedded one only (a production PostgreSQL never gets demo credentials by accident). */
  SEED_DEMO: z.enum(['true', 'false']).optional(),
  /** Requests per API key per window (RATE_LIMIT_WINDOW_SECONDS). */
  RATE_LIMIT_PER_KEY: z.coerce.number().int().min(1).default(600),
  /** PDFs one member may have rendered per minute (GET …/pdf), whatever credential they use; the next is 429. */
  RATE_LIMIT_PDF_RENDERS_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /** Files one member may upload per minute (POST /v1/documents); the next is 429. */
  RATE_LIMIT_UPLOADS_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /** Storage of uploaded files per organization, in bytes (5 GiB by default); an upload past it is 413 storage_quota_exceeded. */
  DOCUMENT_STORAGE_QUOTA_BYTES: z.coerce.number().int().min(1).default(5 * 1024 * 1024 * 1024),
  /** Requests of one member's sessions (a person) per window (RATE_LIMIT_WINDOW_SECONDS). */
  RATE_LIMIT_PER_MEMBER: z.coerce.number().int().min(1).default(600),
  /** Requests per organization per window, across all its API keys and sessions. */
  RATE_LIMIT_PER_ORGANIZATION: z.coerce.number().int().min(1).default(1800),
  /** Window of the per-key and per-organization limits, in seconds. */
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  /** Failed authentications (keys, sessions, malformed credentials) allowed per source address per RATE_LIMIT_AUTH_FAILURE_WINDOW_SECONDS. */
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
  /** Failed logins of one account (e-mail) from one source address per LOGIN_ACCOUNT_ADDRESS_WINDOW_SECONDS; the next from that address is 429. */
  LOGIN_FAILURES_PER_ACCOUNT_ADDRESS: z.coerce.number().int().min(1).default(5),
  LOGIN_ACCOUNT_ADDRESS_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  /** Failed logins of one account from anywhere per LOGIN_ACCOUNT_WINDOW_SECONDS before it is locked everywhere until the window ends. */
  LOGIN_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(100),
  LOGIN_ACCOUNT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3600),
  /** How long a person's session lives after its last use (sliding), in hours. */
  SESSION_HOURS: z.coerce.number().int().min(1).max(720).default(12),
  /**
   * Browser origins allowed to call the API (CORS), comma-separated, e.g.
   * `https://app.example.com,https://admin.example.com`. Unset or empty: CORS is off and no
   * Access-Control-* header is ever sent.
   */
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((o) => o.trim()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/, 'each origin is scheme://host[:port], without a path or "*"'))),
  /**
   * The proxies in front of the service, whose X-Forwarded-For entries name the client (the source
   * address of the per-address limits): a comma-separated list of addresses and CIDR ranges (or
   * proxy-addr's `loopback`, `linklocal`, `uniquelocal`), or a hop count. Unset, `false` or `0`:
   * the socket's address, X-Forwarded-For ignored. Parsed into fastify's `trustProxy` option
   * (trustProxyOption); `true` is refused.
   */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v, ctx): TrustProxyOption => {
      const parsed = parseTrustProxy(v);
      if (typeof parsed === 'string') {
        ctx.addIssue({ code: 'custom', message: parsed });
        return z.NEVER;
      }
      return trustProxyOption(parsed);
    }),
  /** How often expired idempotency keys are purged, in seconds (0 turns the job off). */
  IDEMPOTENCY_PURGE_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(900),
  /** How often failed-login counters that no longer count are purged, in seconds (0 turns the job off). */
  LOGIN_FAILURE_PURGE_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(3600),
  /** How often uploaded files never bound to a record within a day are deleted, in seconds (0 turns the job off). */
  UNBOUND_FILE_PURGE_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(3600),
  /** How often the escalation job looks for unsigned claim sign-offs past the working-day limit (0: never). */
  ESCALATION_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(600),
  /** How often the MyInvois sweep re-enqueues e-invoice work any organization has due, in seconds (0: never). */
  MYINVOIS_SWEEP_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(60),
  /** Run the MyInvois simulator inside the server (auto: with the embedded database only). */
  MYINVOIS_SIMULATOR: z.enum(['auto', 'on', 'off']).default('auto'),
  /** Its port (another free one when taken). */
  MYINVOIS_SIMULATOR_PORT: z.coerce.number().int().min(0).max(65535).default(8765),
  /**
   * Internal networks outbound requests to tenant-configured addresses (the MyInvois base URL) may
   * reach, comma-separated CIDRs (`10.20.0.0/16,fd00:1::/64`); unset: none (loopback, private,
   * link-local, CGNAT, multicast and the other internal ranges are refused).
   */
  OUTBOUND_ALLOWED_NETWORKS: z
    .string()
    .default('')
    .transform((v, ctx) => {
      const { networks, wrong } = parseNetworkList(v);
      if (wrong.length > 0) {
        ctx.addIssue({ code: 'custom', message: `not an IPv4 or IPv6 network in CIDR form (e.g. 10.20.0.0/16): ${wrong.map((e) => JSON.stringify(e)).join(', ')}` });
        return z.NEVER;
      }
      return networks;
    }),
  /**
   * The operator's MyInvois intermediary system (registered in the MyInvois portal): organizations that
   * appointed the operator as their intermediary in MyTax log in with it on behalf of their own TIN
   * (e-invoicing settings `login: intermediary`). Both or neither.
   */
  MYINVOIS_INTERMEDIARY_CLIENT_ID: z.string().trim().min(1).optional(),
  MYINVOIS_INTERMEDIARY_CLIENT_SECRET: z.string().min(1).optional(),
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

/** Who may write the X-Forwarded-For entries the client address is taken from. */
export type TrustProxy = { kind: 'none' } | { kind: 'hops'; hops: number } | { kind: 'proxies'; proxies: string[] };

/** fastify's `trustProxy` option as TRUST_PROXY sets it. */
export type TrustProxyOption = false | string[] | ((address: string, hop: number) => boolean);

const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address, a CIDR range (`10.0.0.0/8`, `fd00::/8`) or a name of proxy-addr's ranges. */
function isProxyEntry(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** TRUST_PROXY's value, or the message that refuses it. */
function parseTrustProxy(value: string | undefined): TrustProxy | string {
  const v = value?.trim() ?? '';
  if (v === '' || v === 'false') return { kind: 'none' };
  if (v === 'true') {
    return (
      '`true` is not accepted: it trusts every X-Forwarded-For entry, including the first one, which the client writes ' +
      '(so a client could pick the address its failed authentications count against). Name the proxies in front of the ' +
      'service (addresses or CIDR ranges, comma-separated, e.g. `10.0.0.0/8,127.0.0.1`) or give their number (a hop count, e.g. `1`)'
    );
  }
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    if (hops > 32) return 'a hop count is 0 to 32';
    return hops === 0 ? { kind: 'none' } : { kind: 'hops', hops };
  }
  const proxies = v.split(',').map((e) => e.trim());
  const wrong = proxies.filter((e) => !isProxyEntry(e));
  if (wrong.length > 0) {
    return `not an address, CIDR range, hop count or one of loopback, linklocal, uniquelocal: ${wrong.map((e) => JSON.stringify(e)).join(', ')}`;
  }
  return { kind: 'proxies', proxies };
}

/**
 * fastify's `trustProxy` for TRUST_PROXY: the request's `ip` is then the right-most X-Forwarded-For
 * entry not written by a trusted proxy. A list trusts the socket's peer and each entry from the right
 * only while it is one of the proxies; a hop count trusts exactly that many hops (the socket's peer
 * and the entries the proxies appended), whatever they are. fastify's own number option trusts
 * nothing (it cannot tell a proxy from a client), hence the function.
 */
export function trustProxyOption(t: TrustProxy): TrustProxyOption {
  switch (t.kind) {
    case 'none':
      return false;
    case 'proxies':
      return t.proxies;
    case 'hops':
      return (_address, hop) => hop < t.hops;
  }
}

/** Every variable the service reads (.env.example lists each with its default). */
export const CONFIG_VARIABLES = Object.keys(schema.shape) as (keyof Config)[];

const MISSING_PAYOUT_KEY =
  'is required when DATABASE_URL is set: payout account numbers are encrypted under it ' +
  '(generate one with `openssl rand -hex 32`); only the embedded database may use the derived development key';

const MISSING_DIRECT_URL =
  'is required with DATABASE_POOLER=pgbouncer-transaction: the migrations at start-up hold a session-level advisory lock ' +
  '(so that processes starting together take turns), which a transaction pooler cannot keep; give the PostgreSQL server ' +
  'itself (e.g. postgres://user@db-host:5432/finance), not the pooler';

/** A PostgreSQL deployment is a real one: its payout fields are never encrypted under a key anyone can derive. */
const withRules = schema.superRefine((c, ctx) => {
  if (c.DATABASE_URL && !c.PAYOUT_ENCRYPTION_KEY) {
    ctx.addIssue({ code: 'custom', path: ['PAYOUT_ENCRYPTION_KEY'], message: MISSING_PAYOUT_KEY });
  }
  if (c.DATABASE_POOLER !== 'none' && !c.DATABASE_URL) {
    ctx.addIssue({ code: 'custom', path: ['DATABASE_POOLER'], message: `${c.DATABASE_POOLER} describes DATABASE_URL, which is unset (the embedded database has no pooler)` });
  }
  if (c.DATABASE_POOLER === 'pgbouncer-transaction' && c.DATABASE_URL && !c.DATABASE_DIRECT_URL) {
    ctx.addIssue({ code: 'custom', path: ['DATABASE_DIRECT_URL'], message: MISSING_DIRECT_URL });
  }
  if (Boolean(c.MYINVOIS_INTERMEDIARY_CLIENT_ID) !== Boolean(c.MYINVOIS_INTERMEDIARY_CLIENT_SECRET)) {
    const missing = c.MYINVOIS_INTERMEDIARY_CLIENT_ID ? 'MYINVOIS_INTERMEDIARY_CLIENT_SECRET' : 'MYINVOIS_INTERMEDIARY_CLIENT_ID';
    ctx.addIssue({ code: 'custom', path: [missing], message: 'the intermediary client id and secret are set together (both or neither)' });
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
