/**
 * Request plumbing for the simulator: body parsers (JSON kept raw, form-urlencoded for the token
 * endpoint), the fault switch (500 or hang), bearer-token authentication (401), per-client rate limits
 * per endpoint (429 with Retry-After and the X-Rate-Limit-* headers) and the `correlationId` header.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isoTime, settleDue, type SimContext } from './context';
import { httpError, sendError } from './errors';

const WINDOW_MS = 60_000;
const BODY_LIMIT = 20 * 1024 * 1024;

export function registerParsers(app: FastifyInstance): void {
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (request, body, done) => {
    const text = String(body);
    request.rawBody = text;
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      const error = Object.assign(new Error('JSON is not valid'), { statusCode: 400 });
      done(error, undefined);
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
  app.setErrorHandler((error: { statusCode?: number; message?: string }, _request, reply) => {
    const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 500;
    const code = status === 500 ? 'InternalServerError' : status === 413 ? 'MaximumSizeExceeded' : 'BadRequest';
    void sendError(reply, status, httpError(code, error.message ?? null));
  });
}

interface Window {
  start: number;
  count: number;
}

export function registerHooks(app: FastifyInstance, ctx: SimContext): void {
  const windows = new Map<string, Window>();

  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('correlationId', randomUUID());
    return payload;
  });

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const endpoint = request.routeOptions.config.endpoint;
    if (endpoint) ctx.store.countRequest(endpoint);
    const fault = ctx.fault;
    if (!fault || !endpoint || (fault.endpoints && !fault.endpoints.includes(endpoint))) return;
    if (fault.mode === 'error') return sendError(reply, 500, httpError('InternalServerError', 'The simulator was told to fail'));
    await new Promise<void>((resolve) => ctx.hanging.add(resolve));
    return sendError(reply, 503, httpError('ServiceUnavailable', 'The simulator closed while the request hung'));
  });

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    const { endpoint, auth } = request.routeOptions.config;
    if (!endpoint) return;
    settleDue(ctx);
    let clientId: string;
    if (auth) {
      const header = request.headers.authorization ?? '';
      const match = /^Bearer (.+)$/.exec(header);
      const token = match ? ctx.store.tokens.get(match[1]!.trim()) : undefined;
      if (!token || token.expiresAt <= ctx.now()) {
        return sendError(reply, 401, httpError('Unauthorized', token ? 'The access token has expired' : 'A valid bearer token is required'));
      }
      request.caller = { clientId: token.clientId, tin: token.tin };
      clientId = token.clientId;
    } else {
      const body = request.body as Record<string, unknown> | undefined;
      clientId = typeof body?.['client_id'] === 'string' ? body['client_id'] : `ip:${request.ip}`;
    }
    const limit = ctx.limits[endpoint];
    const key = `${clientId}|${endpoint}`;
    const now = ctx.now();
    let window = windows.get(key);
    if (!window || now - window.start >= WINDOW_MS) {
      window = { start: now, count: 0 };
      windows.set(key, window);
    }
    const resetAt = window.start + WINDOW_MS;
    reply.header('X-Rate-Limit-Limit', String(limit));
    reply.header('X-Rate-Limit-Reset', isoTime(resetAt));
    if (window.count >= limit) {
      reply.header('X-Rate-Limit-Remaining', '0');
      reply.header('Retry-After', String(Math.max(1, Math.ceil((resetAt - now) / 1000))));
      return sendError(reply, 429, httpError('TooManyRequests', `Rate limit of ${limit} requests per minute exceeded`));
    }
    window.count += 1;
    reply.header('X-Rate-Limit-Remaining', String(limit - window.count));
  });
}
