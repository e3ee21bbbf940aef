/**
 * The one error the MyInvois client throws, and how an answer becomes one. LHDN answers errors in
 * several shapes (research brief section 3): `{error: {code, message, target, details}}` from the API,
 * the documented validation shape `{propertyName, propertyPath, errorCode, error, errorMS, innerError}`,
 * and OAuth's `{error, error_description}` from the token endpoint; all three are read here.
 * `transient` says whether the same request may succeed later (the job layer decides when); the
 * client never loops. Nothing here may carry a request body or a header: they hold the secret and
 * the token.
 */

/** Answers that say "not now" rather than "never": throttled, or the service failing. */
const TRANSIENT_STATUSES = new Set([429, 500, 502, 503, 504]);

export interface MyInvoisErrorInit {
  status: number | null;
  code: string | null;
  details: unknown;
  retryAfterSeconds: number | null;
  /** Overrides the rule by status (a network error or a timeout is transient). */
  transient?: boolean;
  /** `METHOD /path` of the request, for logs. */
  operation: string;
  cause?: unknown;
}

export class MyInvoisError extends Error {
  /** The HTTP status, or null when no answer came (network error, timeout). */
  readonly status: number | null;
  /** LHDN's error code (`error.code`, `errorCode`, or OAuth's `error`), when it gave one. */
  readonly code: string | null;
  /** LHDN's error object as answered (the `error` object of the API shape, else the whole body). */
  readonly details: unknown;
  /** From the Retry-After header (seconds or an HTTP date), when there was one. */
  readonly retryAfterSeconds: number | null;
  readonly transient: boolean;
  readonly operation: string;

  constructor(message: string, init: MyInvoisErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'MyInvoisError';
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.transient = init.transient ?? (init.status !== null && TRANSIENT_STATUSES.has(init.status));
    this.operation = init.operation;
  }
}

/** Seconds to wait from a Retry-After value (delta-seconds or an HTTP date), or null. */
export function parseRetryAfter(value: string | null, now: Date): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** The first message found in a `details` or `innerError` list. */
function innerMessage(list: unknown): string | null {
  if (!Array.isArray(list)) return null;
  for (const item of list) {
    if (!isObject(item)) continue;
    const message = str(item['message']) ?? str(item['error']);
    if (message) return message;
  }
  return null;
}

/** LHDN's code, message and error object in an error answer's body (parsed JSON or text). */
export function readLhdnError(body: unknown): { code: string | null; message: string | null; details: unknown } {
  if (!isObject(body)) return { code: null, message: str(body), details: body ?? null };
  const error = body['error'];
  if (isObject(error)) {
    // The API shape; some answers nest the validation shape under `error` instead.
    const code = str(error['code']) ?? str(error['errorCode']);
    const message = str(error['message']) ?? str(error['error']) ?? innerMessage(error['details']) ?? innerMessage(error['innerError']);
    return { code, message, details: error };
  }
  if (str(error) && !('errorCode' in body)) {
    // OAuth (token endpoint): `{error: 'invalid_client', error_description}`.
    return { code: str(error), message: str(body['error_description']), details: body };
  }
  if ('errorCode' in body) {
    return { code: str(body['errorCode']), message: str(body['error']) ?? innerMessage(body['innerError']), details: body };
  }
  // ASP.NET problem details (`{title, status, errors}`), which LHDN's gateway answers to malformed requests.
  return { code: str(body['code']), message: str(body['message']) ?? str(body['title']), details: body };
}
