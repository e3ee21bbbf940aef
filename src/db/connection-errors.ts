/**
 * What an operator reads when the server database cannot be reached: where (host, port, database;
 * never the password) and why (connection refused, unknown host, database does not exist,
 * authentication failed, ...), instead of the first query that happened to fail. Never SQL.
 */

/** The database could not be reached or entered; `message` names the place and the cause. */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
  constructor(
    message: string,
    /** A short stable word for the cause (refused, unknown_host, timeout, unknown_database, authentication, ...). */
    readonly reason: string,
  ) {
    super(message);
  }
}

/** `host:port/database` of a postgres:// URL, without user or password. */
export function databasePlace(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname || 'localhost'}:${u.port || '5432'}/${decodeURIComponent(u.pathname.replace(/^\//, '')) || '(default database)'}`;
  } catch {
    return 'the configured DATABASE_URL';
  }
}

const CAUSES: Record<string, [reason: string, text: string]> = {
  ECONNREFUSED: ['refused', 'connection refused (is PostgreSQL running and listening on that host and port?)'],
  ENOTFOUND: ['unknown_host', 'unknown host (the name does not resolve)'],
  EAI_AGAIN: ['unknown_host', 'the host name could not be resolved right now'],
  EHOSTUNREACH: ['unreachable', 'host unreachable'],
  ENETUNREACH: ['unreachable', 'network unreachable'],
  ETIMEDOUT: ['timeout', 'connection timed out'],
  CONNECT_TIMEOUT: ['timeout', 'connection timed out'],
  ECONNRESET: ['reset', 'the connection was reset (TLS or protocol mismatch?)'],
  '3D000': ['unknown_database', 'the database does not exist (create it first, e.g. `createdb <name>`)'],
  '28P01': ['authentication', 'authentication failed (wrong user name or password)'],
  '28000': ['authentication', 'authentication failed (the role does not exist or may not connect)'],
  '53300': ['too_many_connections', 'too many connections'],
  '57P03': ['starting', 'the database system is starting up or shutting down'],
};

/** Turns a driver error met while connecting into a DatabaseUnavailableError naming its cause. */
export function describeConnectionError(err: unknown, url: string): DatabaseUnavailableError {
  const e = (err ?? {}) as { code?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  const known = CAUSES[code];
  // A PostgreSQL message (`database "x" does not exist`) says it best; a socket message repeats the address.
  const original = typeof e.message === 'string' && /^[A-Z0-9]{5}$/.test(code) ? `: ${e.message}` : '';
  const text = known ? `${known[1]}${original}` : typeof e.message === 'string' && e.message ? e.message : 'unknown error';
  return new DatabaseUnavailableError(`Cannot connect to the database at ${databasePlace(url)}: ${text}`, known?.[0] ?? (code || 'unknown'));
}

/**
 * The line printed when start-up fails: a configuration or connection message as it is; a failed
 * statement (a migration) by the database's own words only, never the statement or its parameters.
 */
export function startupFailureMessage(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  if (err instanceof DatabaseUnavailableError || !('query' in err)) return err.message;
  const cause = (err as { cause?: unknown }).cause;
  const why = cause instanceof Error && !('query' in cause) ? cause.message : 'see the database log';
  return `A start-up statement failed on the database (migrations): ${why}`;
}
