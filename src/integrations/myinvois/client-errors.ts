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

/**
 * `message` is safe to show an invoice's readers (and to store as its last error): it is built from
 * the status, the operation and LHDN's own error fields only, never from a raw answer body.
 */
export class MyInvoisError extends Error {
  /** The HTTP status, or null when no answer came (network error, timeout). */
  readonly status: number | null;
  /** LHDN's error code (`error.code`, `errorCode`, or OAuth's `error`), when it gave one. */
  readonly code: string | null;
  /** LHDN's error object, its own fields only (code, message, target, details; or the validation shape's), each cut to 500 characters. */
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
/** Longest text kept from one of LHDN's fields: an answer is not a place to store a page. */
const MAX_FIELD = 500;
/** Most entries kept of a `details` or `innerError` list, and how deep they nest. */
const MAX_ITEMS = 50;
const MAX_DEPTH = 3;
const str = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.slice(0, MAX_FIELD) : null);

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

/**
 * Of an error object, the named fields it has: texts cut to 500 characters (anything else, null),
 * the nested list (`details` or `innerError`) the same way, a few levels deep.
 */
function pick(error: Record<string, unknown>, fields: readonly string[], nested: string, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) if (field in error) out[field] = str(error[field]);
  if (nested in error) {
    const list = error[nested];
    out[nested] = Array.isArray(list) && depth < MAX_DEPTH ? list.filter(isObject).slice(0, MAX_ITEMS).map((item) => pick(item, fields, nested, depth + 1)) : null;
  }
  return out;
}

/** LHDN's API error object `{code, message, target, details}`, its own fields only. */
const apiShape = (error: Record<string, unknown>) => pick(error, ['code', 'message', 'target'], 'details');

/** LHDN's validation error `{propertyName, propertyPath, errorCode, error, errorMS, innerError}`, its own fields only. */
const validationShape = (error: Record<string, unknown>) => pick(error, ['propertyName', 'propertyPath', 'errorCode', 'error', 'errorMS'], 'innerError');

/**
 * LHDN's code, message and error object in an error answer's body (parsed JSON or text). Only LHDN's
 * own error fields are kept, each cut to 500 characters: the answer may come from whatever server
 * was configured, and its error is shown to the invoice's readers. A body that is not one of LHDN's
 * shapes (text, HTML) gives nothing.
 */
export function readLhdnError(body: unknown): { code: string | null; message: string | null; details: unknown } {
  if (!isObject(body)) return { code: null, message: null, details: null };
  const error = body['error'];
  if (isObject(error)) {
    // The API shape; some answers nest the validation shape under `error` instead.
    const validation = 'errorCode' in error && !('code' in error);
    const details = validation ? validationShape(error) : apiShape(error);
    const code = str(error['code']) ?? str(error['errorCode']);
    const message = str(error['message']) ?? str(error['error']) ?? innerMessage(details['details']) ?? innerMessage(details['innerError']);
    return { code, message, details };
  }
  if (str(error) && !('errorCode' in body)) {
    // OAuth (token endpoint): `{error: 'invalid_client', error_description}`.
    return { code: str(error), message: str(body['error_description']), details: { error: str(error), error_description: str(body['error_description']) } };
  }
  if ('errorCode' in body) {
    const details = validationShape(body);
    return { code: str(body['errorCode']), message: str(body['error']) ?? innerMessage(details['innerError']), details };
  }
  // ASP.NET problem details (`{title, status, errors}`), which LHDN's gateway answers to malformed requests.
  const code = str(body['code']);
  const message = str(body['message']) ?? str(body['title']);
  return { code, message, details: code || message ? { code, message } : null };
}
