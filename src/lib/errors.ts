import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';

/** A field at fault: a JSON Pointer into the request body, or `/query/<name>`, `/path/<name>`, `/headers/<name>`. */
export interface FieldError {
  pointer: string;
  detail: string;
  /** A stable code for this fault, where the refusal has one per rule (einvoice_not_ready: the preflight rule). */
  code?: string;
}

interface CatalogueEntry {
  status: number;
  title: string;
}

/**
 * Every stable code a caller can branch on. Handlers and services throw a code; the edge renders
 * it (problem+json on /v1, `error.data.problem` on tRPC).
 */
export const ERROR_CATALOGUE = {
  // 400: the request is not a single JSON object of the endpoint's shape.
  invalid_request: { status: 400, title: 'The request is malformed' },
  // 401: no, malformed, unknown, revoked or expired credentials; session of an inactive member.
  unauthenticated: { status: 401, title: 'Not authenticated' },
  // 401: auth.changePassword with a current password that is not the member's (the session itself stays valid).
  current_password_wrong: { status: 401, title: 'The current password is not right' },
  // 403: authenticated, but the permission the operation needs is not held.
  forbidden: { status: 403, title: 'Permission denied' },
  // 403: a people's decision (issue, approve, pay, ...) taken with an API key: it needs a session.
  person_required: { status: 403, title: 'A person must take this decision' },
  // 403: a request authenticated by the console's session cookie without the console's header, or from another origin or site.
  csrf_refused: { status: 403, title: 'The session cookie may not be used from here' },
  // 403: the caller may not take this workflow edge; `refusal` in the problem names the descriptor's code.
  transition_refused: { status: 403, title: 'The transition is refused for this caller' },
  // 403: a company group changed (name, members, invitations, deactivation) by an organization other than the one that created it.
  company_group_creator_only: { status: 403, title: 'Only the organization that created the company group manages it' },
  // 404: no such record in this organization (another organization's record answers the same).
  not_found: { status: 404, title: 'Not found' },
  // 410: an invitation or password reset link that expired or was already used.
  link_expired: { status: 410, title: 'The link has expired or was already used' },
  // 405: the path exists but not with this method.
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  // 409: the record is in a state that does not allow this.
  conflict: { status: 409, title: 'Conflict with the current state' },
  // 409: the event would post to a journal control account that resolves to no active account.
  journal_account_missing: { status: 409, title: 'A journal account is missing' },
  // 409: If-Match carried a revision that is no longer current (RFC 9110 would say 412).
  revision_mismatch: { status: 409, title: 'The record has changed since you read it' },
  // 409: a role carrying organization.roles.manage_owner created, changed or granted by a member without it.
  owner_role_manage_required: { status: 409, title: 'Only a member who manages the owner role may do this' },
  // 409: the change would leave the caller, or the organization, without anyone able to manage roles.
  self_lockout: { status: 409, title: 'The change would lock the organization out of role management' },
  // 409: the same Idempotency-Key was used for a different request.
  idempotency_key_reused: { status: 409, title: 'Idempotency key reused for a different request' },
  // 409: the first request with this Idempotency-Key is still running.
  idempotency_in_progress: { status: 409, title: 'A request with this idempotency key is in progress' },
  // 409: an attached document already backs another record.
  document_bound_elsewhere: { status: 409, title: 'Document is attached to another record' },
  // 408: the request did not arrive in time (the connection's request timeout).
  request_timeout: { status: 408, title: 'Request timeout' },
  // 413: the body is larger than the endpoint accepts.
  payload_too_large: { status: 413, title: 'Request body too large' },
  // 413: an upload would take the organization's stored files past DOCUMENT_STORAGE_QUOTA_BYTES (documents/upload-document.ts).
  storage_quota_exceeded: { status: 413, title: 'Storage quota exceeded' },
  // 414: the URL is longer than the service reads (8 KiB), or one path segment longer than 500 characters.
  uri_too_long: { status: 414, title: 'URI too long' },
  // 415: the body is not of a media type the endpoint accepts.
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  // 422: well-formed but refused by a rule.
  validation: { status: 422, title: 'Validation failed' },
  // 422: a write with an API key without an Idempotency-Key, or one longer than 255 characters.
  idempotency_key_required: { status: 422, title: 'Idempotency-Key header required' },
  // 422: an attachment id that is not a document the caller uploaded.
  document_not_yours: { status: 422, title: 'Document was uploaded by someone else' },
  // 422: an attachment id that names no document of this organization.
  document_unknown: { status: 422, title: 'Unknown document' },
  // 422: a custom field value refused by its active definition.
  custom_field_invalid: { status: 422, title: 'Custom field value refused' },
  // 422: the sole-owner exception was taken with a blank reason.
  sole_owner_reason_required: { status: 422, title: 'A reason is required for the sole-owner exception' },
  // 422: e-invoicing is on and the draft fails the LHDN preflight; `errors[]` carries {pointer, code, detail} per problem.
  einvoice_not_ready: { status: 422, title: 'The document is not ready for e-invoicing' },
  // 431: the request line and headers are larger than the server reads (16 KiB, Node's limit).
  headers_too_large: { status: 431, title: 'Request headers too large' },
  // 428: a write against an existing record sent no If-Match (send the revision the ETag gave).
  revision_required: { status: 428, title: 'If-Match is required' },
  // 429: a rate limit was reached; Retry-After says when to retry.
  rate_limited: { status: 429, title: 'Too many requests' },
  // 500: a fault of the service; instance carries the request id.
  internal: { status: 500, title: 'Internal server error' },
  // 503: a dependency (the database) is not available.
  unavailable: { status: 503, title: 'Service unavailable' },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/**
 * What a caller should do about each code: one sentence, shown on its /problems/<code> page and in the
 * errors section of the /docs page (src/routers/api-guide.ts), so the two never disagree.
 * tests/http/problems.test.ts requires one for every code of the catalogue.
 */
export const WHAT_TO_DO: Partial<Record<ErrorCode, string>> = {
  journal_account_missing: 'Choose an active account for the role the detail names (PUT /v1/journal/accounts), or reactivate the default chart account, then try again.',
  invalid_request: 'Fix the request to the operation\'s shape (the detail and errors[] name the field): valid JSON, the documented types, formats and fields only; do not retry it unchanged.',
  unauthenticated: 'Send a valid credential as Authorization: Bearer <fk_... API key or fs_... session token>; if it was revoked or expired, get a new one (a new key from an administrator, or log in again).',
  current_password_wrong: 'Type your current password again exactly as you log in with it; after too many wrong attempts wait Retry-After seconds (the same limits as logging in).',
  forbidden: 'Use a credential whose permissions include the one this operation needs, or ask an administrator to grant it (to the member\'s roles, and to the API key).',
  person_required: 'Take this decision as a person: call with a session token (auth.login) instead of an API key.',
  csrf_refused: 'Use the session cookie from the console\'s own pages only: send X-Requested-With: console on every request other than GET and HEAD, from this server\'s own origin; a program sends Authorization: Bearer instead.',
  transition_refused: 'Read available_transitions on the record: refusal.code and refusal.detail say why this caller may not take the edge now (another person, a band, a missing reason or state); do not retry unchanged.',
  not_found: 'Check the id and the organization of the credential: a record of another organization answers the same as one that does not exist.',
  link_expired: 'Ask for a new link: an administrator invites you again (organization.members.invite), or request another password reset from the sign-in page.',
  storage_quota_exceeded: 'Free room first: the organization\'s stored files have reached DOCUMENT_STORAGE_QUOTA_BYTES (the detail says how much is used); files never attached are removed after a day, or ask the operator to raise the quota.',
  company_group_creator_only: 'Ask a person of the organization that created the company group (with organization.settings.manage) to make this change; your organization may only accept, decline or leave.',
  method_not_allowed: 'Use one of the methods the Allow header lists for this path.',
  conflict: 'Read the record again: its state does not allow this now (the detail says why); act on its current state.',
  revision_mismatch: 'Read the record again (GET), look at what changed, and send the write again with If-Match set to the new ETag.',
  owner_role_manage_required: 'Have a member who holds organization.roles.manage_owner make this change.',
  self_lockout: 'Make the change so that you, and at least one active member, keep organization.roles.manage: grant it to someone else first, then make the change.',
  idempotency_key_reused: 'Use a new Idempotency-Key for a different request; reuse a key only to retry exactly the same request.',
  idempotency_in_progress: 'Wait Retry-After seconds and retry with the same Idempotency-Key: you will get the first request\'s answer.',
  document_bound_elsewhere: 'A document backs one record only: upload the file again (POST /documents) and attach the new id.',
  request_timeout: 'Send the whole request promptly on one connection, then retry.',
  payload_too_large: 'Send a smaller body: at most 1 MiB of JSON, or a file within the upload limit.',
  uri_too_long: 'Shorten the URL (at most 8 KiB, 500 characters per path segment): narrow the query or send a shorter search text.',
  unsupported_media_type: 'Send the body as application/json in UTF-8 (multipart/form-data for POST /documents), with a Content-Type that says so.',
  validation: 'Correct the fields errors[] points at (each pointer names one, with the rule it breaks) and send the request again.',
  idempotency_key_required: 'Send an Idempotency-Key header of 1 to 255 characters with every write made with an API key (a fresh UUID per request is a good key).',
  document_not_yours: 'Attach only documents you uploaded yourself: upload the file with your own credential, then attach its id.',
  document_unknown: 'Upload the file first (POST /documents) and send the id it answers.',
  custom_field_invalid: 'Send the custom field a value its definition accepts (type, options, length), or leave it out if it is not required.',
  sole_owner_reason_required: 'Give a reason (not blank) when taking the sole-owner exception.',
  einvoice_not_ready: 'Fix each problem errors[] lists (its code names the LHDN rule: customer TIN, seller identity, tax type, ...) on the draft, its customer or the organization\'s profile, then issue again.',
  headers_too_large: 'Send fewer or smaller headers (at most 16 KiB with the request line).',
  revision_required: 'Send If-Match with the revision the record\'s ETag gave (read it first if you do not have it).',
  rate_limited: 'Wait Retry-After seconds before the next request, and spread requests under the RateLimit-* figures.',
  internal: 'Retry later; if it persists, report it to the operator quoting the request id (instance, request_id, X-Request-Id).',
  unavailable: 'Retry after a short wait (with backoff): the service cannot reach its database just now.',
};

/** The what-to-do sentence of a code (a fallback for a code that has none yet). */
export function whatToDo(code: ErrorCode): string {
  return WHAT_TO_DO[code] ?? 'See the detail of the answer and the operations at /docs.';
}

const TRPC_CODE_BY_STATUS: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  408: 'TIMEOUT',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_CONTENT',
  428: 'PRECONDITION_REQUIRED',
  429: 'TOO_MANY_REQUESTS',
  431: 'BAD_REQUEST',
  500: 'INTERNAL_SERVER_ERROR',
  503: 'SERVICE_UNAVAILABLE',
};

/** Where a request limit stands (services/rate-limit): the edge turns it into RateLimit-* headers. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets. */
  resetSeconds: number;
}

export interface AppErrorOptions {
  detail?: string;
  errors?: FieldError[];
  /** When the caller may retry (a 429, a 409 idempotency_in_progress); the edge names the header. */
  retryAfterSeconds?: number;
  /** The request limit this refusal concerns, to be reported with it. */
  rateLimit?: RateLimitState;
  /**
   * Response headers an edge step (src/routers) attached itself. Services never set headers: they
   * give `retryAfterSeconds` and `rateLimit`, which routers/middleware/response-headers.ts names.
   */
  headers?: Record<string, string>;
  cause?: unknown;
  /** Further members of the problem object (e.g. `refusal` of a transition_refused). */
  extensions?: Record<string, unknown>;
}

/**
 * The one error type of the service. It extends TRPCError (and keeps its name) so that tRPC and
 * trpc-to-openapi pass it through with its status instead of turning it into a 500.
 */
export class AppError extends TRPCError {
  readonly appCode: ErrorCode;
  readonly status: number;
  readonly detail: string | undefined;
  readonly fieldErrors: FieldError[] | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly rateLimit: RateLimitState | undefined;
  readonly headers: Record<string, string> | undefined;
  readonly extensions: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, opts: AppErrorOptions = {}) {
    const entry = ERROR_CATALOGUE[code];
    super({
      code: TRPC_CODE_BY_STATUS[entry.status] ?? 'INTERNAL_SERVER_ERROR',
      message: opts.detail ?? entry.title,
      cause: opts.cause,
    });
    this.name = 'TRPCError';
    this.appCode = code;
    this.status = entry.status;
    this.detail = opts.detail;
    this.fieldErrors = opts.errors;
    this.retryAfterSeconds = opts.retryAfterSeconds;
    this.rateLimit = opts.rateLimit;
    this.headers = opts.headers;
    this.extensions = opts.extensions;
  }
}

/** Shorthand for a 422 `validation` refusal naming one field. */
export function validationError(pointer: string, detail: string): AppError {
  return new AppError('validation', { detail: `${pointerLabel(pointer)}: ${detail}`, errors: [{ pointer, detail }] });
}

/** 404 `not_found` for a record that is absent or of another organization: the same answer for both (`what`: "customer"). */
export function notFound(what: string): AppError {
  return new AppError('not_found', { detail: `No such ${what} in this organization` });
}

/** 409 `conflict` naming the field whose value clashes with the record's current state. */
export function conflict(pointer: string, detail: string, message?: string): AppError {
  return new AppError('conflict', { detail: message ?? detail, errors: [{ pointer, detail }] });
}

export function pointerLabel(pointer: string): string {
  return pointer.replace(/^\//, '').replace(/\//g, '.') || '(body)';
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

/**
 * The answer to a request whose database connection was lost under it (the database restarted or
 * ended the connection): 503 with Retry-After, since the same request shortly after finds the pool
 * connected again. A write sent again with its Idempotency-Key is answered once either way.
 */
export function databaseUnavailable(cause: unknown): AppError {
  return new AppError('unavailable', { detail: 'The connection to the database was lost during the request; retry it', retryAfterSeconds: 1, cause });
}
