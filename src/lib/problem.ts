import { TRPCError } from '@trpc/server';
import { ERROR_CATALOGUE, isAppError, pointerLabel, type ErrorCode, type FieldError } from './errors';

/** RFC 9457 problem details, as every /v1 error is answered. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  code?: string;
  instance?: string;
  errors?: FieldError[];
  request_id?: string;
  /** A refused workflow edge: the descriptor's refusal (transition_refused). */
  refusal?: { code: string; detail: string };
  [extension: string]: unknown;
}

export function problemType(code: string): string {
  return `/problems/${code}`;
}

export function problemForCode(code: ErrorCode, detail?: string, errors?: FieldError[]): Problem {
  const entry = ERROR_CATALOGUE[code];
  return {
    type: problemType(code),
    title: entry.title,
    status: entry.status,
    code,
    ...(detail ? { detail } : {}),
    ...(errors && errors.length ? { errors } : {}),
  };
}

const CODE_BY_TRPC: Partial<Record<TRPCError['code'], ErrorCode>> = {
  PARSE_ERROR: 'invalid_request',
  BAD_REQUEST: 'invalid_request',
  UNAUTHORIZED: 'unauthenticated',
  FORBIDDEN: 'forbidden',
  NOT_FOUND: 'not_found',
  METHOD_NOT_SUPPORTED: 'method_not_allowed',
  CONFLICT: 'conflict',
  PAYLOAD_TOO_LARGE: 'payload_too_large',
  UNSUPPORTED_MEDIA_TYPE: 'unsupported_media_type',
  UNPROCESSABLE_CONTENT: 'validation',
  TOO_MANY_REQUESTS: 'rate_limited',
};

/**
 * The detail of every answer of status 500 or more. What went wrong is in the log, under the request
 * id the answer carries (`instance`, `request_id`, `X-Request-Id`); an AppError's own detail of a 5xx
 * code is internal text and never reaches the caller.
 */
export const SERVER_FAULT_DETAIL = 'The service could not complete this request; quote the request id when reporting it';

/** The problem for any error that reached the edge; nothing internal leaks from a 500. */
export function problemFromError(error: unknown): Problem {
  if (isAppError(error)) {
    if (error.status >= 500) return problemForCode(error.appCode, SERVER_FAULT_DETAIL);
    return { ...problemForCode(error.appCode, error.detail, error.fieldErrors), ...(error.extensions ?? {}) };
  }
  if (error instanceof TRPCError) {
    if (error.code === 'UNSUPPORTED_MEDIA_TYPE' && /missing content-type/i.test(error.message)) {
      return problemForCode('invalid_request', 'The request body is missing (send a JSON object with Content-Type: application/json)');
    }
    if (error.code === 'PARSE_ERROR') {
      return problemForCode('invalid_request', 'The request body is not valid JSON');
    }
    const code = CODE_BY_TRPC[error.code];
    if (code) return problemForCode(code, code === 'not_found' ? 'No such resource' : error.message);
  }
  return problemForCode('internal', SERVER_FAULT_DETAIL);
}

export { pointerLabel };
