import type { Database } from '../../db/client';
import { AppError } from '../../lib/errors';
import { rateLimitedError, type LimitState, type RateLimits } from '../rate-limit/limits';
import { authenticate, authenticateApiKey, bearerToken, cachedKeyStillValid, parseApiKeyToken, type Authenticated } from './authenticate';
import { principalCacheFor } from './principal-cache';
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
 * Runs an authentication with the failed-attempt accounting of its source address (DESIGN section
 * 8): reserve, authenticate, then release or keep. Any credential counts (an `fk_` key, an `fs_`
 * session, a malformed token, another scheme); a missing header tries nothing. Before the credential
 * is looked at, one unit of the address's failed-authentication budget is reserved atomically in the
 * store: an address without budget left is refused with 429 without checking anything, so a burst
 * of concurrent attempts checks at most as many credentials as the limit allows. A failed
 * authentication keeps its unit and its 401 carries where the address stands (`rateLimit`, which the
 * edge reports in RateLimit-* headers); any other outcome gives the unit back.
 */
async function withAddressAccounting<T>(deps: GuardDeps, req: RequestCredentials, run: () => Promise<T>): Promise<T> {
  if (!req.authorization) return run();
  const attempt = await deps.rateLimits.reserveAuthAttempt(req.ip);
  if (!attempt.state.allowed) throw rateLimitedError(attempt.state);
  let result: T;
  try {
    result = await run();
  } catch (e) {
    if (e instanceof AppError && e.appCode === 'unauthenticated') {
      throw new AppError(e.appCode, { detail: e.detail, errors: e.fieldErrors, cause: e.cause, rateLimit: attempt.state });
    }
    // The refusal or fault is the answer; a store failing to give the unit back only leaves it counted.
    await attempt.release().catch(() => undefined);
    throw e;
  }
  await attempt.release();
  return result;
}

/** Authenticates a request for any transport, with the failed-attempt accounting of its address. */
export async function authenticateRequest(deps: GuardDeps, req: RequestCredentials): Promise<Authenticated> {
  return withAddressAccounting(deps, req, () => authenticate(deps.db, req.authorization, deps.now()));
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

/**
 * Authentication and the request limits, the pipeline's first step for every transport (tRPC
 * middleware, REST facade, plain fastify routes).
 *
 * With the PostgreSQL store an API key's principal is cached by the process and a warm request costs
 * one statement (hitKeyChecked: address check, auth epoch, both counters, last use); the cache is
 * trusted only when that statement finds the organization's auth epoch unchanged since the principal
 * was read, so a revoked key, a deactivated owner or a changed role is refused or applied on the very
 * next request, on every process. Otherwise (memory or Redis store, sessions) each request
 * authenticates, then counts.
 */
export async function guardRequest(deps: GuardDeps, req: RequestCredentials): Promise<Authenticated & { rateLimit: LimitState | undefined }> {
  const token = req.authorization ? bearerToken(req.authorization) : undefined;
  const key = token ? parseApiKeyToken(token) : undefined;
  if (key && deps.rateLimits.checksPrincipals) {
    const guarded = await guardCachedKey(deps, req, key);
    if (guarded) return guarded;
  }
  const who = await authenticateRequest(deps, req);
  return { ...who, rateLimit: await applyRateLimits(deps, who.principal) };
}

/** The cached-principal path; undefined when the epoch kept moving (the caller takes the plain path). */
async function guardCachedKey(
  deps: GuardDeps,
  req: RequestCredentials,
  key: { id: string; secret: string },
): Promise<(Authenticated & { rateLimit: LimitState | undefined }) | undefined> {
  const cache = principalCacheFor(deps.db);
  const now = deps.now();
  let entry = cache.get(key.id);
  if (entry && !cachedKeyStillValid(entry, key, now)) entry = undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (!entry) {
      const fresh = await withAddressAccounting(deps, req, () => authenticateApiKey(deps.db, key, now, { touch: false }));
      entry = { authenticated: { principal: fresh.principal, org: fresh.org }, secretHash: fresh.secretHash, expiresAt: fresh.expiresAt, epoch: fresh.epoch };
    }
    const checked = await deps.rateLimits.hitKeyChecked({
      apiKeyId: key.id,
      organizationId: entry.authenticated.principal.organizationId,
      address: req.ip,
      epoch: entry.epoch,
      // Read again: an authentication may have taken a while, and the window counts from now.
      now: deps.now(),
    });
    if ('addressRefused' in checked) throw rateLimitedError(checked.addressRefused);
    if (!checked.epochMatches) {
      cache.delete(key.id);
      entry = undefined;
      continue;
    }
    cache.set(key.id, entry);
    const [tightest] = checked.states;
    if (tightest && !tightest.allowed) throw rateLimitedError(tightest);
    return { ...entry.authenticated, rateLimit: tightest };
  }
  return undefined;
}
