import type { Database } from '../../db/client';
import { middleware } from '../trpc';

/**
 * Runs a write in one transaction: a refused or failed request leaves nothing behind. The handler
 * sees the transaction as `ctx.db`. Idempotency joins this transaction (issue: safe writes).
 */
export const writeTransaction = middleware(async ({ ctx, next }) => {
  const marker = Symbol('rollback');
  let failed: Awaited<ReturnType<typeof next>> | undefined;
  try {
    return await ctx.deps.db.transaction(async (tx) => {
      const result = await next({ ctx: { db: tx as unknown as Database } });
      if (!result.ok) {
        failed = result;
        throw marker;
      }
      return result;
    });
  } catch (e) {
    if (e === marker && failed) return failed;
    throw e;
  }
});
