/**
 * The request lines of the log (DESIGN section 10): one when a request comes in, one when its answer
 * is sent, the latter naming who did it (organization, member, credential) once authentication
 * narrowed the caller.
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
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
    const line = { res: reply, responseTime: reply.elapsedTime, ...(request.actedAs ?? {}) };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
