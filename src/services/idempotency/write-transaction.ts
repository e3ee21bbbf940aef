import type { Database } from '../../db/client';
import type { FaultHooks } from '../../deps';
import { AppError } from '../../lib/errors';
import type { Principal } from '../access/principal';
import {
  findStoredAnswer,
  idempotencyKeyRequired,
  idempotencyScope,
  IN_PROGRESS_RETRY_AFTER_SECONDS,
  parseIdempotencyKey,
  requestFingerprint,
  storeAnswer,
  tryLockKey,
  type KeyRef,
  type StoredAnswer,
} from './idempotency';

/** Headers of a success that belong to the stored answer and are replayed with it. */
export const REPLAYED_HEADERS = ['ETag', 'Location'] as const;

export interface WriteDeps {
  db: Database;
  now: () => Date;
  faults?: FaultHooks;
}

export interface WriteRequest {
  principal: Principal;
  /** Raw Idempotency-Key header value. */
  idempotencyKey: string | undefined;
  /** HTTP method of the operation (POST for a tRPC mutation). */
  method: string;
  /** Route template: the procedure path (or a fixed name for a plain fastify route). */
  route: string;
  /** The request's input: path parameters and body (a file upload: its digest, name and type). */
  input: unknown;
}

export interface WriteSteps<R> {
  /** Runs the write inside the transaction. */
  run(tx: Database): Promise<R>;
  /** The answer to store when `result` is a success; undefined for a refusal (rolled back, not stored). */
  answerOf(result: R): { status: number; headers: Record<string, string>; body: unknown } | undefined;
  /** The result standing for a stored answer (its headers already carry Idempotent-Replayed: true). */
  replay(stored: StoredAnswer): R;
}

/**
 * One write, idempotent and in one transaction (DESIGN section 7), for any transport:
 *
 * 1. Read the Idempotency-Key: required with an API key (422 idempotency_key_required), optional and
 *    honoured with a session; scoped to the API key, or to the session's member.
 * 2. Open the transaction; take the key's transaction-scoped advisory lock without waiting.
 * 3. A stored answer of the same fingerprint is replayed; of another, 409 idempotency_key_reused.
 *    No stored answer and the lock held elsewhere: the first request is still running, 409
 *    idempotency_in_progress with Retry-After.
 * 4. Otherwise run the write and store its answer in the same transaction, so a crash stores neither
 *    the record nor the key. A refusal rolls everything back and stores nothing.
 */
export async function runWrite<R>(deps: WriteDeps, req: WriteRequest, steps: WriteSteps<R>): Promise<R> {
  const key = parseIdempotencyKey(req.idempotencyKey);
  if (!key && req.principal.via === 'api_key') throw idempotencyKeyRequired();
  const ref: KeyRef | undefined = key ? { organizationId: req.principal.organizationId, scope: idempotencyScope(req.principal), key } : undefined;
  const fingerprint = ref ? requestFingerprint(req) : '';
  const now = deps.now();

  const rollback = Symbol('rollback');
  let refused: { result: R } | undefined;
  try {
    return await deps.db.transaction(async (t) => {
      const tx = t as unknown as Database;
      if (ref) {
        const locked = await tryLockKey(tx, ref);
        // Read after the lock attempt: a committed answer is visible to this statement. Without the
        // lock, a stored answer means the holder is only replaying it too, so it can be replayed here.
        const stored = await findStoredAnswer(tx, ref, now);
        if (!locked && !stored) {
          throw new AppError('idempotency_in_progress', {
            detail: 'The first request with this Idempotency-Key is still running; retry after Retry-After seconds',
            headers: { 'Retry-After': String(IN_PROGRESS_RETRY_AFTER_SECONDS) },
          });
        }
        if (stored) {
          if (stored.fingerprint !== fingerprint) {
            throw new AppError('idempotency_key_reused', {
              detail: 'This Idempotency-Key was used for a different request; use a new key for a new request',
            });
          }
          return steps.replay({ ...stored, headers: { ...stored.headers, 'Idempotent-Replayed': 'true' } });
        }
      }

      const result = await steps.run(tx);
      const answer = steps.answerOf(result);
      if (!answer) {
        refused = { result };
        throw rollback;
      }
      if (ref) {
        const headers = Object.fromEntries(REPLAYED_HEADERS.flatMap((h) => (answer.headers[h] ? [[h, answer.headers[h]]] : [])));
        await storeAnswer(tx, ref, { fingerprint, route: req.route, status: answer.status, body: answer.body, headers }, now);
      }
      await deps.faults?.beforeCommit?.({ path: req.route, db: tx });
      return result;
    });
  } catch (e) {
    if (e === rollback && refused) return refused.result;
    throw e;
  }
}
