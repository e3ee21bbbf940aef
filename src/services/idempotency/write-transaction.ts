import type { Database } from '../../db/client';
import type { FaultHooks } from '../../deps';
import { AppError } from '../../lib/errors';
import type { Principal } from '../access/principal';
import {
  AnswerStoredMeanwhile,
  lockAndFindStoredAnswer,
  idempotencyKeyRequired,
  idempotencyScope,
  IN_PROGRESS_RETRY_AFTER_SECONDS,
  parseIdempotencyKey,
  requestFingerprint,
  storeAnswer,
  type KeyRef,
} from './idempotency';

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

/** A write's success, as stored under its key: status, body, and the record's etag and location. */
export interface WriteAnswer {
  status: number;
  body: unknown;
  etag?: string;
  location?: string;
}

/** A stored answer given again for a repeated request; the edge marks it as a replay. */
export interface ReplayedAnswer extends WriteAnswer {
  replayed: true;
}

export interface WriteSteps<R> {
  /** Runs the write inside the transaction. */
  run(tx: Database): Promise<R>;
  /** The answer to store when `result` is a success; undefined for a refusal (rolled back, not stored). */
  answerOf(result: R): WriteAnswer | undefined;
  /** The result standing for a stored answer. */
  replay(stored: ReplayedAnswer): R;
}

/**
 * One write, idempotent and in one transaction (docs/design.md §7), for any transport:
 *
 * 1. Read the Idempotency-Key: required with an API key (422 idempotency_key_required), optional and
 *    honoured with a session; scoped to the API key, or to the session's member.
 * 2. Open the transaction; take the key's transaction-scoped advisory lock without waiting, and look
 *    up the stored answer in the same statement.
 * 3. A stored answer of the same fingerprint is replayed; of another, 409 idempotency_key_reused.
 *    No stored answer and the lock held elsewhere: the first request is still running, 409
 *    idempotency_in_progress with the seconds to wait before retrying.
 * 4. Otherwise run the write and store its answer in the same transaction, so a crash stores neither
 *    the record nor the key. A refusal rolls everything back and stores nothing.
 */
export async function runWrite<R>(deps: WriteDeps, req: WriteRequest, steps: WriteSteps<R>): Promise<R> {
  try {
    return await runWriteOnce(deps, req, steps);
  } catch (e) {
    // Another request with the key committed its answer between this one's look-up and its store
    // (see lockAndFindIdempotencyKey): everything here rolled back; once more finds that answer.
    if (e instanceof AnswerStoredMeanwhile) return runWriteOnce(deps, req, steps);
    throw e;
  }
}

async function runWriteOnce<R>(deps: WriteDeps, req: WriteRequest, steps: WriteSteps<R>): Promise<R> {
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
        // One statement: the lock attempt and the look-up. Without the lock, a stored answer means the
        // holder is only replaying it too, so it can be replayed here.
        const { locked, stored } = await lockAndFindStoredAnswer(tx, ref, now);
        if (!locked && !stored) {
          throw new AppError('idempotency_in_progress', {
            detail: 'The first request with this Idempotency-Key is still running; retry after Retry-After seconds',
            retryAfterSeconds: IN_PROGRESS_RETRY_AFTER_SECONDS,
          });
        }
        if (stored) {
          if (stored.fingerprint !== fingerprint) {
            throw new AppError('idempotency_key_reused', {
              detail: 'This Idempotency-Key was used for a different request; use a new key for a new request',
            });
          }
          const { fingerprint: _fingerprint, ...answer } = stored;
          return steps.replay({ ...answer, replayed: true });
        }
      }

      const result = await steps.run(tx);
      const answer = steps.answerOf(result);
      if (!answer) {
        refused = { result };
        throw rollback;
      }
      if (ref) {
        await storeAnswer(tx, ref, { fingerprint, route: req.route, status: answer.status, body: answer.body, etag: answer.etag, location: answer.location }, now);
      }
      await deps.faults?.beforeCommit?.({ path: req.route, db: tx });
      return result;
    });
  } catch (e) {
    if (e === rollback && refused) return refused.result;
    throw e;
  }
}
