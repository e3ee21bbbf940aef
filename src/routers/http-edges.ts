/**
 * The edges every path shares (docs/design.md §6): fastify's router errors, 404 and 405 with
 * `Allow`, 414, and HEAD only where GET is served (with GET's authentication). Every one of them
 * answers a problem object with the request id; none reaches a procedure or a service.
 */
import { randomUUID } from 'node:crypto';
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { isLostConnection } from '../db/errors';
import { databaseUnavailable } from '../lib/errors';
import { problemForCode, SERVER_FAULT_DETAIL } from '../lib/problem';
import { codeForStatus, sendProblem } from './problem-reply';

/** The longest URL (path and query) the service reads; a longer one is 414. */
export const MAX_URL_LENGTH = 8 * 1024;
/** The longest single path parameter (a tRPC procedure path, a problem code); fastify's router answers longer ones as 414. */
export const MAX_PARAM_LENGTH = 500;

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** A path template (OpenAPI `{id}`, fastify `:id` and `*`) as the pattern of the paths it serves; a trailing slash is optional. */
export function pathPattern(template: string): RegExp {
  const escaped = template
    .split(/(\{[^}]+\}|:[A-Za-z0-9_]+|\*)/)
    .map((part) => {
      if (part === '*') return '.*';
      if (/^(\{[^}]+\}|:[A-Za-z0-9_]+)$/.test(part)) return '[^/]+';
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${escaped.replace(/\/$/, '')}/?$`);
}

/**
 * Which methods each path serves: fastify's own routes as they are registered, and the operations
 * of the REST facade from its OpenAPI document.
 */
export class ServedMethods {
  private readonly entries: { pattern: RegExp; methods: Set<string> }[] = [];
  /**
   * What answers a request no route matched before it is a 404 (the console's index.html for a deep
   * link a browser asks for); answers whether it took the request. A fallback, not a `/*` route, so
   * the router's own refusals (414 for a path parameter too long) and the metrics' `unmatched` stay.
   */
  fallback?: (req: FastifyRequest, reply: FastifyReply) => boolean;

  add(template: string, methods: readonly string[]) {
    this.entries.push({ pattern: pathPattern(template), methods: new Set(methods.map((m) => m.toUpperCase())) });
  }

  /** The methods `path` serves (HEAD wherever GET is), or undefined when no route has that path. */
  allowed(path: string): string[] | undefined {
    const methods = new Set<string>();
    for (const e of this.entries) if (e.pattern.test(path)) for (const m of e.methods) methods.add(m);
    if (methods.size === 0) return undefined;
    if (methods.has('GET')) methods.add('HEAD');
    else methods.delete('HEAD');
    return METHODS.filter((m) => methods.has(m));
  }

  /** Records every fastify route registered after this call, except catch-alls whose operations are added from a document. */
  track(app: FastifyInstance, opts: { skip: (route: RouteOptions) => boolean }) {
    app.addHook('onRoute', (route) => {
      if (opts.skip(route)) return;
      this.add(route.url, Array.isArray(route.method) ? route.method : [route.method]);
    });
  }

  /** The operations of an OpenAPI document served under `prefix`. */
  addDocument(prefix: string, doc: { paths?: Record<string, Record<string, unknown> | undefined> }) {
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      const methods = Object.keys(item ?? {}).filter((k) => (METHODS as readonly string[]).includes(k.toUpperCase()));
      if (methods.length) this.add(`${prefix}${path}`, methods);
    }
  }
}

function pathOf(req: FastifyRequest): string {
  return (req.originalPath ?? req.url).split('?')[0] ?? '/';
}

function methodNotAllowed(req: FastifyRequest, reply: FastifyReply, allow: string[]) {
  reply.header('allow', allow.join(', '));
  return sendProblem(req, reply, problemForCode('method_not_allowed', `${req.method} is not served on this path; it serves ${allow.join(', ')}`));
}

/** What an unmatched request answers: 405 with Allow when the path exists with other methods, else 404. */
export function answerNotFound(served: ServedMethods, req: FastifyRequest, reply: FastifyReply) {
  if (served.fallback?.(req, reply)) return reply;
  const allow = served.allowed(pathOf(req));
  if (allow && !allow.includes(req.method)) return methodNotAllowed(req, reply, allow);
  return sendProblem(req, reply, problemForCode('not_found', 'No such resource'));
}

/**
 * For the REST facade's catch-all route (what no operation's own route matched: another method, a
 * trailing slash, another letter case, an unknown path): 405 with Allow for a method the path does
 * not serve, and HEAD run as GET (its procedure, its authentication; fastify's HEAD route drops the
 * body). A path the document does not know goes on to the adapter's catch-all, which answers 404
 * (HEAD is answered 404 here).
 */
export function guardFacadeMethods(served: ServedMethods) {
  const guard = async (req: FastifyRequest, reply: FastifyReply) => {
    const allow = served.allowed(pathOf(req));
    if (!allow) return req.method === 'HEAD' ? answerNotFound(served, req, reply) : undefined;
    if (!allow.includes(req.method)) return methodNotAllowed(req, reply, allow);
    if (req.method === 'HEAD') req.raw.method = 'GET';
  };
  // Written with `done`: a request an operation's own route matched (nearly every one) goes on without a promise.
  return (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    if (!req.routeOptions.url?.endsWith('/*')) return done();
    // A refusal answered by the guard ends the request there (done is not called).
    guard(req, reply).then(
      () => (reply.sent ? undefined : done()),
      (err: Error) => done(err),
    );
  };
}

/**
 * HEAD on a tRPC procedure path is its GET (a query, with its authentication), not the adapter's
 * unauthenticated 204.
 */
export function headAsGet(req: FastifyRequest) {
  if (req.method === 'HEAD') req.raw.method = 'GET';
}

/** fastify's router refusals (before any route or hook ran): invalid percent-encoding, a path parameter too long. */
export function frameworkErrors(error: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  // fastify writes no completion line for these: the request line of a refused URL is written here.
  reply.raw.once('finish', () => req.log.info({ res: { statusCode: reply.raw.statusCode }, responseTime: reply.elapsedTime, code: error.code }, 'request completed'));
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return sendProblem(req, reply, problemForCode('invalid_request', 'The path is not valid percent-encoded UTF-8'));
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return sendProblem(req, reply, problemForCode('uri_too_long', `A path segment is longer than ${MAX_PARAM_LENGTH} characters`));
    default:
      req.log.error({ err: error, requestId: String(req.id) }, 'request failed');
      return sendProblem(req, reply, problemForCode('internal', SERVER_FAULT_DETAIL));
  }
}

/**
 * The edges of the whole server: the URL limit, every unmatched path, and errors of routes outside
 * the REST facade (which has its own handler), all as problems. Call before any route is registered.
 */
export function registerEdges(app: FastifyInstance, served: ServedMethods) {
  // Catch-alls are no paths: the REST facade's (its operations come from its document) and the CORS preflight's `*`.
  served.track(app, { skip: (route) => route.url === '*' || route.url === '/*' || (route.url.startsWith('/v1/') && route.url.endsWith('/*')) });

  // Written with `done`: a URL within the limit goes on without a promise.
  app.addHook('onRequest', (req, reply, done) => {
    if (req.url.length <= MAX_URL_LENGTH) return done();
    // Answered here: the request goes no further (done is not called).
    sendProblem(req, reply, problemForCode('uri_too_long', `The URL is longer than ${MAX_URL_LENGTH} characters`));
  });

  app.setNotFoundHandler((req, reply) => answerNotFound(served, req, reply));

  app.setErrorHandler((error: FastifyError, req, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status === 500 && isLostConnection(error)) {
      req.log.error({ err: error, requestId: String(req.id), status: 503 }, 'request failed');
      const lost = databaseUnavailable(error);
      return sendProblem(req, reply.header('retry-after', String(lost.retryAfterSeconds)), problemForCode('unavailable', lost.detail));
    }
    if (status >= 500) {
      req.log.error({ err: error, requestId: String(req.id), status }, 'request failed');
      return sendProblem(req, reply, problemForCode('internal', SERVER_FAULT_DETAIL));
    }
    return sendProblem(req, reply, problemForCode(codeForStatus(status), error.message));
  });
}

/**
 * Node's own refusals, before there is a request for fastify to route (a request line and headers
 * over Node's 16 KiB, a request that did not arrive in time, bytes that are not HTTP): written on the
 * socket as problems, like every other answer. fastify's default writes its own JSON shape.
 */
export function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const problem =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? problemForCode('headers_too_large', `The request line and headers are larger than ${HEADER_LIMIT_KIB} KiB (a URL may have at most ${MAX_URL_LENGTH} characters)`)
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? problemForCode('request_timeout', 'The request did not arrive in time')
        : problemForCode('invalid_request', 'The request is not valid HTTP');
  const requestId = randomUUID();
  const body = JSON.stringify({ ...problem, instance: `urn:request:${requestId}`, request_id: requestId });
  this.log.debug({ err: error, requestId }, 'client error');
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\nContent-Type: application/problem+json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** Node's limit on the request line and headers together (http.maxHeaderSize), in KiB. */
const HEADER_LIMIT_KIB = Math.round(maxHeaderSize / 1024);
