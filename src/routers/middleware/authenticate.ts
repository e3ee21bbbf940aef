import { guardRequest } from '../../services/access/authenticate-request';
import type { Permission } from '../../services/access/permissions';
import { assertPermission } from './require-permission';
import { middleware } from '../trpc';
import { rateLimitHeaders } from './response-headers';
import { requestCredential, withClearedCookie } from '../session-cookie';

/**
 * Narrows the caller to a principal once and counts an API key's request against its key's and its
 * organization's limits (one step: with a cached principal both are one statement). Failed
 * authentications count against the source address, which is refused with 429 once over its limit.
 * The RateLimit-* headers go on ctx.out, so they reach every answer of the request, errors included
 * (responseMeta keeps them on refusals; a 429 or 401 carries its limit's state itself).
 */
export const authenticated = authenticate();

/**
 * `authenticated`, then (with a permission) the principal must hold it: 403 `forbidden` otherwise,
 * after the request was counted. One middleware for both (each level of tRPC's chain copies its
 * options and context).
 */
export function authenticate(permission?: Permission) {
  return middleware(async ({ ctx, next }) => {
    // The Authorization header, or else the console's session cookie (403 csrf_refused when the request may not use it).
    const credential = requestCredential(ctx);
    const { principal, org, rateLimit } = await guardRequest(
      { db: ctx.deps.db, rateLimits: ctx.deps.rateLimits, now: ctx.deps.now },
      { authorization: credential.authorization, ip: ctx.ip },
    ).catch((e: unknown) => {
      throw credential.viaCookie ? withClearedCookie(e, ctx.cookie) : e;
    });
    ctx.identify?.(principal);
    if (rateLimit) Object.assign(ctx.out.headers, rateLimitHeaders(rateLimit));
    if (permission) assertPermission(principal, permission);
    return next({ ctx: { principal, org } });
  });
}
