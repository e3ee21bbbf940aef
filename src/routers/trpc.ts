import { initTRPC, TRPCError } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { z } from 'zod';
import { AppError } from '../lib/errors';
import { problemFromError, type Problem } from '../lib/problem';
import { inputError } from '../lib/zod-errors';
import type { Context } from './context';

export interface Meta extends OpenApiMeta {
  /** Status of a successful answer when it is not 200 (201 for creates). */
  successStatus?: number;
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

/**
 * Converts failures into the service's error catalogue in one place: input that fails its schema
 * becomes 400 or 422 with pointers, an unexpected fault becomes a logged 500.
 */
const errorConversion = t.middleware(async ({ next, meta, ctx, path }) => {
  const result = await next();
  if (result.ok) return result;
  const error = result.error;
  if (error instanceof AppError) throw error;
  if (error.code === 'BAD_REQUEST' && error.cause instanceof z.ZodError) {
    throw inputError(error.cause, locator(meta));
  }
  if (error.code === 'INTERNAL_SERVER_ERROR') {
    ctx.log.error({ err: error.cause ?? error, path, requestId: ctx.requestId }, 'unhandled error');
  }
  throw error instanceof TRPCError ? error : new AppError('internal', { cause: error });
});

export const publicProcedure = t.procedure.use(errorConversion);
