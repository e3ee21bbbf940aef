import { middlewareMarker } from '@trpc/server/unstable-core-do-not-import';
import type { Principal } from '../../services/access/principal';
import { runWrite } from '../../services/idempotency/write-transaction';
import { middleware } from '../trpc';
import { answerOfHeaders, replayHeaders } from './response-headers';

/**
 * Idempotency and the transaction of every write, as one step (see runWrite). The handler sees the
 * transaction as `ctx.db`; a replay answers the stored status, body, ETag and Location through
 * ctx.out, so /v1, /trpc and in-process callers all get it.
 */
export const writeTransaction = middleware(async ({ ctx, next, path, meta, getRawInput }) => {
  type Result = Awaited<ReturnType<typeof next>>;
  const principal = (ctx as unknown as { principal: Principal }).principal;
  return runWrite<Result>(
    ctx.deps,
    {
      principal,
      idempotencyKey: ctx.idempotencyKey,
      method: meta?.openapi?.method ?? 'POST',
      route: path,
      // Raw input: the body as sent, with the path parameters the REST adapter merges into it.
      input: await getRawInput(),
    },
    {
      run: (tx) => next({ ctx: { db: tx } }),
      answerOf: (result) => (result.ok ? answerOfHeaders(ctx.out.status ?? 200, ctx.out.headers, result.data) : undefined),
      replay: (stored) => {
        ctx.out.status = stored.status;
        Object.assign(ctx.out.headers, replayHeaders(stored));
        // The stored answer stands in for the handler's: nothing below this step runs.
        return { ok: true, data: stored.body, marker: middlewareMarker } as unknown as Result;
      },
    },
  );
});
