import fastifyApiReference from '@scalar/fastify-api-reference';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { fastifyTRPCOpenApiPlugin } from 'trpc-to-openapi';
import type { AppDeps } from './deps';
import { registerHealthRoutes } from './http/health';
import { registerMetrics } from './http/metrics';
import { ERROR_CATALOGUE, isAppError, type ErrorCode } from './lib/errors';
import { problemForCode, problemFromError, SERVER_FAULT_DETAIL, type Problem } from './lib/problem';
import { registerContentRoute } from './routers/documents/content-route';
import { registerUploadRoute } from './routers/documents/upload-route';
import { registerInvoicePdfRoute } from './routers/receivables/invoices/pdf-route';
import { guardRefusedRequest } from './routers/route-guard';
import { appRouter } from './routers/app';
import './services/register';
import { createContextFactory, type Context } from './routers/context';
import { refusalHeaders as appErrorHeaders } from './routers/middleware/response-headers';
import { loggedFaults } from './routers/trpc';
import { buildOpenApiDocument } from './routers/openapi';

const BODY_LIMIT = 1024 * 1024;

declare module 'fastify' {
  interface FastifyRequest {
    /** The URL as the client sent it (the REST adapter rewrites `raw.url`). */
    originalPath?: string;
  }
}

/** Copies what procedures set on `ctx.out` onto the answer, and error statuses from the problem. */
function responseMeta(opts: { ctx?: Context; errors: readonly { cause?: unknown }[] } & Record<string, unknown>) {
  const headers: Record<string, string> = { ...(opts.ctx?.out.headers ?? {}) };
  const error = opts.errors[0] as (Error & { status?: number }) | undefined;
  if (error) {
    // Only headers that belong to a refusal survive an error (no ETag of a record that was not written).
    const refusalHeaders = Object.fromEntries(Object.entries(headers).filter(([k]) => /^(ratelimit-|retry-after)/i.test(k)));
    // A refusal the adapter raised itself (not an AppError) answers the status of the problem it becomes.
    const own = isAppError(error) ? appErrorHeaders(error) : {};
    return { status: error.status ?? problemFromError(error).status, headers: { ...refusalHeaders, ...own } };
  }
  return { status: opts.ctx?.out.status ?? 200, headers };
}

function problemBody(req: FastifyRequest, status: number, problem: Problem | undefined): Problem {
  // A refusal the adapter answered on its own (an unknown path) still gets a detail.
  const base = problem ?? problemForCode(codeForStatus(status), status === 404 ? 'No such resource' : ERROR_CATALOGUE[codeForStatus(status)].title);
  if (status >= 500) {
    // Nothing internal in a fault's answer: the generic detail and the request id the log is filed under.
    const { errors: _errors, ...rest } = base;
    return { ...rest, status: base.status ?? status, detail: SERVER_FAULT_DETAIL, instance: `urn:request:${req.id}`, request_id: String(req.id) };
  }
  return { ...base, status: base.status ?? status, instance: req.originalPath ?? req.url, request_id: String(req.id) };
}

/**
 * Logs a fault (status 500 or more) with its cause and the request id, unless the procedure
 * pipeline already did (trpc.ts): the adapters' onError sees failures outside procedures too.
 */
function logFault(opts: { error: Error & { cause?: unknown }; req: FastifyRequest; path?: string }) {
  const { error, req } = opts;
  if (loggedFaults.has(error)) return;
  const status = (error as { status?: number }).status ?? problemFromError(error).status;
  if (status < 500) return;
  loggedFaults.add(error);
  req.log.error({ err: error.cause ?? error, path: opts.path, requestId: String(req.id), status }, 'request failed');
}

function codeForStatus(status: number): ErrorCode {
  const found = (Object.entries(ERROR_CATALOGUE) as [ErrorCode, { status: number }][]).find(([, e]) => e.status === status);
  return found?.[0] ?? 'internal';
}

/** fastify's own refusals (malformed JSON, empty body, media type, size) rendered as problems. */
function fastifyErrorProblem(error: { code?: string; statusCode?: number; message: string }, maxUpload: number): Problem {
  switch (error.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return problemForCode('payload_too_large', `The file is larger than ${maxUpload} bytes`, [{ pointer: '/file', detail: `must be at most ${maxUpload} bytes` }]);
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return problemForCode('unsupported_media_type', 'Send the file as multipart/form-data with one part named file');
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return problemForCode('invalid_request', 'Send exactly one part named file');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return problemForCode('unsupported_media_type', 'Send the body as application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return problemForCode('invalid_request', 'The request body is missing (send a JSON object)');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return problemForCode('invalid_request', 'The request body is not valid JSON');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return problemForCode('payload_too_large', `The request body is larger than ${BODY_LIMIT} bytes`);
    default:
      if (error.statusCode === 400 || (error as { name?: string }).name === 'SyntaxError') {
        return problemForCode('invalid_request', 'The request body is not valid JSON');
      }
      if (error.statusCode && error.statusCode < 500) return problemForCode(codeForStatus(error.statusCode), error.message);
      return problemForCode('internal', SERVER_FAULT_DETAIL);
  }
}

function sendProblem(req: FastifyRequest, reply: FastifyReply, problem: Problem) {
  return reply
    .code(problem.status)
    .header('content-type', 'application/problem+json; charset=utf-8')
    .send(problemBody(req, problem.status, problem));
}

/** The REST facade: the documented procedures under /v1, every error as application/problem+json. */
async function restFacade(app: FastifyInstance, deps: AppDeps) {
  app.addHook('onRequest', async (req) => {
    req.originalPath = req.url.split('?')[0];
  });

  app.addHook('onSend', async (req, reply, payload) => {
    if (reply.statusCode < 400) return payload;
    if (reply.statusCode < 500 && !reply.hasHeader('ratelimit-limit')) {
      // Refused before any procedure or route guard ran (fastify: malformed JSON, 413, 415; the
      // adapter: unknown path, missing body): an API-key request still goes through authentication
      // and its limits, and answers their headers, or their refusal (401, 429) first.
      const refusal = await guardRefusedRequest(deps, req, reply);
      if (refusal) {
        reply.code(refusal.status).header('content-type', 'application/problem+json; charset=utf-8');
        return JSON.stringify(problemBody(req, refusal.status, problemFromError(refusal)));
      }
    }
    const type = String(reply.getHeader('content-type') ?? '');
    if (type.startsWith('application/problem+json')) return payload;
    let problem: Problem | undefined;
    try {
      const parsed = JSON.parse(String(payload)) as { data?: { problem?: Problem } };
      problem = parsed.data?.problem;
    } catch {
      problem = undefined;
    }
    reply.header('content-type', 'application/problem+json; charset=utf-8');
    // The adapter derives the status from the tRPC code; the problem decides (a body sent without
    // Content-Type is a missing body, 400, though tRPC calls it an unsupported media type).
    if (problem && problem.status !== reply.statusCode) reply.code(problem.status);
    return JSON.stringify(problemBody(req, reply.statusCode, problem));
  });

  app.setErrorHandler((error, req, reply) => {
    // Routes outside the procedures (the upload) throw the same AppErrors (route-guard.ts: 401, 422, 409, 429), with their headers.
    if (isAppError(error)) {
      reply.headers(appErrorHeaders(error));
      if (error.status >= 500) req.log.error({ err: error.cause ?? error, requestId: String(req.id), status: error.status }, 'request failed');
      return sendProblem(req, reply, problemFromError(error));
    }
    const problem = fastifyErrorProblem(error as never, deps.config.DOCUMENT_MAX_BYTES);
    if (problem.status >= 500) req.log.error({ err: error, requestId: String(req.id), status: problem.status }, 'request failed');
    return sendProblem(req, reply, problem);
  });

  app.setNotFoundHandler((req, reply) => sendProblem(req, reply, problemForCode('not_found', 'No such resource')));

  const openApiDocument = buildOpenApiDocument({ rateLimits: deps.rateLimits.settings });
  app.get('/openapi.json', async (_req, reply) => reply.header('cache-control', 'no-cache').send(openApiDocument));

  await registerUploadRoute(app, deps);
  await registerContentRoute(app, deps);
  await registerInvoicePdfRoute(app, deps);

  // The REST adapter's handler sends through reply.send and resolves to undefined, which fastify
  // takes for "nothing sent yet" while an async onSend hook (above) is still running, and sends a
  // second time. Returning the reply tells fastify the handler answered.
  app.addHook('onRoute', (route) => {
    if (!route.url.endsWith('/*')) return;
    const handler = route.handler as (this: unknown, req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
    route.handler = async function (this: unknown, req: FastifyRequest, reply: FastifyReply) {
      const result = await handler.call(this, req, reply);
      return result === undefined ? reply : result;
    } as typeof route.handler;
  });

  await app.register(fastifyTRPCOpenApiPlugin, {
    router: appRouter,
    createContext: createContextFactory(deps, 'rest'),
    responseMeta: responseMeta as never,
    onError: logFault as never,
  });
}

export interface BuildServerOptions {
  logger?: boolean;
  /** A logger of the caller's own (tests read what a fault logs); wins over `logger`. */
  loggerInstance?: FastifyBaseLogger;
}

/** The whole HTTP service, without listening: tests inject into it, main.ts listens. */
export async function buildServer(deps: AppDeps, opts: BuildServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...(opts.loggerInstance ? { loggerInstance: opts.loggerInstance } : { logger: opts.logger ? { level: deps.config.LOG_LEVEL } : false }),
    bodyLimit: BODY_LIMIT,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[A-Za-z0-9._-]{1,100}$/.test(given) ? given : randomUUID();
    },
    routerOptions: { maxParamLength: 500 },
    // The source address of per-address limits: the client's, from X-Forwarded-For, only behind a trusted proxy.
    trustProxy: deps.config.TRUST_PROXY === 'true',
  });

  app.addHook('onSend', async (req, reply, payload) => {
    reply.header('X-Request-Id', String(req.id));
    return payload;
  });
  registerMetrics(app, deps);
  // The rate limits' own connection (Redis, when REDIS_URL is set) closes with the server.
  app.addHook('onClose', async () => {
    await deps.rateLimits.close();
  });

  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      createContext: createContextFactory(deps, 'trpc'),
      responseMeta: responseMeta as never,
      onError: logFault as never,
    },
  });

  await app.register((scope) => restFacade(scope, deps), { prefix: '/v1' });

  await app.register(fastifyApiReference, {
    routePrefix: '/docs',
    configuration: { url: '/v1/openapi.json', title: 'Receivables and Expense Claims API' },
  });

  app.get('/problems/:code', async (req, reply) => {
    const code = (req.params as { code: string }).code;
    const entry = (ERROR_CATALOGUE as Record<string, { status: number; title: string }>)[code];
    if (!entry) return reply.code(404).type('text/plain').send('Unknown problem type');
    return reply
      .type('text/html; charset=utf-8')
      .send(`<!doctype html><title>${code}</title><h1>${entry.title}</h1><p>Status ${entry.status}. Code <code>${code}</code>. See /docs for the operations that answer it.</p>`);
  });

  registerHealthRoutes(app, deps);

  return app;
}
