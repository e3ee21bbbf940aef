import { createHash } from 'node:crypto';
import { and, eq, gt } from 'drizzle-orm';
import { queryRows, sql, type Database } from '../client';
import { idempotencyKeys } from '../schema';

/** A stored key: (organization, scope, key). */
export interface IdempotencyKeyRef {
  organizationId: string;
  scope: string;
  key: string;
}

/** The advisory lock id of a key: 64 bits of SHA-256 over (organization, scope, key). */
function lockId(ref: IdempotencyKeyRef): string {
  return createHash('sha256').update(JSON.stringify(['idempotency', ref.organizationId, ref.scope, ref.key])).digest().readBigInt64BE(0).toString();
}

/**
 * Takes the transaction-scoped advisory lock of a key without waiting; false when another
 * transaction holds it. Released at commit or rollback.
 */
export async function tryLockIdempotencyKey(tx: Database, ref: IdempotencyKeyRef): Promise<boolean> {
  const [row] = await queryRows<{ locked: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${lockId(ref)}::bigint) as locked`);
  return row?.locked === true;
}

/** The row stored under a key, unless it has expired by `now`. */
export async function findUnexpiredIdempotencyKey(db: Database, q: IdempotencyKeyRef & { now: Date }) {
  const [row] = await db
    .select({ fingerprint: idempotencyKeys.fingerprint, status: idempotencyKeys.status, body: idempotencyKeys.body, headers: idempotencyKeys.headers })
    .from(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.organizationId, q.organizationId),
        eq(idempotencyKeys.scope, q.scope),
        eq(idempotencyKeys.key, q.key),
        gt(idempotencyKeys.expiresAt, q.now),
      ),
    );
  return row;
}

/** Inserts the row of a key, replacing a row already stored under the same (organization, scope, key). */
export async function upsertIdempotencyKey(
  db: Database,
  q: IdempotencyKeyRef & { values: Omit<typeof idempotencyKeys.$inferInsert, 'organizationId' | 'scope' | 'key'> },
) {
  await db
    .insert(idempotencyKeys)
    .values({ organizationId: q.organizationId, scope: q.scope, key: q.key, ...q.values })
    .onConflictDoUpdate({ target: [idempotencyKeys.organizationId, idempotencyKeys.scope, idempotencyKeys.key], set: q.values });
}

/**
 * Deletes up to `batchSize` keys of ALL organizations that expired by `now`; answers how many went.
 * The one query here without an organization id: a maintenance job across organizations.
 */
export async function deleteExpiredIdempotencyKeysOfAllOrganizations(db: Database, q: { now: Date; batchSize: number }): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with gone as (
          delete from idempotency_keys where ctid in (
            select ctid from idempotency_keys where expires_at <= ${q.now.toISOString()}::timestamptz limit ${q.batchSize})
          returning 1)
        select count(*)::int as n from gone`,
  );
  return Number(row?.n ?? 0);
}
