import { authenticate } from '../../services/access/authenticate';
import { middleware } from '../trpc';

/** Narrows the caller to a principal once; every later step can rely on `ctx.principal`. */
export const authenticated = middleware(async ({ ctx, next }) => {
  const principal = await authenticate(ctx.db, ctx.authorization, ctx.deps.now());
  return next({ ctx: { principal } });
});
