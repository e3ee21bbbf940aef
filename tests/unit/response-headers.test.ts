import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/lib/errors';
import { answerOfHeaders, rateLimitHeaders, refusalHeaders, replayHeaders } from '../../src/routers/middleware/response-headers';
import { rateLimitedError } from '../../src/services/rate-limit/limits';

describe('services report state, the edge names the headers', () => {
  it('a 429 from the limits carries the limit state and when to retry, no headers', () => {
    const e = rateLimitedError({ name: 'key', limit: 5, remaining: 0, resetSeconds: 0, allowed: false });
    expect(e.headers).toBeUndefined();
    expect(e.retryAfterSeconds).toBe(1);
    expect(refusalHeaders(e)).toEqual({ 'RateLimit-Limit': '5', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '0', 'Retry-After': '1' });
  });

  it('every 401 gets the Bearer challenge at the edge', () => {
    expect(refusalHeaders(new AppError('unauthenticated', { detail: 'x' }))).toEqual({ 'WWW-Authenticate': 'Bearer' });
    expect(refusalHeaders(new AppError('idempotency_in_progress', { retryAfterSeconds: 1 }))).toEqual({ 'Retry-After': '1' });
  });

  it('a stored answer keeps ETag and Location only; a replay adds Idempotent-Replayed', () => {
    const answer = answerOfHeaders(201, { ETag: '"1"', Location: '/v1/x/1', 'RateLimit-Limit': '5' }, { id: 1 });
    expect(answer).toEqual({ status: 201, body: { id: 1 }, etag: '"1"', location: '/v1/x/1' });
    expect(replayHeaders({ ...answer, replayed: true })).toEqual({ ETag: '"1"', Location: '/v1/x/1', 'Idempotent-Replayed': 'true' });
    expect(rateLimitHeaders({ limit: 3, remaining: 2, resetSeconds: 60 })).toEqual({ 'RateLimit-Limit': '3', 'RateLimit-Remaining': '2', 'RateLimit-Reset': '60' });
  });
});
