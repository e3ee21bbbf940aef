import { middlewareMarker } from '@trpc/server/unstable-core-do-not-import';
import type { Database } from '../../db/client';
import { AppError } from '../../lib/errors';
import type { Principal } from '../../services/access/principal';
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
} from '../../services/idempotency/idempotency';
import { middleware } from '../trpc';

/** Headers of a success that belong to the stored answer and are replayed with it. */
const REPLAYED_HEADERS = ['ETag', 'Location'];

/**
 * Idempotency and the transaction of every write, as one step (DESIGN section 7):
 *
 * 1. Read the Idempotency-Key (required with an API key, optional with a session).
 * 2. Open the write's transaction; take the key's transaction-scoped advisory lock without waiting
 *    (held by a running request: 409 idempotency_in_progress with Retry-After).
 * 3. A stored answer with the same fingerprint is replayed (status, body, ETag, Location,
 *    Idempotent-Replayed: true); with another fingerprint, 409 idempotency_key_reused.
 * 4. Otherwise run the handler and store its answer in the same transaction, so a crash stores
 *    neither the record nor the key. Refusals store nothing and may be retried with the same key.
 *
 * The handler sees the transaction as `ctx.db`.
 */
export const writeTransaction = middleware(async ({ ctx, next, path, meta, getRawInput }) => {
  const principal = (ctx as { principal?: Principal }).principal;
  const key = parseIdempotencyKey(ctx.idempotencyKey);
  if (!key && principal?.via === 'api_key') throw idempotencyKeyRequired();

  let ref: KeyRef | undefined;
  let fingerprint = '';
  if (key && principal) {
    ref = { organizationId: principal.organizationId, scope: idempotencyScope(principal), key };
    fingerprint = requestFingerprint({ method: meta?.openapi?.method ?? 'POST', route: path, input: await getRawInput() });
  }
  const now = ctx.deps.now();

  const rollback = Symbol('rollback');
  let failed: Awaited<ReturnType<typeof next>> | undefined;
  try {
    return await ctx.deps.db.transaction(async (t) => {
      const tx = t as unknown as Database;
      if (ref) {
        if (!(await tryLockKey(tx, ref))) {
          throw new AppError('idempotency_in_progress', {
            detail: 'The first request with this Idempotency-Key is still running; retry after Retry-After seconds',
            headers: { 'Retry-After': String(IN_PROGRESS_RETRY_AFTER_SECONDS) },
          });
        }
        const stored = await findStoredAnswer(tx, ref, now);
        if (stored) {
          if (stored.fingerprint !== fingerprint) {
            throw new AppError('idempotency_key_reused', {
              detail: 'This Idempotency-Key was used for a different request; use a new key for a new request',
            });
          }
          ctx.out.status = stored.status;
          Object.assign(ctx.out.headers, stored.headers, { 'Idempotent-Replayed': 'true' });
          // The stored answer stands in for the handler's: nothing below this step runs.
          return { ok: true as const, data: stored.body, marker: middlewareMarker } as unknown as Awaited<ReturnType<typeof next>>;
        }
      }

      const result = await next({ ctx: { db: tx } });
      if (!result.ok) {
        failed = result;
        throw rollback;
      }
      if (ref) {
        const headers = Object.fromEntries(REPLAYED_HEADERS.flatMap((h) => (ctx.out.headers[h] ? [[h, ctx.out.headers[h]]] : [])));
        await storeAnswer(tx, ref, { fingerprint, route: path, status: ctx.out.status ?? 200, body: result.data, headers }, now);
      }
      await ctx.deps.faults?.beforeCommit?.({ path, db: tx });
      return result;
    });
  } catch (e) {
    if (e === rollback && failed) return failed;
    throw e;
  }
});
