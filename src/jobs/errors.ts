import { isAppError } from '../lib/errors';

/**
 * What a handler throws to steer its job, and the one way a failure is described in `last_error`
 * and in the logs: short, and never SQL, query parameters or secrets (drizzle's error message
 * carries the statement and its parameters, so database errors are named by SQLSTATE only).
 */

/**
 * Thrown by a handler to be retried after exactly `seconds` (instead of the backoff), or with
 * `orBackoff` after `seconds` or the backoff, whichever is later (a failure that repeats slows down).
 * Counts as an attempt.
 */
export class RetryAfter extends Error {
  constructor(
    readonly seconds: number,
    readonly reason = 'the handler asked to be retried later',
    readonly options: { orBackoff?: boolean } = {},
  ) {
    super(reason);
    this.name = 'RetryAfter';
    if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError('RetryAfter needs a number of seconds >= 0');
  }
}

export const LAST_ERROR_MAX_LENGTH = 300;

/** A driver error's SQLSTATE, following drizzle's cause chain. */
function sqlState(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

const isQueryError = (error: Error) => error.name === 'DrizzleQueryError' || /^Failed query/i.test(error.message);

/** The `last_error` of a failure: one line, at most LAST_ERROR_MAX_LENGTH characters. */
export function describeJobError(error: unknown): string {
  let text: string;
  if (error instanceof RetryAfter) text = `retry after ${error.seconds} s: ${error.reason}`;
  else if (isAppError(error)) text = `${error.appCode}: ${error.detail ?? error.message}`;
  else if (sqlState(error) || (error instanceof Error && isQueryError(error))) text = `database error ${sqlState(error) ?? '(no SQLSTATE)'}`;
  else if (error instanceof Error) text = `${error.name}: ${error.message}`;
  else text = 'a non-Error value was thrown';
  const line = text.split('\n')[0]!.trim();
  return line.length > LAST_ERROR_MAX_LENGTH ? `${line.slice(0, LAST_ERROR_MAX_LENGTH - 1)}…` : line;
}
