import { z } from 'zod';

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
  SEED_DEMO: z.enum(['true', 'false']).default('true'),
  /** Requests per API key per window (RATE_LIMIT_WINDOW_SECONDS). */
  RATE_LIMIT_PER_KEY: z.coerce.number().int().min(1).default(600),
  /** Requests per organization per window, across all its API keys. */
  RATE_LIMIT_PER_ORGANIZATION: z.coerce.number().int().min(1).default(1800),
  /** Window of the per-key and per-organization limits, in seconds. */
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  /** Failed key authentications allowed per source address per RATE_LIMIT_AUTH_FAILURE_WINDOW_SECONDS. */
  RATE_LIMIT_AUTH_FAILURES: z.coerce.number().int().min(1).default(20),
  RATE_LIMIT_AUTH_FAILURE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  /** Trust X-Forwarded-For from a proxy in front of the service (the source address of rate limits). */
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  /** How often expired idempotency keys are purged, in seconds (0 turns the job off). */
  IDEMPOTENCY_PURGE_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(900),
});

export type Config = z.infer<typeof schema>;

/** Parses the environment once; a bad value stops start-up with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
