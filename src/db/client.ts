import type { PGlite } from '@electric-sql/pglite';
import { Column, DrizzleQueryError, fillPlaceholders, getTableName, is, Placeholder, SQL, sql, Subquery } from 'drizzle-orm';
import { NoopCache } from 'drizzle-orm/cache/core';
import type { PgDatabase, PgQueryResultHKT, PgTable } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import { chmodSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import postgres from 'postgres';
import { describeConnectionError } from './connection-errors';
import { guardedPostgres } from './postgres-guard';
import { acquireEmbeddedLock } from './embedded-lock';
import * as schema from './schema';
import { projectPath } from '../lib/project-root';
import type { Config } from '../config';

export type Schema = typeof schema;
/** One type for the embedded and the server database, and for a transaction of either. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export const MIGRATIONS_FOLDER = projectPath('drizzle');

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Applies the committed migrations. */
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** The embedded database's whole data folder, to start another instance from (`loadDataDir`). */
  dump?(): Promise<Blob>;
}

export interface OpenDatabaseOptions {
  /** postgres:// URL; when absent, the embedded database is used. */
  url?: string;
  /** Folder of the embedded database; `memory://` for an in-memory one. */
  dataDir?: string;
  /** A dump (PGlite `dumpDataDir`) to start the embedded database from, e.g. an already migrated template. */
  loadDataDir?: Blob;
  poolSize?: number;
  /**
   * What `url` points at (DATABASE_POOLER): PostgreSQL itself (`none`, the default) or a pooler in
   * transaction mode, behind which every statement goes unnamed (see unnamedClients).
   */
  pooler?: DatabasePooler;
  /** PostgreSQL itself when `url` is a pooler (DATABASE_DIRECT_URL): the migrations' session runs on it. */
  directUrl?: string;
  /** application_name of the server connections (default APPLICATION_NAME). */
  applicationName?: string;
  /**
   * Called with every statement the server driver sends (postgres.js `debug`), for benchmarks that
   * count round trips. Off by default (no hook installed); not supported on the embedded database.
   */
  onQuery?: (query: string, parameters: unknown[]) => void;
}

/**
 * Which statement texts are sent as named prepared statements. postgres.js keeps one prepared
 * statement per connection and text for the connection's life, with no eviction; a text that varies
 * with the data (an `in` list or a multi-row insert of a new length) would grow that cache, and the
 * heap, without bound. The queries avoid such texts (array parameters, inserts in a few chunk sizes),
 * and this bounds what remains: the first PREPARED_TEXTS_MAX texts of at most PREPARED_TEXT_CHARS
 * characters are prepared, anything beyond goes as an unnamed statement (parsed and planned each
 * time, kept nowhere). The named hot-path statements (`.prepare(name)`, executePrepared) are always
 * prepared and counted in, except behind a transaction pooler, where nothing is (unnamedClients).
 */
export const PREPARED_TEXTS_MAX = 1000;
export const PREPARED_TEXT_CHARS = 20_000;
const preparedTexts = new Set<string>();
let preparedChars = 0;

/** Whether `text` is (or may become) a named prepared statement; `always` for the hot path's own. */
export function preparesText(text: string, always = false): boolean {
  if (preparedTexts.has(text)) return true;
  if (!always && (preparedTexts.size >= PREPARED_TEXTS_MAX || text.length > PREPARED_TEXT_CHARS)) return false;
  preparedTexts.add(text);
  preparedChars += text.length;
  return true;
}

/** How many distinct texts this process prepares, and their length in characters. */
export function preparedTextStats(): { texts: number; chars: number } {
  return { texts: preparedTexts.size, chars: preparedChars };
}

/** DATABASE_POOLER: what a server database URL points at. */
export type DatabasePooler = 'none' | 'pgbouncer-transaction';

/**
 * The clients (pools and their transactions) whose statements all go unnamed: those behind a
 * transaction pooler. A named prepared statement lives in one server session; PgBouncer 1.18 in
 * transaction mode hands the next transaction whichever server connection is free, where the name is
 * unknown (or names another text), so none is ever created there. The hot path's named statements
 * (executePrepared) are sent unnamed too: parsed and planned each time, as every statement is for a
 * client of a transaction pooler.
 */
const unnamedClients = new WeakSet<object>();

/**
 * The client with every query a named prepared statement (within preparesText's bound), in
 * transactions too. drizzle asks postgres.js for unnamed statements unless a query is given a name,
 * so PostgreSQL would parse and plan each one every time; postgres.js keeps one prepared statement
 * per connection and query text (re-preparing after a schema change on its own), and PostgreSQL
 * chooses between custom and generic plans per statement as usual (plan_cache_mode).
 * `unnamed`: the reverse, every statement unnamed whatever the caller asks (behind a transaction pooler).
 */
function preparing(client: postgres.Sql, unnamed = false): postgres.Sql {
  type Unsafe = postgres.Sql['unsafe'];
  const proxy = new Proxy(client, {
    get(target, prop, receiver) {
      if (prop === 'unsafe') {
        return ((query: string, parameters?: unknown[], options?: object) =>
          target.unsafe(query, parameters as never, { ...options, prepare: !unnamed && preparesText(query) })) as Unsafe;
      }
      if (prop === 'begin' || prop === 'savepoint') {
        const original = Reflect.get(target, prop, receiver) as (...args: unknown[]) => unknown;
        return (...args: unknown[]) => {
          const run = args.pop() as (tx: postgres.Sql) => unknown;
          return original.call(target, ...args, (tx: postgres.Sql) => run(preparing(tx, unnamed)));
        };
      }
      return Reflect.get(target, prop, receiver);
    },
  });
  if (unnamed) unnamedClients.add(proxy);
  return proxy;
}

/** Where the configuration says the database is (the embedded one in DATA_DIR, or DATABASE_URL and what it points at). */
export function databaseOptions(config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR' | 'DATABASE_POOLER' | 'DATABASE_DIRECT_URL'>): OpenDatabaseOptions {
  return { url: config.DATABASE_URL, dataDir: config.DATA_DIR, pooler: config.DATABASE_POOLER, directUrl: config.DATABASE_DIRECT_URL };
}

/** The name the service's connections carry (pg_stat_activity.application_name). */
export const APPLICATION_NAME = 'finance-api';

/** Key of the session-level advisory lock migrations run under (two replicas starting at once). */
const MIGRATION_LOCK_KEY = 7_150_250_001;

/** Seconds before reconnecting after `retries` lost connections in a row: 50 ms doubling, at most 1 s. */
export function reconnectDelaySeconds(retries: number): number {
  return Math.min(0.05 * 2 ** retries, 1);
}

/**
 * Opens the embedded database (DATA_DIR) or, with `url`, a postgres.js pool; a server database that
 * cannot be reached throws DatabaseUnavailableError naming where and why.
 */
export async function openDatabase(opts: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (opts.url) {
    const pooled = (opts.pooler ?? 'none') !== 'none';
    const client = guardedPostgres(opts.url, {
      max: opts.poolSize ?? 10,
      // postgres.js waits before reconnecting a closed connection 3^n / 100 s (n counting the
      // pool's lost connections since one last connected, up to 20 s, shared by every connection): after a burst of
      // connections cut, every slot of the pool sat out 10 to 20 s and the requests queued behind
      // them went unanswered. A short, bounded wait instead (50 ms doubling to 1 s), and a
      // connection attempt given 10 s rather than 30.
      backoff: reconnectDelaySeconds,
      connect_timeout: 10,
      // Behind a transaction pooler no statement is ever named (unnamedClients), drizzle's own and
      // the driver's included.
      ...(pooled ? { prepare: false } : {}),
      onnotice: () => {},
      connection: { application_name: opts.applicationName ?? APPLICATION_NAME },
      ...(opts.onQuery ? { debug: (_connection: number, query: string, parameters: unknown[]) => opts.onQuery!(query, parameters) } : {}),
      // numeric, date and timestamptz stay strings/Dates as drizzle expects.
    });
    // One round trip before anything else: a database that cannot be reached is reported with its
    // cause (refused, unknown database, authentication) rather than as the first migration query.
    try {
      await client`select 1`;
    } catch (err) {
      await client.end({ timeout: 1 }).catch(() => {});
      throw describeConnectionError(err, opts.url);
    }
    const db = drizzlePostgres(preparing(client, pooled), { schema }) as unknown as Database;
    return {
      db,
      kind: 'postgres',
      // Migrations through the plain client: a migration's step may hold several commands, which a
      // prepared statement cannot.
      migrate: async () => migrateUnderLock(migrationsUrl(opts), opts.applicationName ?? APPLICATION_NAME),
      close: () => client.end({ timeout: 5 }),
    };
  }
  const onDisk = Boolean(opts.dataDir) && !opts.dataDir!.startsWith('memory://');
  const release = onDisk ? acquireEmbeddedLock(opts.dataDir!) : () => {};
  try {
    // Loaded only for the embedded database: a process on PostgreSQL never holds PGlite (about 35 MB).
    const [{ PGlite }, { pg_trgm }] = await Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite/contrib/pg_trgm')]);
    const client = await PGlite.create({ dataDir: opts.dataDir, loadDataDir: opts.loadDataDir, extensions: { pg_trgm } });
    if (onDisk) ownerOnly(opts.dataDir!);
    const handle = await pgliteHandle(client);
    return {
      ...handle,
      migrate: async () => {
        await handle.migrate();
        if (onDisk) ownerOnly(opts.dataDir!);
      },
      close: async () => {
        await handle.close();
        if (onDisk) ownerOnly(opts.dataDir!);
        release();
      },
    };
  } catch (e) {
    release();
    throw e;
  }
}

/**
 * Where the migrations run: PostgreSQL itself. Behind a transaction pooler that is `directUrl`: their
 * session-level lock and the session's statements would otherwise be spread over whichever server
 * connections the pooler hands out, and the lock outlive its transaction on one of them.
 */
function migrationsUrl(opts: OpenDatabaseOptions): string {
  if ((opts.pooler ?? 'none') === 'none') return opts.directUrl ?? opts.url!;
  if (!opts.directUrl) throw new Error(`DATABASE_DIRECT_URL is required with DATABASE_POOLER=${opts.pooler}: the migrations need a session of their own on PostgreSQL itself`);
  return opts.directUrl;
}

/**
 * The migrations on a dedicated connection holding a session-level advisory lock: replicas starting
 * at once on a fresh database take turns (the second finds the migrations applied), instead of racing
 * on `create extension` and the migrations table. The lock goes with the connection, which is why
 * it is one to PostgreSQL itself, never through a transaction pooler (migrationsUrl).
 */
async function migrateUnderLock(url: string, applicationName: string): Promise<void> {
  // One connection (max 1), so the lock and every migration statement share a session.
  const client = postgres(url, { max: 1, onnotice: () => {}, connection: { application_name: `${applicationName} migrations` } });
  try {
    await client`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    await migratePostgres(drizzlePostgres(client, { schema }) as never, { migrationsFolder: MIGRATIONS_FOLDER });
    await client`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
  } finally {
    await client.end({ timeout: 5 });
  }
}

/**
 * The embedded database's folder owner-only: directories 0700, files 0600 (as `demo.json`). PGlite's
 * file system layer writes every file 0666 whatever the umask, so the modes are set after it opened
 * the folder, after migrations and when it closes; a file PostgreSQL creates in between sits inside
 * the 0700 folder, which no other user can enter.
 */
export function ownerOnly(dir: string): void {
  chmodSync(dir, 0o700);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) ownerOnly(path);
    else if (entry.isFile()) chmodSync(path, 0o600);
  }
}

async function pgliteHandle(client: PGlite): Promise<DatabaseHandle> {
  const [{ drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([import('drizzle-orm/pglite'), import('drizzle-orm/pglite/migrator')]);
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(db as never, { migrationsFolder: MIGRATIONS_FOLDER }),
    close: () => client.close(),
    dump: () => client.dumpDataDir('none'),
  };
}

/**
 * Runs raw SQL and returns its rows on both drivers (PGlite answers `{rows}`, postgres.js an array).
 */
export async function queryRows<T = Record<string, unknown>>(db: Database, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown;
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

export { sql };

/**
 * A raw statement written once with `sql.placeholder(name)` for its values, and run with them:
 * drizzle turns the template into text once instead of on every call (what
 * queryRows costs for a statement with many values, on a hot path). Rows as queryRows answers them.
 */
export function preparedSql<T = Record<string, unknown>>(build: () => SQL): (db: Database, values: Record<string, unknown>) => Promise<T[]> {
  return preparedBuilder<T>(() => ({ getSQL: build }), { sharePlaceholders: true });
}

type QueryText = { sql: string; params: unknown[]; typings?: unknown[] };

/**
 * The query with a placeholder written more than once sent as ONE parameter (`$n` of its first
 * place wherever it is named): drizzle numbers every place anew, so a statement naming its instant
 * six times sent it six times, each serialized here and parsed by PostgreSQL. For raw statements
 * whose every use of a name has one type (each is cast where it is used). Left as drizzle wrote it
 * when the text holds `$n` anywhere but in the parameters' places, or a parameter carries a type hint.
 */
export function sharingPlaceholders(query: QueryText): QueryText {
  if (query.typings?.some((t) => t !== 'none')) return query;
  const first = new Map<string, number>();
  const params: unknown[] = [];
  const place = query.params.map((p) => {
    const name = is(p, Placeholder) ? p.name : undefined;
    const known = name === undefined ? undefined : first.get(name);
    if (known !== undefined) return known;
    params.push(p);
    if (name !== undefined) first.set(name, params.length);
    return params.length;
  });
  if (params.length === query.params.length) return query;
  let places = 0;
  const text = query.sql.replace(/\$(\d+)\b/g, (_, n: string) => {
    places++;
    return `$${place[Number(n) - 1]}`;
  });
  return places === query.params.length ? { ...query, sql: text, params, ...(query.typings ? { typings: params.map(() => 'none') } : {}) } : query;
}

/**
 * `build(db)` once per database handle, kept as long as the handle (a pool lives as long as the
 * process): prepared queries built once, values read once. On postgres.js a database and its
 * transactions share one (executePrepared sends the query on the caller's own session, so a
 * transaction's statement runs on its reserved connection); on the embedded database, whose
 * transaction holds its one connection, a transaction builds its own.
 */
export function oncePerHandle<T>(build: (db: Database) => T): (db: Database) => T {
  const built = new WeakMap<object, T>();
  return (db) => {
    const { session, dialect } = db as unknown as DialectAndSession;
    const key = runsOnPostgresJs(session) ? dialect : db;
    if (!built.has(key)) built.set(key, build(db));
    return built.get(key) as T;
  };
}

/** A query turned into text once: the text with its placeholders, and the fields its rows map to (a builder's `returning`). */
interface BuiltQuery {
  query: unknown;
  fields: unknown;
}

interface DialectAndSession {
  dialect: { sqlToQuery(q: SQL): unknown };
  session: { prepareQuery(q: unknown, fields: unknown, name: undefined, arrayMode: boolean): { execute(values: Record<string, unknown>): Promise<unknown> } };
}

/** The text and fields of a builder (`getSQL`, and `config.returning` when it maps rows). */
function buildQuery(db: Database, builder: { getSQL(): SQL; config?: { returning?: unknown } }): BuiltQuery {
  return { query: (db as unknown as DialectAndSession).dialect.sqlToQuery(builder.getSQL()), fields: builder.config?.returning };
}

/** What drizzle's postgres.js session and prepared query hold (drizzle-orm 0.45, postgres-js/session.js). */
interface PostgresJsRunner {
  client: { unsafe(query: string, params: unknown[], options: { prepare: boolean }): PromiseLike<unknown[]> & { values(): PromiseLike<unknown[][]> } };
  logger: { logQuery(query: string, params: unknown[]): void };
  cache?: unknown;
}

/** runsOnPostgresJs's answer per session or prepared query (neither changes its client, logger or cache). */
const postgresJsRunners = new WeakMap<object, boolean>();

/**
 * A postgres.js session or prepared query without a result cache: one whose query drizzle sends
 * straight to the driver. Worked out once per object (drizzle's `is` walks the prototype chain).
 */
function runsOnPostgresJs(x: object): x is PostgresJsRunner {
  let known = postgresJsRunners.get(x);
  if (known === undefined) {
    const r = x as Partial<PostgresJsRunner>;
    known = typeof r.client?.unsafe === 'function' && typeof r.logger?.logQuery === 'function' && (r.cache === undefined || is(r.cache, NoopCache));
    postgresJsRunners.set(x, known);
  }
  return known;
}

const fillers = new WeakMap<unknown[], (values: Record<string, unknown>) => unknown[]>();

/**
 * drizzle's fillPlaceholders for one parameter template, worked out once: a template of placeholders
 * only (every hot statement's) is its names, read from the values in order; anything else (a
 * constant, an encoded placeholder) goes through drizzle's own.
 */
function fillerOf(template: unknown[]): (values: Record<string, unknown>) => unknown[] {
  let fill = fillers.get(template);
  if (fill) return fill;
  if (template.every((p) => is(p, Placeholder))) {
    const names = template.map((p) => (p as Placeholder).name);
    fill = (values) => {
      const params = new Array<unknown>(names.length);
      for (let i = 0; i < names.length; i++) {
        const name = names[i]!;
        if (!(name in values)) throw new Error(`No value for placeholder "${name}" was provided`);
        params[i] = values[name];
      }
      return params;
    };
  } else fill = (values) => fillPlaceholders(template, values);
  fillers.set(template, fill);
  return fill;
}

/**
 * A statement sent as drizzle's postgres.js session sends it when no result cache is set (its
 * placeholders filled, the query logged, a driver error wrapped in DrizzleQueryError), without the
 * promises around it (three tracing spans, the cache check: a tenth of a keyed read's own work).
 */
function sendOnPostgresJs<R>(
  runner: PostgresJsRunner,
  text: string,
  template: unknown[],
  values: Record<string, unknown>,
  arrays: boolean,
  map: (rows: unknown[]) => R,
  named = false,
): Promise<R> {
  let params: unknown[];
  try {
    params = fillerOf(template)(values);
  } catch (e) {
    // A missing value fails the promise, as everywhere else (callers need not catch twice).
    return Promise.reject(e);
  }
  runner.logger.logQuery(text, params);
  const query = runner.client.unsafe(text, params, { prepare: !unnamedClients.has(runner.client) && preparesText(text, named) });
  // The driver's query is a promise (its `then` sends it): mapped on it directly, without a promise around it.
  return (arrays ? query.values() : query).then(map, (e: unknown) => {
    throw new DrizzleQueryError(text, params, e as Error);
  }) as Promise<R>;
}

/**
 * `prepared.execute(values)` for a query prepared with a compiled row mapping (withCompiledRowMapping),
 * run on `db` (the pool or a transaction): on postgres.js sent on `db`'s session as drizzle sends it
 * (sendOnPostgresJs), its rows mapped by the compiled mapper, whichever handle prepared it; anywhere
 * else (the embedded database), drizzle's own execute on the handle that prepared it (oncePerHandle:
 * `db` itself).
 */
export function executePrepared<T>(db: Database, prepared: { execute(values?: Record<string, unknown>): Promise<T> }, values: Record<string, unknown>): Promise<T> {
  const q = prepared as unknown as { queryString: string; params: unknown[]; customResultMapper?: (rows: unknown[][]) => T };
  const { session } = db as unknown as DialectAndSession;
  if (!runsOnPostgresJs(session) || typeof q.queryString !== 'string' || !q.customResultMapper) return prepared.execute(values);
  return sendOnPostgresJs(session, q.queryString, q.params, values, true, q.customResultMapper as (rows: unknown[]) => T, true);
}

/**
 * A select written once with `sql.placeholder(name)` for its values, prepared as `name` (unique in
 * the process), its rows mapped by a mapper compiled for its columns, built once per database handle
 * and run with the values (executePrepared): a hot read's text and mapping are not rebuilt per call.
 *   const grantsOf = preparedSelect('engine_grants', (db) => db.select().from(t).where(eq(t.organizationId, sql.placeholder('organizationId'))));
 *   const rows = await grantsOf(db, { organizationId });
 */
export function preparedSelect<R>(
  name: string,
  build: (db: Database) => { prepare(name: string): { execute(values?: Record<string, unknown>): Promise<R> } },
): (db: Database, values: Record<string, unknown>) => Promise<R> {
  const prepared = oncePerHandle((db) => withCompiledRowMapping(build(db).prepare(name)));
  return (db, values) => executePrepared(db, prepared(db), values);
}

/** Runs a built query on `db` (the pool or a transaction) with its placeholders' values; rows as queryRows answers them. */
function runBuilt<T>(db: Database, built: BuiltQuery, values: Record<string, unknown>): Promise<T[]> {
  const { session } = db as unknown as DialectAndSession;
  // Rows as objects (no `returning` mapping): straight to the driver, as drizzle would send it (its promise, no hop of its own).
  if (built.fields === undefined && runsOnPostgresJs(session)) {
    const { sql: text, params } = built.query as { sql: string; params: unknown[] };
    return sendOnPostgresJs(session, text, params, values, false, (rows) => rows as T[]);
  }
  return runBuiltOnSession<T>(session, built, values);
}

async function runBuiltOnSession<T>(session: DialectAndSession['session'], built: BuiltQuery, values: Record<string, unknown>): Promise<T[]> {
  const result = await session.prepareQuery(built.query, built.fields, undefined, built.fields !== undefined).execute(values);
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/** How a column's value takes part in a cached insert: left to its default, null, or a value. */
type CellShape = 'd' | 'n' | 'v';

/**
 * `insert into table values (...), ... returning *`, with drizzle's text built once per shape of
 * the rows (how many, and which columns are left to their default, null or given) and reused with
 * the values as placeholders: an insert of a document's lines otherwise costs drizzle a walk of
 * every value on every call. The values go through each column's own encoder (a jsonb as JSON, a
 * timestamp as text) as drizzle's builder sends them, and the rows come back mapped the same way.
 * A row holding a SQL expression is built afresh (its text may carry values of its own).
 */
export function cachedInsertReturning<TTable extends PgTable>(table: TTable) {
  const shapes = new Map<string, BuiltQuery>();
  const insertChunk = async (db: Database, rows: readonly TTable['$inferInsert'][]): Promise<TTable['$inferSelect'][]> => {
    const shapeOf = (row: Record<string, unknown>) =>
      Object.keys(row)
        .sort()
        .map((k): `${string}:${CellShape}` => `${k}:${row[k] === undefined ? 'd' : row[k] === null ? 'n' : 'v'}`)
        .join(',');
    // A chunk's rows share one shape (insertChunks): the key is that shape and the row count.
    const key = `${rows.length}|${shapeOf(rows[0] as Record<string, unknown>)}`;
    let built = shapes.get(key);
    if (!built) {
      const template = rows.map((row, i) =>
        Object.fromEntries(
          Object.entries(row as Record<string, unknown>)
            .filter(([, v]) => v !== undefined)
            .map(([k, v]) => [k, v === null ? null : sql.placeholder(`${i}.${k}`)]),
        ),
      );
      built = buildQuery(db, db.insert(table).values(template as never).returning() as never);
      if (shapes.size < 500) shapes.set(key, built);
    }
    const values: Record<string, unknown> = {};
    rows.forEach((row, i) => {
      for (const [k, v] of Object.entries(row as Record<string, unknown>)) if (v !== undefined && v !== null) values[`${i}.${k}`] = v;
    });
    return runBuilt<TTable['$inferSelect']>(db, built, values);
  };
  return async (db: Database, rows: readonly TTable['$inferInsert'][]): Promise<TTable['$inferSelect'][]> => {
    if (!rows.length) return [];
    const plain = rows.every((row) => Object.values(row as Record<string, unknown>).every((v) => !is(v, SQL) && !(typeof v === 'object' && v !== null && 'getSQL' in v)));
    if (!plain) return insertInChunks(rows, (chunk) => db.insert(table).values(chunk as never).returning()) as Promise<TTable['$inferSelect'][]>;
    return insertInChunks(rows, (chunk) => insertChunk(db, chunk));
  };
}

/**
 * A drizzle query builder written once with `sql.placeholder(name)` for its values (an upsert, an
 * insert with `returning`), its text built once per dialect and run with the values: as
 * preparedSql, but with the builder's own column encoders for the values and its `returning`
 * mapping for the rows.
 */
export function preparedBuilder<T>(
  build: (db: Database) => { getSQL(): SQL },
  opts: { sharePlaceholders?: boolean } = {},
): (db: Database, values: Record<string, unknown>) => Promise<T[]> {
  // Per dialect (a transaction shares its database's).
  const built = new WeakMap<object, BuiltQuery>();
  return (db, values) => {
    const { dialect } = db as unknown as DialectAndSession;
    let entry = built.get(dialect);
    if (!entry) {
      entry = buildQuery(db, build(db));
      if (opts.sharePlaceholders) entry = { ...entry, query: sharingPlaceholders(entry.query as QueryText) };
      built.set(dialect, entry);
    }
    return runBuilt<T>(db, entry, values);
  };
}

interface SelectedField {
  path: string[];
  field: unknown;
}

interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

/** The decoder of an expression without `mapWith` (drizzle's noopDecoder). */
const untypedDecode = (sql`` as unknown as { decoder: Decoder }).decoder.mapFromDriverValue;

/**
 * A decoder that answers the driver's value as it is (a column that does not override drizzle's
 * mapFromDriverValue: a text, a uuid; an untyped expression): generated mappers do not call it.
 */
export const isIdentityDecoder = (d: Decoder) => d.mapFromDriverValue === Column.prototype.mapFromDriverValue || d.mapFromDriverValue === untypedDecode;

/**
 * The function that maps rows of `columns`: generated once, as straight-line code that reads each
 * value, decodes it (unless its decoder answers it as it is) and builds the row as one object literal
 * with the selection's nesting, so every row has the same shape. A joined table's object is null
 * when its first column is null and every column of that object comes from that table, unless the
 * join cannot miss (drizzle's mapResultRow rule).
 */
function compileRowMapper(columns: { path: string[]; decoder: Decoder; table: string | undefined }[], joins: Record<string, boolean> | undefined): (rows: unknown[][]) => unknown[] {
  type Tree = Map<string, Tree | number>;
  const tree: Tree = new Map();
  for (let i = 0; i < columns.length; i++) {
    const { path } = columns[i]!;
    let node = tree;
    for (let j = 0; j < path.length - 1; j++) {
      let next = node.get(path[j]!);
      if (!(next instanceof Map)) {
        next = new Map();
        node.set(path[j]!, next);
      }
      node = next;
    }
    node.set(path[path.length - 1]!, i);
  }
  // The objects a left join may leave empty: by their first table column, when all of theirs share its table.
  const nullable = new Map<string, { first: number; table: string }>();
  if (joins) {
    const seen = new Map<string, string | false>();
    columns.forEach((c, i) => {
      if (c.table === undefined) return;
      const object = c.path[0]!;
      if (!seen.has(object)) {
        seen.set(object, c.table);
        nullable.set(object, { first: i, table: c.table });
      } else if (seen.get(object) !== c.table) {
        seen.set(object, false);
        nullable.delete(object);
      }
    });
    for (const [object, { table }] of nullable) if (joins[table]) nullable.delete(object);
  }
  const literal = (node: Tree): string =>
    `{${[...node].map(([key, child]) => `${JSON.stringify(key)}: ${typeof child === 'number' ? `v${child}` : literal(child)}`).join(', ')}}`;
  const reads = columns
    .map((c, i) => (isIdentityDecoder(c.decoder) ? `const v${i} = row[${i}];` : `const v${i} = row[${i}] === null ? null : d[${i}].mapFromDriverValue(row[${i}]);`))
    .join('\n');
  const fields = [...tree]
    .map(([key, child]) => {
      const value = typeof child === 'number' ? `v${child}` : literal(child);
      const empty = nullable.get(key);
      return `${JSON.stringify(key)}: ${empty ? `v${empty.first} === null ? null : ${value}` : value}`;
    })
    .join(',\n');
  const body = `return function mapRows(rows) {\nconst out = new Array(rows.length);\nfor (let r = 0; r < rows.length; r++) {\nconst row = rows[r];\n${reads}\nout[r] = {\n${fields}\n};\n}\nreturn out;\n};`;
  return new Function('d', body)(columns.map((c) => c.decoder)) as (rows: unknown[][]) => unknown[];
}

/**
 * A prepared select's rows mapped by a function written once for its columns, instead of drizzle's
 * generic mapping, which per value tests what kind of field it is and walks the field's path with an
 * iterator (on a page of 26 documents of 50 columns, a tenth of the request). The result is the
 * same: each value through its column's (or expression's) decoder, placed at its path, and a joined
 * table's object null when the join found no row (drizzle's nullable-join rule).
 */
export function withCompiledRowMapping<P>(prepared: P): P {
  const q = prepared as unknown as { fields?: SelectedField[]; joinsNotNullableMap?: Record<string, boolean>; customResultMapper?: unknown };
  if (!q.fields || q.customResultMapper) return prepared;
  const columns = q.fields.map(({ path, field }) => {
    const isColumn = is(field, Column);
    type WithDecoder = { decoder: Decoder };
    const decoder = isColumn
      ? (field as Decoder)
      : is(field, SQL)
        ? (field as unknown as WithDecoder).decoder
        : is(field, Subquery)
          ? (field as unknown as { _: { sql: WithDecoder } })._.sql.decoder
          : (field as { sql: WithDecoder }).sql.decoder;
    return { path, decoder, table: isColumn && path.length === 2 ? getTableName((field as Column).table) : undefined };
  });
  q.customResultMapper = compileRowMapper(columns, q.joinsNotNullableMap);
  return prepared;
}

/**
 * `column = any($1::type[])`: a list of values as one array parameter, so the statement's text is
 * the same whatever the list's length (drizzle's inArray writes one placeholder per value, a new
 * text, and a new prepared statement per connection, for each length). An empty list matches nothing.
 */
export function anyOf(column: Column, values: readonly unknown[]): SQL {
  return sql`${column} = any(${sql.param([...values])}::${sql.raw(arrayType(column))})`;
}

/** anyOf with the list as the placeholder `name` (a prepared statement's value, preparedSelect). */
export function anyOfPlaceholder(column: Column, name: string): SQL {
  return sql`${column} = any(${sql.placeholder(name)}::${sql.raw(arrayType(column))})`;
}

/** `column <> all($1::type[])`: anyOf's negation (an empty list excludes nothing). */
export function noneOf(column: Column, values: readonly unknown[]): SQL {
  return sql`${column} <> all(${sql.param([...values])}::${sql.raw(arrayType(column))})`;
}

/** The column's SQL type as an array type (`uuid[]`, `text[]`, an enum's `"state"[]`). */
function arrayType(column: Column): string {
  const type = column.getSQLType();
  return /^[a-z_][a-z0-9_ ]*(\(\d+(,\s*\d+)?\))?$/.test(type) ? `${type}[]` : `"${type.replace(/"/g, '""')}"[]`;
}

/** The largest rows per multi-row insert; inserts go in chunks of a power of two up to it. */
export const INSERT_CHUNK_MAX = 64;
/** Rows up to this count are inserted in one chunk of exactly their count. */
export const INSERT_CHUNK_EXACT = 8;

/**
 * The rows of a multi-row insert cut into chunks, each of one shape (the same columns left to their
 * default, or null): up to INSERT_CHUNK_EXACT rows in one chunk of their own count (a document's few
 * lines in one statement), more in chunks of a power of two rows up to INSERT_CHUNK_MAX, largest
 * first, the rest again as one chunk when few enough. The insert's text is one of a handful per shape
 * (1 to 8, 16, 32, 64 rows) instead of one per row count, so neither postgres.js's per-connection
 * statements nor drizzle's work grows with the counts callers send. Answers the chunks as lists of
 * the rows' positions.
 */
export function insertChunks(rows: readonly object[]): number[][] {
  const byShape = new Map<string, number[]>();
  rows.forEach((row, i) => {
    const entries = Object.entries(row as Record<string, unknown>);
    const shape = entries
      .map(([k, v]) => `${k}:${v === undefined ? 'd' : v === null ? 'n' : 'v'}`)
      .sort()
      .join(',');
    let group = byShape.get(shape);
    if (!group) byShape.set(shape, (group = []));
    group.push(i);
  });
  const chunks: number[][] = [];
  for (const group of byShape.values()) {
    let at = 0;
    while (at < group.length) {
      const left = group.length - at;
      let size = INSERT_CHUNK_MAX;
      if (left <= INSERT_CHUNK_EXACT) size = left;
      else while (size > left) size /= 2;
      chunks.push(group.slice(at, at + size));
      at += size;
    }
  }
  return chunks;
}

/**
 * A multi-row insert in insertChunks's chunks: `write` inserts one chunk (with `returning`, its rows
 * in the chunk's order), and the rows come back in the order given.
 */
export async function insertInChunks<Row extends object, R>(rows: readonly Row[], write: (chunk: Row[]) => PromiseLike<R[] | unknown>): Promise<R[]> {
  const out: R[] = new Array(rows.length);
  let returned = true;
  for (const chunk of insertChunks(rows)) {
    const result = await write(chunk.map((i) => rows[i]!));
    if (Array.isArray(result) && result.length === chunk.length) chunk.forEach((i, k) => (out[i] = result[k] as R));
    else returned = false;
  }
  return returned ? out : [];
}
