import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../db/client';
import type { AppDeps } from '../deps';
import { guardRequest } from '../services/access/authenticate-request';
import type { Principal } from '../services/access/principal';
import { runWrite } from '../services/idempotency/write-transaction';

/**
 * The procedure pipeline for a plain fastify route (the multipart upload, which the REST adapter
 * cannot serve): authentication with failed-key counting per address, then the per-key and
 * per-organization limits. The RateLimit-* headers go on the reply whether it succeeds or throws;
 * a refusal is thrown as an AppError (the /v1 error handler renders it as a problem).
 */
export async function guardRoute(deps: AppDeps, req: FastifyRequest, reply: FastifyReply): Promise<Principal> {
  const headers: Record<string, string> = {};
  try {
    const authorization = req.headers.authorization;
    return await guardRequest({ db: deps.db, rateLimits: deps.rateLimits, now: deps.now }, { authorization, ip: req.ip }, headers);
  } finally {
    reply.headers(headers);
  }
}

export interface RouteAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * Runs a fastify route's write the way writeProcedure runs a procedure: in one transaction, made
 * idempotent by the Idempotency-Key header. `input` is what identifies the request (for an upload:
 * the file's SHA-256, filename and content type). Sends the answer, or the replay of a stored one.
 */
export async function sendIdempotentWrite(
  deps: AppDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  write: { principal: Principal; route: string; input: unknown; run: (tx: Database) => Promise<RouteAnswer> },
): Promise<FastifyReply> {
  const key = req.headers['idempotency-key'];
  const answer = await runWrite<RouteAnswer>(
    deps,
    {
      principal: write.principal,
      idempotencyKey: Array.isArray(key) ? key.join(', ') : key,
      method: req.method,
      route: write.route,
      input: write.input,
    },
    { run: write.run, answerOf: (a) => a, replay: (stored) => stored },
  );
  return reply.code(answer.status).headers(answer.headers).send(answer.body);
}
