import type { Logger } from 'pino';
import type { Config } from './config';
import type { Database } from './db/client';
import type { OutboundPolicy } from './integrations/outbound/guard';
import type { RateLimits } from './services/rate-limit/limits';

/** Test-only fault injection: hooks a test sets to make a request fail at a chosen point. */
export interface FaultHooks {
  /**
   * Runs inside a write's transaction after the handler and the idempotency record, just before
   * commit; throwing from it fails the write as a crash would (the request answers 500, nothing stays).
   */
  beforeCommit?: (info: { path: string; db: Database }) => void | Promise<void>;
}

/** Everything a request needs from the running process; built once by main.ts or a test. */
export interface AppDeps {
  db: Database;
  dbKind: 'pglite' | 'postgres';
  config: Config;
  log: Logger;
  /** The clock; injected so tests can move time. */
  now: () => Date;
  /** Request limits per API key, per organization and per address (failed authentication). */
  rateLimits: RateLimits;
  /**
   * What outbound requests to tenant-configured addresses may reach: the operator's
   * OUTBOUND_ALLOWED_NETWORKS plus the origins the process runs itself (the in-process MyInvois
   * simulator). Unset: built from the configuration alone.
   */
  outbound?: OutboundPolicy;
  /** Never set in production. */
  faults?: FaultHooks;
}
