import type { Database } from '../../db/client';
import { AppError } from '../../lib/errors';
import { rateLimitedError, type LimitState, type RateLimits } from '../rate-limit/limits';
import { authenticate, bearerToken, credentialKind, type Authenticated } from './authenticate';
import type { Principal } from './principal';

export interface GuardDeps {
  db: Database;
  rateLimits: RateLimits;
  now: () => Date;
}

export interface RequestCredentials {
  /** Raw Authorization header. */
  authorization?: string;
  /** Source address (fastify's `req.ip`). */
  ip: string;
}

/**
 * Whether a failed attempt counts against the source address: anything that tries to be an API key
 * (an `fk_` token, a malformed token, another scheme). A missing header tries nothing, and a
 * session-shaped token that fails is a person whose session ended, not a guess at a key.
 */
function countsAsKeyAttempt(authorization: string | undefined): boolean {
  if (!authorization) return false;
  const token = bearerToken(authorization);
  return !token || credentialKind(token) !== 'session';
}

/**
 * Authenticates a request for any transport (tRPC middleware, REST facade, the fastify upload route).
 * An address over its failed-authentication limit is refused with 429 before the key is even looked
 * at; each failed key authentication is counted, and its 401 carries where the address stands
 * (`rateLimit`), which the edge reports in RateLimit-* headers.
 */
export async function authenticateRequest(deps: GuardDeps, req: RequestCredentials): Promise<Authenticated> {
  const counted = countsAsKeyAttempt(req.authorization);
  if (counted) {
    const address = await deps.rateLimits.addressState(req.ip);
    if (!address.allowed) throw rateLimitedError(address);
  }
  try {
    return await authenticate(deps.db, req.authorization, deps.now());
  } catch (e) {
    if (counted && e instanceof AppError && e.appCode === 'unauthenticated') {
      const address = await deps.rateLimits.recordAuthFailure(req.ip);
      throw new AppError(e.appCode, { detail: e.detail, errors: e.fieldErrors, cause: e.cause, rateLimit: address });
    }
    throw e;
  }
}

/**
 * Counts an API-key request against its key's and its organization's limits; answers the state of
 * the tightest one (for the RateLimit-* headers the edge sets), or refuses with 429 when one is
 * reached. Sessions (people) are not rate limited: undefined.
 */
export async function applyRateLimits(deps: GuardDeps, principal: Principal): Promise<LimitState | undefined> {
  if (principal.via !== 'api_key') return undefined;
  const [tightest] = await deps.rateLimits.hitKey(principal.credentialId, principal.organizationId);
  if (tightest && !tightest.allowed) throw rateLimitedError(tightest);
  return tightest;
}

/** Both steps at once, for routes outside tRPC (the multipart upload). */
export async function guardRequest(deps: GuardDeps, req: RequestCredentials): Promise<Authenticated & { rateLimit: LimitState | undefined }> {
  const who = await authenticateRequest(deps, req);
  return { ...who, rateLimit: await applyRateLimits(deps, who.principal) };
}
