import fastifyCompress from '@fastify/compress';
import fastifyCors from '@fastify/cors';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { AppDeps } from './deps';
import { registerDocsPage } from './docs-page';
import { isAppError } from './lib/errors';
import { loggerOptions, LOG_SAFETY } from './lib/logging';
import { registerHealthRoutes } from './http/health';
import { registerMetrics } from './http/metrics';
import { registerConsole } from './http/console';
import { problemForCode, problemFromError, SERVER_FAULT_DETAIL, type Problem } from './lib/problem';
import { registerBodyChecks, registerQueryCheck } from './routers/body-parser';
import { answerNotFound, clientErrorHandler, frameworkErrors, guardFacadeMethods, headAsGet, MAX_PARAM_LENGTH, registerEdges, ServedMethods } from './routers/http-edges';
import { codeForStatus, problemBody, sendProblem } from './routers/problem-reply';
import { deferredChildLogger, RequestLogController } from './routers/request-log';
import { registerContentRoute } from './routers/documents/content-route';
import { registerUploadRoute } from './routers/documents/upload-route';
import { registerInvoicePdfRoute } from './routers/receivables/invoices/pdf-route';
import { registerProblemPages } from './routers/problem-pages';
import { guardRefusedRequest } from './routers/route-guard';
import { registerRestAdapter } from './routers/rest-adapter';
import { appRouter } from './routers/app';
import { createContextFactory, type Context } from './routers/context';
import { refusalHeaders as appErrorHeaders } from './routers/middleware/response-headers';
import { loggedFaults } from './routers/trpc';
import { buildOpenApiDocument } from './routers/openapi';

const BODY_LIMIT = 1024 * 1024;
/** Answers smaller than this are sent uncompressed (compressing them costs more than it saves). */
const COMPRESS_THRESHOLD = 1024;

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
  return { status: opts.ctx?.out.status ?? 200, headers, body: opts.ctx?.out.body };
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

/** The REST facade: the documented procedures under /v1, every error as application/problem+json. */
async function restFacade(app: FastifyInstance, deps: AppDeps, served: ServedMethods) {
  app.addHook('onRequest', (req, _reply, done) => {
    req.originalPath = req.url.split('?')[0];
    done();
  });
  // 405 with Allow for a method a path does not serve; HEAD only where GET is, run as GET.
  app.addHook('onRequest', guardFacadeMethods(served));

  app.addHook('onSend', (req, reply, payload, done) => {
    // A success goes out as it is, without a promise; a refusal is rewritten (problemAnswer).
    if (reply.statusCode < 400) return done(null, payload);
    problemAnswer(req, reply, payload).then(
      (body) => done(null, body),
      (err: Error) => done(err),
    );
  });

  async function problemAnswer(req: FastifyRequest, reply: FastifyReply, payload: unknown) {
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
  }

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

  app.setNotFoundHandler((req, reply) => answerNotFound(served, req, reply));

  const openApiDocument = buildOpenApiDocument({ rateLimits: deps.rateLimits.settings });
  served.addDocument('/v1', openApiDocument as never);
  app.get('/openapi.json', async (_req, reply) => reply.header('cache-control', 'no-cache').send(openApiDocument));
  registerQueryCheck(app, openApiDocument as never);

  await registerUploadRoute(app, deps);
  await registerContentRoute(app, deps);
  await registerInvoicePdfRoute(app, deps);

  // One route per documented operation, calling its procedure directly (rest-adapter.ts).
  registerRestAdapter(app, {
    router: appRouter,
    createContext: createContextFactory(deps, 'rest'),
    responseMeta: responseMeta as never,
    onError: logFault as never,
  });
}

/**
 * The server's logger: the service's redaction and serializers (lib/logging.ts) on the configured
 * level, or on the caller's own logger (a test reading what is logged sees what production logs).
 */
function serverLogger(deps: AppDeps, opts: BuildServerOptions) {
  // A request's own logger is made when it first logs (request-log.ts).
  if (opts.loggerInstance) return { loggerInstance: opts.loggerInstance.child({}, LOG_SAFETY) as FastifyBaseLogger, childLoggerFactory: deferredChildLogger };
  return opts.logger ? { logger: loggerOptions(deps.config.LOG_LEVEL), childLoggerFactory: deferredChildLogger } : { logger: false };
}

/**
 * Compression of answers above 1 KiB (gzip, deflate or brotli as the client accepts; request bodies
 * are not decompressed), and CORS only for the origins CORS_ORIGINS lists: none by default, and
 * then no Access-Control-* header is ever sent. Other origins call with bearer tokens only: CORS never
 * allows credentials, so the console's session cookie (SameSite=Strict besides) works from this origin alone.
 */
async function registerTransport(app: FastifyInstance, deps: AppDeps) {
  await app.register(fastifyCompress, { global: true, threshold: COMPRESS_THRESHOLD, globalDecompression: false });
  const origins = deps.config.CORS_ORIGINS;
  if (origins.length === 0) return;
  await app.register(fastifyCors, {
    origin: origins,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'If-Match', 'X-Request-Id'],
    exposedHeaders: ['ETag', 'Location', 'Idempotent-Replayed', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'X-Request-Id'],
    credentials: false,
    maxAge: 600,
  });
}

function trpcOptions(deps: AppDeps) {
  return {
    router: appRouter,
    createContext: createContextFactory(deps, 'trpc'),
    responseMeta: responseMeta as never,
    onError: logFault as never,
  };
}

export interface BuildServerOptions {
  logger?: boolean;
  /** A logger of the caller's own (tests read what a fault logs); wins over `logger`. */
  loggerInstance?: FastifyBaseLogger;
}

/** The whole HTTP service, without listening: tests inject into it, main.ts listens. */
export async function buildServer(deps: AppDeps, opts: BuildServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...serverLogger(deps, opts),
    // The request completion line names who did what (routers/request-log.ts).
    logController: new RequestLogController(),
    bodyLimit: BODY_LIMIT,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[A-Za-z0-9._-]{1,100}$/.test(given) ? given : randomUUID();
    },
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // The router's own refusals (invalid percent-encoding, a path parameter too long) as problems.
    frameworkErrors,
    // Node's refusals before routing (headers over 16 KiB, a request timeout) as problems too.
    clientErrorHandler,
    // The source address of per-address limits: the client's, from X-Forwarded-For, only behind a trusted proxy.
    trustProxy: deps.config.TRUST_PROXY,
  });

  registerBodyChecks(app, { bodyLimit: BODY_LIMIT });

  // Hooks that never wait are written with `done` (no promise per request).
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('X-Request-Id', String(req.id));
    done(null, payload);
  });
  registerMetrics(app, deps);
  const served = new ServedMethods();
  registerEdges(app, served);
  await registerTransport(app, deps);
  // The rate limits' own connection (Redis, when REDIS_URL is set) closes with the server.
  app.addHook('onClose', async () => {
    await deps.rateLimits.close();
  });

  await app.register(async (scope) => {
    scope.addHook('onRequest', async (req) => headAsGet(req));
    // tRPC answers some refusals of its own (a body of another media type: 415) with its JSON error
    // under text/plain; they are JSON like every other tRPC answer. (The adapter sends a fetch
    // Response, whose headers fastify copies after this hook.)
    scope.addHook('onSend', async (_req, _reply, payload) => {
      if (payload instanceof Response && payload.status >= 400 && /^text\/plain/i.test(payload.headers.get('content-type') ?? '')) {
        payload.headers.set('content-type', 'application/json');
      }
      return payload;
    });
    await scope.register(fastifyTRPCPlugin, { prefix: '/trpc', trpcOptions: trpcOptions(deps) });
  });

  await app.register((scope) => restFacade(scope, deps, served), { prefix: '/v1' });

  registerDocsPage(app, (req, reply) => answerNotFound(served, req, reply));

  registerProblemPages(app);

  registerHealthRoutes(app, deps);

  // The people's console at `/` when it is built (dist/web or WEB_DIST_DIR); the API's paths are unchanged.
  await registerConsole(app, deps.config, (req, reply) => answerNotFound(served, req, reply), served);

  return app;
}
