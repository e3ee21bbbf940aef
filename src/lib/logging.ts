/**
 * What the service's logs may carry (docs/design.md §10): never a secret, a token hash or an SQL
 * parameter. Database errors (drizzle's DrizzleQueryError, postgres.js's PostgresError, PGlite's
 * DatabaseError) carry the statement and its parameters (names, TINs, e-mails, token hashes) in
 * their message, `params`, `query`, `parameters` and `detail`; they are logged by what identifies
 * the fault (SQLSTATE code, constraint, table, column, the stack frames) and nothing of the values.
 * A request is logged by its route template and a query whose values are redacted (requestRoute):
 * search text, cursors and tRPC inputs travel in the URL and never reach the log.
 */
import type { LoggerOptions } from 'pino';

const CENSOR = '[redacted]';

/** Request headers that carry credentials or a client's secrets; also what a caller logs under `headers`. */
const SECRET_HEADERS = ['authorization', 'cookie', 'set-cookie', 'idempotency-key', 'x-api-key', 'proxy-authorization'];

/**
 * pino redact paths: credential headers wherever a request or its headers are logged, and the
 * values an error or a call may carry under well-known names (what the serializer below misses if
 * someone logs an object that is not an Error).
 */
export const REDACT_PATHS: string[] = [
  ...SECRET_HEADERS.flatMap((h) => [`req.headers["${h}"]`, `headers["${h}"]`, `res.headers["${h}"]`]),
  ...['password', 'token', 'apiKey', 'api_key', 'session_token', 'secret', 'params', 'parameters'].flatMap((k) => [k, `*.${k}`]),
];

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  stack?: unknown;
  code?: unknown;
  cause?: unknown;
  errors?: unknown;
  [key: string]: unknown;
}

function isErrorLike(value: unknown): value is ErrorLike {
  return value instanceof Error || (typeof value === 'object' && value !== null && 'message' in value && 'stack' in value);
}

/** An error raised by the database or its driver: it may carry the statement and its values. */
export function isDatabaseError(e: ErrorLike): boolean {
  if (e.name === 'DrizzleQueryError' || e.constructor?.name === 'DrizzleQueryError') return true;
  if (e.name === 'PostgresError' || e.name === 'DatabaseError' || e.constructor?.name === 'DatabaseError') return true;
  if ('query' in e || 'params' in e || 'parameters' in e) return true;
  // An SQLSTATE with a severity: what postgres.js and PGlite both report.
  return typeof e.severity === 'string' && typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code);
}

/** The stack's frames only: its first line repeats the message (drizzle's carries the SQL and its values). */
function framesOf(stack: unknown): string | undefined {
  if (typeof stack !== 'string') return undefined;
  const frames = stack.split('\n').filter((l) => /^\s+at /.test(l));
  return frames.length ? frames.join('\n') : undefined;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * The message of a database error without values: drizzle's "Failed query: <sql> params: <values>"
 * becomes "Failed query"; PostgreSQL's own message keeps its words and the names it quotes
 * (constraint, table, column) and loses any other quoted literal ("invalid input syntax for type
 * uuid: "<what was sent>"").
 */
function databaseMessage(e: ErrorLike, names: Set<string>): string {
  const message = typeof e.message === 'string' ? e.message : '';
  if (message.startsWith('Failed query')) return 'Failed query';
  return message.replace(/"((?:[^"\\]|\\.)*)"/g, (whole, inner: string) => (names.has(inner) ? whole : `"${CENSOR}"`));
}

const MAX_DEPTH = 5;

/** A message with the query of any URL it quotes redacted (fastify's own errors quote the request URL). */
function withoutQueries(message: string): string {
  return message.replace(/(\/[^\s?'"<>]*)\?[^\s'"<>]+/g, `$1?${CENSOR}`);
}

/** pino's `err` serializer: the standard shape (type, message, stack, code), database values left out, causes each on their own. */
export function serializeError(value: unknown, depth = 0): unknown {
  if (!isErrorLike(value)) return value;
  const e = value;
  const type = typeof e.constructor?.name === 'string' && e.constructor.name !== 'Object' ? e.constructor.name : String(e.name ?? 'Error');
  const cause = depth < MAX_DEPTH && e.cause !== undefined ? serializeError(e.cause, depth + 1) : undefined;
  if (isDatabaseError(e)) {
    const constraint = stringOf(e.constraint_name) ?? stringOf(e.constraint);
    const table = stringOf(e.table_name) ?? stringOf(e.table);
    const column = stringOf(e.column_name) ?? stringOf(e.column);
    const schema = stringOf(e.schema_name) ?? stringOf(e.schema);
    const names = new Set([constraint, table, column, schema].filter((n): n is string => Boolean(n)));
    return {
      type,
      message: databaseMessage(e, names),
      ...(typeof e.code === 'string' ? { code: e.code } : {}),
      ...(stringOf(e.severity) ? { severity: e.severity } : {}),
      ...(constraint ? { constraint } : {}),
      ...(table ? { table } : {}),
      ...(column ? { column } : {}),
      ...(stringOf(e.routine) ? { routine: e.routine } : {}),
      ...(framesOf(e.stack) ? { stack: framesOf(e.stack) } : {}),
      ...(cause !== undefined ? { cause } : {}),
    };
  }
  const out: Record<string, unknown> = { type, message: withoutQueries(typeof e.message === 'string' ? e.message : String(e.message)) };
  if (typeof e.stack === 'string') out.stack = withoutQueries(e.stack);
  for (const key of Object.keys(e)) {
    if (key === 'cause' || key === 'errors' || key in out) continue;
    const v = e[key];
    out[key] = isErrorLike(v) && depth < MAX_DEPTH ? serializeError(v, depth + 1) : v;
  }
  if (Array.isArray(e.errors) && depth < MAX_DEPTH) out.aggregateErrors = e.errors.map((x) => serializeError(x, depth + 1));
  if (cause !== undefined) out.cause = cause;
  return out;
}

interface RequestLike {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
  params?: unknown;
  routeOptions?: { url?: string; config?: { operationTemplate?: string } };
  operationTemplate?: string;
}

/**
 * Query parameters whose values are plain settings (a page size, a sort key, a flag), logged as they
 * are; every other value (search text `q`, a cursor, tRPC's `input`, ids, dates) is `[redacted]`.
 */
const PLAIN_QUERY = new Set(['limit', 'sort', 'order', 'kind', 'group', 'outstanding', 'format', 'type', 'scope', 'status', 'batch']);
/** The other parameter names the API reads, shown with their values redacted; a name it does not read is `[redacted]` too. */
const KNOWN_QUERY = new Set([...PLAIN_QUERY, 'q', 'cursor', 'input', 'as_of', 'from', 'to', 'since', 'subject_id', 'project_id', 'customer_id', 'invoice_date_from', 'invoice_date_to']);
const PLAIN_VALUE = /^[\w.-]{0,40}$/;
/** A tRPC procedure path (`receivables.customers.list`), or a batch of them. */
const PROCEDURE_PATH = /^[a-z][A-Za-z0-9]*(\.[a-z][A-Za-z0-9]*)+(,[a-z][A-Za-z0-9]*(\.[a-z][A-Za-z0-9]*)+)*$/;

/** A query string (without `?`) as a log line shows it: the API's parameter names, values of plain settings; the rest redacted. */
export function redactQuery(search: string): string {
  return search
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      const rawName = at < 0 ? pair : pair.slice(0, at);
      let name: string;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        name = '';
      }
      const shownName = KNOWN_QUERY.has(name) ? name : CENSOR;
      if (at < 0) return shownName;
      const value = pair.slice(at + 1);
      return `${shownName}=${PLAIN_QUERY.has(name) && PLAIN_VALUE.test(value) ? value : CENSOR}`;
    })
    .join('&');
}

/**
 * The route a request took, as its template (`/v1/receivables/invoices/{id}`, `/trpc/receivables.customers.list`),
 * never the path it was sent with (ids, names), and its query with values redacted (redactQuery).
 * A path no route serves is `(unmatched)`.
 */
export function requestRoute(req: RequestLike): string {
  const search = (req.url ?? '').split('?').slice(1).join('?');
  const query = search ? `?${redactQuery(search)}` : '';
  let template = req.routeOptions?.config?.operationTemplate ?? req.operationTemplate ?? req.routeOptions?.url;
  if (!template) return `(unmatched)${query}`;
  if (template === '/trpc/:path') {
    const path = (req.params as { path?: unknown } | undefined)?.path;
    if (typeof path === 'string' && PROCEDURE_PATH.test(path)) template = `/trpc/${path}`;
  }
  return `${template}${query}`;
}

/** The request as a log line shows it: method, route template and redacted query (requestRoute), no headers. */
function serializeRequest(req: RequestLike) {
  return { method: req.method, url: requestRoute(req), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort };
}

function serializeResponse(reply: { statusCode?: number }) {
  return { statusCode: reply.statusCode };
}

/** Serializers and redaction of every logger of the service (the server's, the jobs', a test's). */
export const LOG_SAFETY = {
  redact: { paths: REDACT_PATHS, censor: CENSOR },
  serializers: { err: serializeError, error: serializeError, req: serializeRequest, res: serializeResponse },
} satisfies Pick<LoggerOptions, 'redact' | 'serializers'>;

/** The options of a logger the service creates itself. */
export function loggerOptions(level: string): LoggerOptions {
  return { level, ...LOG_SAFETY };
}
