import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { AppDeps } from '../deps';
import type { Database } from '../db/client';
import type { Principal } from '../services/access/principal';
import { noteCaller } from './request-log';
import { cookieRequest, type CookieRequest } from './session-cookie';
import { serviceContext, type OrganizationSettings, type ServiceContext } from '../services/context';

/**
 * What a procedure may set on the answer. Middlewares create new ctx objects, so this one mutable
 * container is shared by reference and copied onto the response by each adapter's responseMeta.
 */
export interface ResponseOut {
  status?: number;
  headers: Record<string, string>;
  /** A text or binary answer in place of the JSON one (a report as CSV or PDF), with its Content-Type among `headers`; REST only. */
  body?: string | Buffer;
}

export interface RequestInfo {
  /** Raw `Authorization` header value. */
  authorization?: string;
  /** The console's session cookie and whether this request may act through it (session-cookie.ts); HTTP only. */
  cookie?: CookieRequest;
  /** Raw `Idempotency-Key` header value. */
  idempotencyKey?: string;
  /** Raw `If-Match` header value. */
  ifMatch?: string;
  ip: string;
  requestId: string;
  transport: 'rest' | 'trpc' | 'in-process';
}

export interface Context extends RequestInfo {
  deps: AppDeps;
  /** The database handle of this step: the pool, or the write's transaction inside writes. */
  db: Database;
  out: ResponseOut;
  log: Logger;
  /** Called once authentication narrowed the caller: HTTP requests log who they acted as (request-log.ts). */
  identify?: (principal: Principal) => void;
}

export interface AuthedContext extends Context {
  principal: Principal;
  org: OrganizationSettings;
}

/** The service context of an authenticated step: its database handle (the transaction in writes), caller, organization, clock. */
export function svc(ctx: AuthedContext): ServiceContext {
  return serviceContext(ctx.db, ctx.principal, ctx.org, ctx.deps.now(), ctx.deps.config.CURSOR_SECRET);
}

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

export function createContextFactory(deps: AppDeps, transport: 'rest' | 'trpc') {
  return ({ req }: { req: FastifyRequest }): Context => ({
    deps,
    db: deps.db,
    authorization: header(req, 'authorization'),
    cookie: cookieRequest(req, deps.config),
    idempotencyKey: header(req, 'idempotency-key'),
    ifMatch: header(req, 'if-match'),
    ip: req.ip,
    requestId: String(req.id),
    transport,
    out: { headers: {} },
    log: req.log as unknown as Logger,
    identify: (principal) => noteCaller(req, principal),
  });
}

/** Context for in-process callers (createCaller): same pipeline, no HTTP. */
export function createInProcessContext(deps: AppDeps, info: Partial<RequestInfo> = {}): Context {
  const requestId = info.requestId ?? crypto.randomUUID();
  return {
    deps,
    db: deps.db,
    ip: '127.0.0.1',
    transport: 'in-process',
    ...info,
    requestId,
    out: { headers: {} },
    log: deps.log.child({ requestId }),
  };
}
