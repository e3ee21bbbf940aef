import type { Database } from '../../db/client';
import { AppError } from '../../lib/errors';
import { rateLimitedError, type LimitState, type RateLimits } from '../rate-limit/limits';
import { sha256Hex } from '../../lib/crypto';
import { authenticate, authenticateApiKey, bearerToken, cachedKeyStillValid, isSessionToken, parseApiKeyToken, type Authenticated } from './authenticate';
import { principalCacheFor, type CachedPrincipal } from './principal-cache';
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
 * Runs an authentication with the failed-attempt accounting of its source address (docs/design.md
 * §8): reserve, authenticate, then release or keep. Any credential counts (an `fk_` key, an `fs_`
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

const inFlight = new WeakMap<Database, Map<string, Promise<unknown>>>();

/**
 * One check of a credential at a time per process: a request whose very credential is being
 * checked by another request of this process waits for that check and, when it succeeds, takes its
 * answer without reserving or checking anything (a good credential is never counted, nor refused
 * because its own concurrent requests hold the address's budget). When that check fails, the
 * request is checked on its own, reservation included, so failures are still counted one by one.
 */
async function oneCheckAtATime<T>(db: Database, credential: string, run: () => Promise<T>): Promise<T> {
  let pending = inFlight.get(db);
  if (!pending) inFlight.set(db, (pending = new Map()));
  const under = pending.get(credential) as Promise<T> | undefined;
  if (under) {
    try {
      return await under;
    } catch {
      // Its refusal is its own: this request is checked on its own.
    }
  }
  const mine = run();
  pending.set(credential, mine);
  try {
    return await mine;
  } finally {
    if (pending.get(credential) === mine) pending.delete(credential);
  }
}

/** Authenticates a request for any transport, with the failed-attempt accounting of its address. */
export async function authenticateRequest(deps: GuardDeps, req: RequestCredentials): Promise<Authenticated> {
  const check = () => withAddressAccounting(deps, req, () => authenticate(deps.db, req.authorization, deps.now()));
  return req.authorization ? oneCheckAtATime(deps.db, `${req.ip}\n${req.authorization}`, check) : check();
}

/**
 * Counts a request against its credential's own limit (an API key's, or for a session its member's)
 * and its organization's; answers the state of the tightest one (for the RateLimit-* headers the edge
 * sets), or refuses with 429 when one is reached.
 */
export async function applyRateLimits(deps: GuardDeps, principal: Principal): Promise<LimitState | undefined> {
  const states =
    principal.via === 'api_key'
      ? await deps.rateLimits.hitKey(principal.credentialId, principal.organizationId)
      : await deps.rateLimits.hitMember(principal.memberId, principal.organizationId);
  const [tightest] = states;
  if (tightest && !tightest.allowed) throw rateLimitedError(tightest);
  return tightest;
}

/**
 * Authentication and the request limits, the pipeline's first step for every transport (tRPC
 * middleware, REST facade, plain fastify routes).
 *
 * With the PostgreSQL store the principal of an API key or a session is cached by the process and a
 * warm request costs one statement (hitKeyChecked / hitSessionChecked: address check, auth epoch, the
 * credential's and the organization's counters, a key's last use or a session's validity and slide);
 * the cache is trusted only when that statement finds the organization's auth epoch unchanged since
 * the principal was read (and a session still unrevoked and unexpired), so a revoked key or session, a
 * deactivated member or a changed role is refused or applied on the very next request, on every
 * process. Otherwise (memory or Redis store) each request authenticates, then counts.
 */
export async function guardRequest(deps: GuardDeps, req: RequestCredentials): Promise<Authenticated & { rateLimit: LimitState | undefined }> {
  const token = req.authorization ? bearerToken(req.authorization) : undefined;
  if (token && deps.rateLimits.checksPrincipals) {
    const key = parseApiKeyToken(token);
    const guarded = key ? await guardCachedKey(deps, req, key) : isSessionToken(token) ? await guardCachedSession(deps, req, token) : undefined;
    if (guarded) return guarded;
  }
  const who = await authenticateRequest(deps, req);
  return { ...who, rateLimit: await applyRateLimits(deps, who.principal) };
}

type Checked = Awaited<ReturnType<RateLimits['hitKeyChecked']>>;

/**
 * The cached-principal path: up to three rounds of (authenticate afresh when nothing usable is
 * cached) then the one checked statement; undefined when the epoch kept moving (the caller takes the
 * plain path).
 */
async function guardCached(
  deps: GuardDeps,
  cacheKey: string,
  cached: CachedPrincipal | undefined,
  fresh: () => Promise<CachedPrincipal>,
  check: (entry: CachedPrincipal) => Promise<Checked>,
): Promise<(Authenticated & { rateLimit: LimitState | undefined }) | undefined> {
  const cache = principalCacheFor(deps.db);
  let entry = cached;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (!entry) entry = await fresh();
    const checked = await check(entry);
    if ('addressRefused' in checked) throw rateLimitedError(checked.addressRefused);
    if (!checked.epochMatches) {
      cache.delete(cacheKey);
      entry = undefined;
      continue;
    }
    cache.set(cacheKey, entry);
    const [tightest] = checked.states;
    if (tightest && !tightest.allowed) throw rateLimitedError(tightest);
    return { ...entry.authenticated, rateLimit: tightest };
  }
  return undefined;
}

/** An API key's cached path. */
function guardCachedKey(deps: GuardDeps, req: RequestCredentials, key: { id: string; secret: string }) {
  const now = deps.now();
  let entry = principalCacheFor(deps.db).get(key.id);
  if (entry && !cachedKeyStillValid(entry, key, now)) entry = undefined;
  return guardCached(
    deps,
    key.id,
    entry,
    async () => {
      const fresh = await oneCheckAtATime(deps.db, `${req.ip}\nkey\n${req.authorization}`, () =>
        withAddressAccounting(deps, req, () => authenticateApiKey(deps.db, key, now, { touch: false })),
      );
      return { authenticated: { principal: fresh.principal, org: fresh.org }, secretHash: fresh.secretHash, expiresAt: fresh.expiresAt, epoch: fresh.epoch };
    },
    // The clock read again: an authentication may have taken a while, and the window counts from now.
    (entry) =>
      deps.rateLimits.hitKeyChecked({ apiKeyId: key.id, organizationId: entry.authenticated.principal.organizationId, address: req.ip, epoch: entry.epoch, now: deps.now() }),
  );
}

/**
 * A session's cached path, by the token's hash. A first request authenticates the session (its
 * slide included) and runs the checked statement; every later one is that statement alone.
 */
function guardCachedSession(deps: GuardDeps, req: RequestCredentials, token: string) {
  const tokenHash = sha256Hex(token);
  const cacheKey = `session:${tokenHash}`;
  return guardCached(
    deps,
    cacheKey,
    principalCacheFor(deps.db).get(cacheKey),
    async () => {
      const fresh = await authenticateRequest(deps, req);
      return { authenticated: fresh, secretHash: tokenHash, expiresAt: null, epoch: fresh.org.configEpoch ?? -1 };
    },
    (entry) =>
      deps.rateLimits.hitSessionChecked({
        sessionId: entry.authenticated.principal.credentialId,
        memberId: entry.authenticated.principal.memberId,
        organizationId: entry.authenticated.principal.organizationId,
        address: req.ip,
        epoch: entry.epoch,
        now: deps.now(),
      }),
  );
}
