import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../db/client';
import type { AppDeps } from '../deps';
import { bearerToken, credentialKind, type Authenticated } from '../services/access/authenticate';
import { guardRequest } from '../services/access/authenticate-request';
import type { AppError } from '../lib/errors';
import type { Principal } from '../services/access/principal';
import { runWrite } from '../services/idempotency/write-transaction';
import { isAppError } from '../lib/errors';
import { noteCaller } from './request-log';
import { cookieRequest, requestCredential, withClearedCookie } from './session-cookie';
import { answerOfHeaders, rateLimitHeaders, refusalHeaders, replayHeaders } from './middleware/response-headers';

/** Requests already counted by guardRoute (a refusal later in the route must not count them again). */
const guarded = new WeakSet<FastifyRequest>();

/**
 * The procedure pipeline for a plain fastify route (the multipart upload, which the REST adapter
 * cannot serve): authentication with failed-key counting per address, then the per-key and
 * per-organization limits. The RateLimit-* headers go on the reply whether it succeeds or throws;
 * a refusal is thrown as an AppError (the /v1 error handler renders it as a problem).
 */
export async function guardRoute(deps: AppDeps, req: FastifyRequest, reply: FastifyReply): Promise<Principal> {
  return (await guardRouteAuthenticated(deps, req, reply)).principal;
}

/** guardRoute answering the organization's settings with the principal (what a service context needs). */
export async function guardRouteAuthenticated(deps: AppDeps, req: FastifyRequest, reply: FastifyReply): Promise<Authenticated> {
  guarded.add(req);
  const cookie = cookieRequest(req, deps.config);
  try {
    // The Authorization header, or else the console's session cookie (403 csrf_refused when the request may not use it).
    const credential = requestCredential({ authorization: req.headers.authorization, cookie });
    const { principal, org, rateLimit } = await guardRequest({ db: deps.db, rateLimits: deps.rateLimits, now: deps.now }, { authorization: credential.authorization, ip: req.ip }).catch(
      (e: unknown) => {
        throw credential.viaCookie ? withClearedCookie(e, cookie) : e;
      },
    );
    noteCaller(req, principal);
    if (rateLimit) reply.headers(rateLimitHeaders(rateLimit));
    return { principal, org };
  } catch (e) {
    // Headers set on the reply survive the error handler, whichever renders the refusal.
    if (isAppError(e)) reply.headers(refusalHeaders(e));
    throw e;
  }
}

/**
 * For an API-key request that fastify refused before any route ran (malformed JSON 400, 413, 415):
 * the same authentication and limit accounting as every API-key request (guardRoute), so its answer
 * carries the RateLimit-* headers too. Answers the refusal of those steps (401, 429), which comes
 * first, as on every route; undefined when the request passed them, carries no API key, or was
 * already guarded by its route (the upload's multipart refusals come after guardRoute).
 */
export async function guardRefusedRequest(deps: AppDeps, req: FastifyRequest, reply: FastifyReply): Promise<AppError | undefined> {
  const authorization = req.headers.authorization;
  const token = authorization ? bearerToken(authorization) : undefined;
  if (!token || credentialKind(token) !== 'api_key' || guarded.has(req)) return undefined;
  try {
    await guardRoute(deps, req, reply);
    return undefined;
  } catch (e) {
    if (isAppError(e)) return e;
    throw e;
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
    {
      run: write.run,
      answerOf: (a) => answerOfHeaders(a.status, a.headers, a.body),
      replay: (stored) => ({ status: stored.status, headers: replayHeaders(stored), body: stored.body }),
    },
  ).catch((e: unknown) => {
    // A refusal (409 in progress: when to retry) carries its headers on the reply.
    if (isAppError(e)) reply.headers(refusalHeaders(e));
    throw e;
  });
  return reply.code(answer.status).headers(answer.headers).send(answer.body);
}
