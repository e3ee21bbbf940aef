/**
 * The REST facade's adapter: every procedure with `meta.openapi` (the mapping trpc-to-openapi reads
 * to write the OpenAPI document) served on its own fastify route, called directly.
 *
 * It answers exactly as trpc-to-openapi's fastify adapter does (input from the query or the JSON body
 * merged with the path parameters, query values coerced and wrapped as its handler does, the same
 * error shape for the facade's problem hook), without what that adapter builds on every call: a
 * fetch `Request` and its `AbortSignal` (whose close listener throws a DOMException per request),
 * node-http shims bound onto the request and reply, a parsed `URL`, a tRPC caller proxy, a walk of
 * the input schema, and a regular-expression scan of every operation to find the one called.
 * fastify's own router finds the route; a path no route has (a trailing slash, another letter case:
 * the mapping's patterns are case-insensitive) goes to the catch-all, which looks it up as
 * trpc-to-openapi would and answers 404 when nothing matches.
 */
import { TRPCError, type AnyProcedure, type AnyRouter } from '@trpc/server';
import { getErrorShape, getTRPCErrorFromUnknown, middlewareMarker } from '@trpc/server/unstable-core-do-not-import';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  coerceSchema,
  forEachOpenApiProcedure,
  getInputOutputParsers,
  getPathRegExp,
  instanceofZodTypeLikeVoid,
  instanceofZodTypeObject,
  instanceofZodTypeOptional,
  normalizePath,
  unwrapZodType,
  zodSupportsCoerce,
} from 'trpc-to-openapi';
import { ZodArray } from 'zod';
import type { OutputMiddleware } from './output-answer';

type AnyRecord = Record<string, unknown>;

interface MiddlewareResult {
  ok: boolean;
  data?: unknown;
  error?: TRPCError;
}
type Middleware = (opts: AnyRecord) => Promise<MiddlewareResult>;

/**
 * A procedure called as tRPC's own caller calls it (@trpc/server 11, `callRecursive` and
 * `createProcedureCaller`): each middleware in turn gets the call's options with the procedure's
 * meta and a `next` that merges the context, input and raw input it is given into the next call's;
 * a throw becomes a failed result; the last result's error is thrown, its data answered. Written
 * here with the language's object spread: tRPC's build copies the options with a transpiled spread
 * helper (property by property through defineProperty), twice per middleware, which was a twentieth
 * of a keyed read. The other surfaces (/trpc, in-process callers) run tRPC's own caller; the suite
 * runs every operation through both.
 */
function runProcedure(procedure: AnyProcedure, opts: CallOptions, skip = -1): Promise<unknown> {
  const def = (procedure as unknown as { _def: { middlewares: Middleware[]; meta: unknown } })._def;
  const { middlewares, meta } = def;
  const { path, type, signal, batchIndex } = opts;
  // Each middleware's options written out whole (one shape for every call, nothing spread from the last).
  const call = async (index: number, ctx: unknown, input: unknown, getRawInput: () => Promise<unknown>): Promise<MiddlewareResult> => {
    // The middleware the caller does the work of (the output middleware, whose answer the adapter
    // writes itself): as if it had called next() and answered its result.
    if (index === skip) return call(index + 1, ctx, input, getRawInput);
    try {
      return await middlewares[index]!({
        path,
        type,
        signal,
        batchIndex,
        ctx,
        input,
        getRawInput,
        meta,
        next: (nextOpts?: AnyRecord) =>
          call(
            index + 1,
            nextOpts?.ctx ? { ...(ctx as AnyRecord), ...(nextOpts.ctx as AnyRecord) } : ctx,
            nextOpts && 'input' in nextOpts ? nextOpts.input : input,
            (nextOpts?.getRawInput as (() => Promise<unknown>) | undefined) ?? getRawInput,
          ),
      });
    } catch (cause) {
      return { ok: false, error: getTRPCErrorFromUnknown(cause), marker: middlewareMarker } as MiddlewareResult;
    }
  };
  return call(0, opts.ctx, undefined, opts.getRawInput).then((result) => {
    if (!result) throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'No result from middlewares - did you forget to `return next()`?' });
    if (!result.ok) throw result.error;
    return result.data;
  });
}

/** What a procedure is called with (tRPC's caller passes the same). */
interface CallOptions {
  path: string;
  type: string;
  ctx: unknown;
  getRawInput: () => Promise<unknown>;
  signal: AbortSignal | undefined;
  batchIndex: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on the REST adapter's routes: the operation's path template, `{id}` as the document writes it. */
    operationTemplate?: string;
  }
  interface FastifyRequest {
    /** Set by the REST adapter's catch-all when it found the operation: its template, as on the operation's own route. */
    operationTemplate?: string;
  }
}

export interface RestAdapterOptions<TContext> {
  router: AnyRouter;
  createContext: (opts: { req: FastifyRequest; res: FastifyReply }) => TContext | Promise<TContext>;
  responseMeta: (opts: {
    type: string;
    paths: string[] | undefined;
    ctx: TContext | undefined;
    data: unknown[];
    errors: TRPCError[];
    eagerGeneration: boolean;
  }) => { status?: number; headers?: Record<string, string>; body?: string | Buffer | undefined } | undefined;
  onError?: (opts: { error: TRPCError; type: string; path: string | undefined; input: unknown; ctx: TContext | undefined; req: FastifyRequest }) => void;
}

/** One operation: its procedure and what its input needs, worked out once. */
interface Operation {
  /** The procedure's dotted path in the router. */
  path: string;
  procedure: AnyProcedure;
  type: string;
  /** Takes its input from the JSON body (POST, PUT, PATCH), else from the query string. */
  useBody: boolean;
  /** The input schema is void-like: the procedure is called without input. */
  noInput: boolean;
  /** The unwrapped object schema whose number, boolean, bigint and date fields accept strings. */
  coercible?: Parameters<typeof coerceSchema>[0];
  coerced: boolean;
  /** Query keys whose schema is an array: a single value is wrapped. */
  arrayKeys: string[];
  /** For the catch-all's lookup, as trpc-to-openapi matches: case-insensitive, `{id}` as one segment. */
  pattern: RegExp;
  method: string;
  /** The path template as the document writes it, under the facade's prefix. */
  template: string;
  /** The output middleware's place in the chain, which the adapter skips to write the answer's text itself (-1: none). */
  outputAt: number;
  /** The answer's JSON text (output-answer.ts, answerTextFor); without an output middleware, JSON.stringify. */
  answerText: (value: unknown) => string | undefined;
}

function operationOf(path: string, procedure: AnyProcedure, method: string, template: string, prefix: string): Operation {
  const { inputParser } = getInputOutputParsers(procedure);
  const unwrapped = unwrapZodType(inputParser as never, true);
  const useBody = method !== 'GET' && method !== 'DELETE';
  const object = zodSupportsCoerce && instanceofZodTypeObject(unwrapped) ? (unwrapped as unknown as Parameters<typeof coerceSchema>[0]) : undefined;
  const arrayKeys: string[] = [];
  if (object && !useBody) {
    for (const [key, shape] of Object.entries((object as unknown as { shape: AnyRecord }).shape)) {
      const inner = instanceofZodTypeOptional(shape as never) ? (shape as { unwrap(): unknown }).unwrap() : shape;
      if (inner instanceof ZodArray) arrayKeys.push(key);
    }
  }
  const middlewares = (procedure as unknown as { _def: { middlewares: Partial<OutputMiddleware>[] } })._def.middlewares;
  const outputAt = middlewares.findIndex((m) => m._type === 'output' && typeof m.answerText === 'function');
  return {
    outputAt,
    answerText: outputAt >= 0 ? middlewares[outputAt]!.answerText! : (value) => JSON.stringify(value),
    path,
    procedure,
    type: procedure._def.type,
    useBody,
    noInput: instanceofZodTypeLikeVoid(unwrapped as never),
    coercible: object,
    coerced: false,
    arrayKeys,
    pattern: getPathRegExp(normalizePath(template)),
    method,
    template: `${prefix}${template}`,
  };
}

/** The query string as trpc-to-openapi reads it: one value as itself, repeated keys as a list, empty values left out. */
function queryInput(query: unknown, arrayKeys: readonly string[]): AnyRecord {
  const input: AnyRecord = {};
  for (const [key, value] of Object.entries((query ?? {}) as AnyRecord)) {
    if (value) input[key] = Array.isArray(value) && value.length === 1 ? value[0] : value;
  }
  for (const key of arrayKeys) {
    if (input[key] !== undefined && !Array.isArray(input[key])) input[key] = [input[key]];
  }
  return input;
}

/** Registers one fastify route per mapped procedure, and the catch-all that answers the rest. Call inside the facade's prefix. */
export function registerRestAdapter<TContext>(app: FastifyInstance, opts: RestAdapterOptions<TContext>) {
  const { router, createContext, responseMeta, onError } = opts;
  const operations: Operation[] = [];

  const send = (reply: FastifyReply, status: number, headers: Record<string, string>, text: string | Buffer | undefined) => {
    reply.code(status).header('content-type', 'application/json');
    for (const [key, value] of Object.entries(headers)) if (value !== undefined) reply.header(key, value);
    return reply.send(text);
  };

  const run = async (op: Operation | undefined, params: AnyRecord, req: FastifyRequest, reply: FastifyReply) => {
    let input: unknown;
    let ctx: TContext | undefined;
    try {
      if (!op) throw new TRPCError({ code: 'NOT_FOUND', message: 'Not found' });
      if (op.useBody) {
        const type = req.headers['content-type'];
        if (!type?.startsWith('application/json')) {
          throw new TRPCError({ code: 'UNSUPPORTED_MEDIA_TYPE', message: type ? `Unsupported content-type "${type}` : 'Missing content-type header' });
        }
      }
      if (!op.noInput) input = Object.assign({}, op.useBody ? req.body : queryInput(req.query, op.arrayKeys), params);
      if (op.coercible && !op.coerced) {
        // As the adapter does on every call (it sets `coerce` on the schema's own fields); once is enough.
        coerceSchema(op.coercible);
        op.coerced = true;
      }
      ctx = await createContext({ req, res: reply });
      const data = await runProcedure(
        op.procedure,
        { path: op.path, getRawInput: async () => input, ctx, type: op.type, signal: undefined, batchIndex: 0 },
        op.outputAt,
      );
      // The answer as its output schema has it, written in one walk (a failure is the output validator's 500).
      const text = op.answerText(data);
      const meta = responseMeta({ type: op.type, paths: [op.path], ctx, data: [data], errors: [], eagerGeneration: true });
      // A procedure may answer text or bytes of another type (a report as CSV or PDF): its Content-Type is among the headers.
      return send(reply, meta?.status ?? 200, meta?.headers ?? {}, meta?.body ?? text);
    } catch (cause) {
      const error = getTRPCErrorFromUnknown(cause);
      const type = op?.type ?? 'unknown';
      onError?.({ error, type, path: op?.path, input, ctx, req });
      const meta = responseMeta({ type, paths: op ? [op.path] : undefined, ctx, data: [undefined], errors: [error], eagerGeneration: true });
      const shape = getErrorShape({ config: router._def._config, error, type: type as never, path: op?.path, input, ctx }) as AnyRecord;
      const isInputError = error.code === 'BAD_REQUEST' && error.cause instanceof Error && error.cause.name === 'ZodError';
      const body = {
        ...shape,
        message: isInputError ? 'Input validation failed' : (shape.message ?? error.message ?? 'An error occurred'),
        code: error.code,
        issues: isInputError ? (error.cause as unknown as { issues: unknown }).issues : undefined,
      };
      return send(reply, meta?.status ?? 500, meta?.headers ?? {}, JSON.stringify(body));
    }
  };

  forEachOpenApiProcedure(router._def.procedures as never, ({ path, procedure, meta }) => {
    const procedureAny = procedure as unknown as AnyProcedure;
    if (procedureAny._def.type === 'subscription') return;
    const { method, path: template } = meta.openapi;
    const op = operationOf(path, procedureAny, method, template, app.prefix);
    operations.push(op);
    const url = normalizePath(template).replace(/\{(.+?)\}/g, ':$1');
    app.route({
      method,
      url,
      // The operation's template as the document writes it (`/v1/customers/{id}`): the metrics' route label.
      config: { operationTemplate: op.template },
      handler: (req, reply) => run(op, req.params as AnyRecord, req, reply),
    });
  });

  // What fastify's router did not match: found as trpc-to-openapi would (a trailing slash, another
  // letter case), else 404 through the same error path.
  app.route({
    method: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'],
    url: '/*',
    handler: (req, reply) => {
      const prefix = app.prefix;
      const pathname = (req.url.split('?')[0] ?? '').slice(prefix.length);
      const path = normalizePath(pathname);
      for (const op of operations) {
        if (op.method !== req.method) continue;
        const m = op.pattern.exec(path);
        if (m) {
          req.operationTemplate = op.template;
          return run(op, { ...(m.groups ?? {}) }, req, reply);
        }
      }
      return run(undefined, {}, req, reply);
    },
  });
}
