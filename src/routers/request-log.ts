/**
 * The request lines of the log (docs/design.md §10): one when a request comes in, one when its answer
 * is sent, the latter naming who did it (organization, member, credential) once authentication
 * narrowed the caller.
 */
import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger';
import type { Principal } from '../services/access/principal';

/** Who a request acted as, for its log line. */
export interface RequestCaller {
  organizationId: string;
  memberId: string;
  /** The API key's or the session's id. */
  credentialId: string;
  credentialKind: Principal['via'];
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by authentication (routers/middleware/authenticate.ts, route-guard.ts). */
    actedAs?: RequestCaller;
  }
}

export function noteCaller(req: FastifyRequest, principal: Principal) {
  req.actedAs = {
    organizationId: principal.organizationId,
    memberId: principal.memberId,
    credentialId: principal.credentialId,
    credentialKind: principal.via,
  };
}

/**
 * fastify's request logging, whose completion line also names who the request acted as
 * (organization, member, credential), once authentication narrowed the caller.
 */
export class RequestLogController extends LogController {
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (this.isLogDisabled(request)) return;
    const log = reply.log as Leveled;
    // The line is built only when it is written (most deployments log at warn).
    if (!error && log.isLevelEnabled?.('info') === false) return;
    // `req` through the service's serializer: the route template and a redacted query (lib/logging.ts).
    const line = { req: request, res: reply, responseTime: reply.elapsedTime, ...(request.actedAs ?? {}) };
    if (error) log.error({ ...line, err: error }, 'request errored');
    else log.info(line, 'request completed');
  }
}

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type Leveled = FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };

/**
 * A request's logger, made when the request first logs at an enabled level: pino's child() runs the
 * redacting serializer over the bindings ({ reqId }), which most requests, logging nothing at the
 * configured level, never need. What it logs is what the child would have logged (it is the child,
 * made then). Children with options of their own (a route's log level) are made at once.
 */
class DeferredRequestLogger {
  #made: FastifyBaseLogger | undefined;
  readonly #parent: Leveled;
  readonly #bindings: Bindings;

  constructor(parent: Leveled, bindings: Bindings) {
    this.#parent = parent;
    this.#bindings = bindings;
  }

  get #child(): FastifyBaseLogger {
    return (this.#made ??= this.#parent.child(this.#bindings));
  }

  #logs(level: Level): boolean {
    const at = (this.#made ?? this.#parent) as Leveled;
    return at.isLevelEnabled!(level);
  }

  get level(): string {
    return (this.#made ?? this.#parent).level;
  }

  set level(level: string) {
    this.#child.level = level;
  }

  isLevelEnabled(level: string): boolean {
    return this.#logs(level as Level);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#child.child(bindings, options);
  }

  #log(level: Level, args: unknown[]) {
    if (this.#logs(level)) (this.#child[level] as (...a: unknown[]) => void)(...args);
  }

  fatal(...args: unknown[]) {
    this.#log('fatal', args);
  }
  error(...args: unknown[]) {
    this.#log('error', args);
  }
  warn(...args: unknown[]) {
    this.#log('warn', args);
  }
  info(...args: unknown[]) {
    this.#log('info', args);
  }
  debug(...args: unknown[]) {
    this.#log('debug', args);
  }
  trace(...args: unknown[]) {
    this.#log('trace', args);
  }
  silent() {}
}

/** fastify's childLoggerFactory: the request's logger made on first use (DeferredRequestLogger). */
export function deferredChildLogger(this: unknown, logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  const leveled = logger as Leveled;
  if (typeof leveled.isLevelEnabled !== 'function' || Object.keys(options).length > 0) return logger.child(bindings, options);
  return new DeferredRequestLogger(leveled, bindings) as unknown as FastifyBaseLogger;
}
