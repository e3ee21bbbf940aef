import type { AppError, RateLimitState } from '../../lib/errors';
import type { ReplayedAnswer, WriteAnswer } from '../../services/idempotency/write-transaction';

/**
 * The one place that names the HTTP headers of what services report as plain state: limits,
 * refusals, replays. Used by the procedure middlewares, the route guard and the /v1 error handler.
 */

/** The `RateLimit-*` headers of a limit (draft-ietf-httpapi-ratelimit-headers, delta seconds). */
export function rateLimitHeaders(s: RateLimitState): Record<string, string> {
  return {
    'RateLimit-Limit': String(s.limit),
    'RateLimit-Remaining': String(s.remaining),
    'RateLimit-Reset': String(s.resetSeconds),
  };
}

/**
 * The headers of a refusal: the limit it concerns, when to retry, the Bearer challenge of every 401,
 * and any header an edge step attached itself.
 */
export function refusalHeaders(error: AppError): Record<string, string> {
  return {
    ...(error.rateLimit ? rateLimitHeaders(error.rateLimit) : {}),
    ...(error.retryAfterSeconds !== undefined ? { 'Retry-After': String(error.retryAfterSeconds) } : {}),
    ...(error.appCode === 'unauthenticated' ? { 'WWW-Authenticate': 'Bearer' } : {}),
    ...(error.headers ?? {}),
  };
}

/** What of a success's headers is kept with it under an Idempotency-Key. */
export function answerOfHeaders(status: number, headers: Record<string, string>, body: unknown): WriteAnswer {
  return { status, body, ...(headers['ETag'] ? { etag: headers['ETag'] } : {}), ...(headers['Location'] ? { location: headers['Location'] } : {}) };
}

/** The headers of a replayed answer: its record's ETag and Location, and Idempotent-Replayed. */
export function replayHeaders(answer: ReplayedAnswer): Record<string, string> {
  return {
    ...(answer.etag ? { ETag: answer.etag } : {}),
    ...(answer.location ? { Location: answer.location } : {}),
    ...(answer.replayed ? { 'Idempotent-Replayed': 'true' } : {}),
  };
}
