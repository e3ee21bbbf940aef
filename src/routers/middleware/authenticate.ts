import { authenticateRequest } from '../../services/access/authenticate-request';
import { middleware } from '../trpc';

/**
 * Narrows the caller to a principal once; every later step can rely on `ctx.principal`. Failed key
 * authentications count against the source address, which is refused with 429 once over its limit
 * (the refusal carries the address limit's state; the edge renders it as headers).
 */
export const authenticated = middleware(async ({ ctx, next }) => {
  const { principal, org } = await authenticateRequest(
    { db: ctx.db, rateLimits: ctx.deps.rateLimits, now: ctx.deps.now },
    { authorization: ctx.authorization, ip: ctx.ip },
  );
  return next({ ctx: { principal, org } });
});
