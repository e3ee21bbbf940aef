import type { Database } from '../../db/client';
import {
  deleteExpiredIdempotencyKeysOfAllOrganizations,
  lockAndFindIdempotencyKey,
  upsertIdempotencyKey,
} from '../../db/queries/idempotency';
import { canonicalJson } from '../../lib/canonical-json';
import { sha256Hex } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import type { Principal } from '../access/principal';

/** Longest Idempotency-Key accepted (contract section 8). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** How long a key and its answer are kept from first use (contract section 8). */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
/** Seconds a caller is told to wait while the first request with its key is still running. */
export const IN_PROGRESS_RETRY_AFTER_SECONDS = 1;

const POINTER = '/headers/idempotency-key';

/**
 * Reads the Idempotency-Key header: a bare value, or an RFC 8941 sf-string (`"abc"`, with `\"` and
 * `\\` escapes) whose content is the key. Surrounding whitespace is not part of the key.
 * Answers undefined when no key was sent.
 */
export function parseIdempotencyKey(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  let value = raw.trim();
  const quoted = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/.exec(value);
  if (quoted) value = (quoted[1] ?? '').replace(/\\(["\\])/g, '$1');
  if (value.length === 0) return undefined;
  if (value.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw new AppError('idempotency_key_required', {
      detail: `The Idempotency-Key header is longer than ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`,
      errors: [{ pointer: POINTER, detail: `must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters` }],
    });
  }
  return value;
}

export function idempotencyKeyRequired(): AppError {
  return new AppError('idempotency_key_required', {
    detail: 'Writes made with an API key need an Idempotency-Key header (1 to 255 characters)',
    errors: [{ pointer: POINTER, detail: 'is required for writes made with an API key' }],
  });
}

/** The one canonical JSON of the service (lib/canonical-json.ts), which fingerprints hash. */
export { canonicalJson };

/**
 * What makes two requests "the same": method, route template (the procedure path, identical on
 * /v1, /trpc and in-process), and the input, which carries the path parameters merged with the body.
 */
export function requestFingerprint(req: { method: string; route: string; input: unknown }): string {
  return sha256Hex(`${req.method.toUpperCase()}\n${req.route}\n${canonicalJson(req.input ?? null)}`);
}

/** The namespace of a caller's keys: the API key itself, or the session's member (all their sessions). */
export function idempotencyScope(principal: Principal): string {
  return principal.via === 'api_key' ? `api_key:${principal.credentialId}` : `member:${principal.memberId}`;
}

export interface KeyRef {
  organizationId: string;
  scope: string;
  key: string;
}

/** A success as it is kept under a key: what a replay answers. */
export interface StoredAnswer {
  fingerprint: string;
  status: number;
  body: unknown;
  /** The record's ETag value (quoted revision), when the answer had one. */
  etag?: string;
  /** The created record's address, when the answer had one. */
  location?: string;
}

/**
 * The `headers` column keeps etag and location under the keys `ETag` and `Location` (the format of
 * rows already stored; kept so that their replays stay valid).
 */
function toStoredHeaders(answer: { etag?: string; location?: string }): Record<string, string> {
  return { ...(answer.etag ? { ETag: answer.etag } : {}), ...(answer.location ? { Location: answer.location } : {}) };
}

function fromStoredHeaders(headers: Record<string, string>): { etag?: string; location?: string } {
  return { ...(headers.ETag ? { etag: headers.ETag } : {}), ...(headers.Location ? { location: headers.Location } : {}) };
}

/** The key's lock taken without waiting, and the answer stored under it (unless expired), in one statement. */
export async function lockAndFindStoredAnswer(tx: Database, ref: KeyRef, now: Date): Promise<{ locked: boolean; stored: StoredAnswer | undefined }> {
  const { locked, stored } = await lockAndFindIdempotencyKey(tx, { organizationId: ref.organizationId, scope: ref.scope, key: ref.key, now });
  if (!stored) return { locked, stored: undefined };
  return { locked, stored: { fingerprint: stored.fingerprint, status: stored.status, body: JSON.parse(stored.body) as unknown, ...fromStoredHeaders(stored.headers) } };
}

/** Thrown by storeAnswer when another request stored its answer under the key first. */
export class AnswerStoredMeanwhile extends Error {
  constructor() {
    super('another request stored its answer under this Idempotency-Key first');
  }
}


/**
 * Stores a completed success in the write's own transaction. A row left by an expired use of the
 * same key is replaced (the key is new again after 24 hours).
 */
export async function storeAnswer(tx: Database, ref: KeyRef, answer: StoredAnswer & { route: string }, now: Date): Promise<void> {
  const values = {
    fingerprint: answer.fingerprint,
    route: answer.route,
    status: answer.status,
    body: JSON.stringify(answer.body ?? null),
    headers: toStoredHeaders(answer),
    createdAt: now,
    expiresAt: new Date(now.getTime() + IDEMPOTENCY_RETENTION_MS),
  };
  if (!(await upsertIdempotencyKey(tx, { organizationId: ref.organizationId, scope: ref.scope, key: ref.key, now, values }))) throw new AnswerStoredMeanwhile();
}

/**
 * Deletes keys whose 24 hours are over, in batches; answers how many went. A maintenance job across
 * organizations (the one query here without an organization id), run periodically by main.ts.
 */
export async function purgeExpiredIdempotencyKeys(db: Database, now: Date, batchSize = 5000): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await deleteExpiredIdempotencyKeysOfAllOrganizations(db, { now, batchSize });
    total += n;
    if (n < batchSize) return total;
  }
}
