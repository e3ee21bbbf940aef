import { availableParallelism } from 'node:os';

/**
 * The PostgreSQL passes run a file per worker at once, each worker on a database of its own: every
 * file used to share one database and one job table, so a second worker's job runner could take this
 * file's jobs (a MyInvois submission sent through the other file's simulator). The global set-up
 * migrates the test database once and copies it for each worker (`<name>_w<id>`, CREATE DATABASE ...
 * TEMPLATE); before each file the worker's copy replaces the database in the worker's environment
 * (worker-setup.ts), so everything that reads it (the test app, spawned servers and CLIs, the fuzz
 * suite's row checks) reads that copy. Through PgBouncer the copies are reached the same way (its
 * configuration takes any database name).
 */
/** Whether each worker has a database of its own: on PostgreSQL (the embedded database is per file anyway). */
export const perWorkerDatabases = Boolean(process.env.TEST_DATABASE_URL);

/**
 * Files run at once: a worker per core on the embedded database (its files are CPU-bound: PGlite and
 * the console's Chromium), one more on PostgreSQL, whose files wait on the server's processes, on
 * PgBouncer and on spawned servers (2 workers kept 1.4 of 2 cores busy in the CI run of 2026-12-07).
 */
export const TEST_WORKERS = perWorkerDatabases ? Math.max(3, availableParallelism() + 1) : Math.max(2, availableParallelism());

/** `url` with its database replaced by `name`. */
export function withDatabaseName(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** The database name of a URL. */
export function databaseName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1));
}

/** Worker `id`'s copy of the database `base`. */
export function workerDatabaseName(base: string, id: number): string {
  return `${base}_w${id}`;
}
