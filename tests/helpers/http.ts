import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';

/**
 * Every write made with an API key needs an Idempotency-Key: `post` sends a fresh one unless the
 * test sets its own (or sets `idempotency-key: ''` to send none). Idempotency itself is tested in
 * tests/http/idempotency.test.ts.
 */
function withIdempotencyKey(headers: Record<string, string>): Record<string, string> {
  const given = Object.keys(headers).find((k) => k.toLowerCase() === 'idempotency-key');
  if (given === undefined) return { ...headers, 'idempotency-key': randomUUID() };
  if (headers[given] === '') {
    const { [given]: _omit, ...rest } = headers;
    return rest;
  }
  return headers;
}

export function httpHelpers(t: { app: FastifyInstance }) {
  const post = (url: string, body: unknown, token?: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json', ...withIdempotencyKey(headers) },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const get = (url: string, token?: string) =>
    t.app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { post, get };
}
