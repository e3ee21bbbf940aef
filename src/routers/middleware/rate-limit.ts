import { applyRateLimits } from '../../services/access/authenticate-request';
import type { Principal } from '../../services/access/principal';
import { middleware } from '../trpc';
import { rateLimitHeaders } from './response-headers';

/**
 * Per-key and per-organization limits of API-key requests. The RateLimit-* headers go on ctx.out, so
 * they reach every answer of the request, errors included (responseMeta keeps them on refusals; a
 * 429 carries its limit's state itself).
 */
export const rateLimited = middleware(async ({ ctx, next }) => {
  const principal = (ctx as unknown as { principal: Principal }).principal;
  const state = await applyRateLimits({ db: ctx.db, rateLimits: ctx.deps.rateLimits, now: ctx.deps.now }, principal);
  if (state) Object.assign(ctx.out.headers, rateLimitHeaders(state));
  return next();
});
