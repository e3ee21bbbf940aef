import { initTRPC, TRPCError } from '@trpc/server';
import { getTRPCErrorFromUnknown } from '@trpc/server/unstable-core-do-not-import';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { z } from 'zod';
import { isLostConnection } from '../db/errors';
import { AppError, databaseUnavailable, pointerLabel } from '../lib/errors';
import { problemFromError, type Problem } from '../lib/problem';
import { checkedInput } from '../lib/input-text';
import { inputError, pointerFor } from '../lib/zod-errors';
import type { Context } from './context';

export interface Meta extends OpenApiMeta {
  /** Status of a successful answer when it is not 200 (201 for creates). */
  successStatus?: number;
  /** A write against an existing record: If-Match is required (428 when missing, 409 when stale). */
  requiresRevision?: boolean;
  /**
   * Set by decisionProcedure: a people's decision (API key → 403 person_required). tRPC merges a
   * later .meta() into this one, so it survives; tests enumerate the router's decisions by it.
   */
  decision?: boolean;
}

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    errorFormatter({ shape, error }) {
      const problem: Problem = problemFromError(error);
      // Only the problem reaches callers: no stack, no internal message of a 500.
      return {
        message: problem.detail ?? problem.title,
        code: shape.code,
        data: { code: shape.data.code, httpStatus: problem.status, path: shape.data.path, problem },
      };
    },
  });

export const router = t.router;
export const middleware = t.middleware;
export const createCallerFactory = t.createCallerFactory;

/** Which part of the HTTP request an input field comes from, for error pointers. */
function locator(meta: Meta | undefined) {
  const method = meta?.openapi?.method ?? 'POST';
  const pathParams = new Set([...(meta?.openapi?.path ?? '').matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
  return (name: string) => (pathParams.has(name) ? 'path' : method === 'GET' || method === 'DELETE' ? 'query' : 'body') as 'path' | 'query' | 'body';
}

/** Errors already logged by a procedure; the adapters' onError logs only the others (server.ts). */
export const loggedFaults = new WeakSet<object>();

/** A failure as the service's error catalogue names it (see entry below); a 5xx is logged here once. */
function convertFailure(error: TRPCError, rawInput: unknown, at: { meta: Meta | undefined; ctx: Context; path: string }): TRPCError {
  let converted: TRPCError;
  if (error instanceof AppError) converted = error;
  else if (error.code === 'BAD_REQUEST' && error.cause instanceof z.ZodError) converted = inputError(error.cause, locator(at.meta), rawInput);
  else if (isLostConnection(error.cause ?? error)) converted = databaseUnavailable(error.cause ?? error);
  else converted = error instanceof TRPCError && error.code !== 'INTERNAL_SERVER_ERROR' ? error : new AppError('internal', { cause: error.cause ?? error });
  const status = converted instanceof AppError ? converted.status : problemFromError(converted).status;
  if (status >= 500) {
    at.ctx.log.error({ err: converted.cause ?? converted, path: at.path, requestId: at.ctx.requestId, status }, 'request failed');
    loggedFaults.add(converted);
  }
  return converted;
}

/**
 * The one middleware in front of every procedure, on every surface (/v1, /trpc, in-process callers).
 *
 * On the way in: text the database cannot store or that is not what was sent (NUL, a lone
 * surrogate), a prototype-naming key or a nesting deeper than MAX_NESTING is 400 naming the field;
 * the rest goes on in Unicode NFC (lib/input-text.ts).
 *
 * On the way out, failures become the service's error catalogue in one place: input that fails its
 * schema becomes 400 or 422 with pointers, an unexpected fault becomes a 500. Every answer of status
 * 500 or more (an AppError of a 5xx code included) is logged here with its cause and the request
 * id; the answer itself carries nothing internal (problem.ts).
 *
 * (One middleware rather than two: each level of tRPC's middleware chain copies its options and
 * context.)
 */
const entry = t.middleware(async ({ next, meta, ctx, path, getRawInput }) => {
  let raw: unknown;
  try {
    raw = await getRawInput();
  } catch (cause) {
    throw convertFailure(getTRPCErrorFromUnknown(cause), undefined, { meta, ctx, path });
  }
  // One walk: the first fault, else the input normalized (lib/input-text.ts).
  const checked = checkedInput(raw);
  if (checked.fault) {
    const { fault } = checked;
    const pointer = pointerFor(fault.path, locator(meta));
    throw new AppError('invalid_request', { detail: `${pointer ? pointerLabel(pointer) : 'input'} ${fault.detail}`, errors: [{ pointer, detail: fault.detail }] });
  }
  const normalized = checked.value;
  const result = await next({ getRawInput: async () => normalized });
  if (result.ok) return result;
  throw convertFailure(result.error, raw, { meta, ctx, path });
});

export const publicProcedure = t.procedure.use(entry);
