import { authenticateRequest } from '../../services/access/authenticate-request';
import { middleware } from '../trpc';

/**
 * Narrows the caller to a principal once; every later step can rely on `ctx.principal`. Failed key
 * authentications count against the source address, which is refused with 429 once over its limit.
 */
export const authenticated = middleware(async ({ ctx, next }) => {
  const principal = await authenticateRequest(
    { db: ctx.db, rateLimits: ctx.deps.rateLimits, now: ctx.deps.now },
    { authorization: ctx.authorization, ip: ctx.ip },
    ctx.out.headers,
  );
  return next({ ctx: { principal } });
});
