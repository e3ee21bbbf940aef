import type { Logger } from 'pino';
import type { Config } from './config';
import type { Database } from './db/client';

/** Everything a request needs from the running process; built once by main.ts or a test. */
export interface AppDeps {
  db: Database;
  dbKind: 'pglite' | 'postgres';
  config: Config;
  log: Logger;
  /** The clock; injected so tests can move time. */
  now: () => Date;
}
