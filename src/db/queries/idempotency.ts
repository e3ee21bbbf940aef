import { createHash } from 'node:crypto';
import { preparedBuilder, preparedSql, queryRows, sql, type Database } from '../client';
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
 * The key's advisory lock taken without waiting and the row stored under it (unless expired), in
 * one statement. The row is read in the statement's snapshot, taken before the lock: a request that
 * got the lock just after another committed its answer may not see that answer here. It then runs
 * the write and finds the answer when storing its own (upsertIdempotencyKey refuses to replace a
 * live row), rolls back, and the caller retries and replays.
 */
const lockAndFindStatement = preparedSql<{ locked: boolean; fingerprint: string | null; status: number | null; body: string | null; headers: unknown }>(() => {
  const p = (name: string) => sql.placeholder(name);
  return sql`with l as (select pg_try_advisory_xact_lock(${p('lockId')}::bigint) as locked)
        select l.locked, k.fingerprint, k.status, k.body, k.headers
        from l left join ${idempotencyKeys} k
          on k.organization_id = ${p('organizationId')} and k.scope = ${p('scope')} and k.key = ${p('key')} and k.expires_at > ${p('now')}::timestamptz`;
});

export async function lockAndFindIdempotencyKey(tx: Database, q: IdempotencyKeyRef & { now: Date }) {
  const [row] = await lockAndFindStatement(tx, { lockId: lockId(q), organizationId: q.organizationId, scope: q.scope, key: q.key, now: q.now.toISOString() });
  const locked = row?.locked === true;
  if (!row || row.fingerprint === null) return { locked, stored: undefined };
  return {
    locked,
    stored: {
      fingerprint: row.fingerprint,
      status: Number(row.status),
      body: row.body!,
      headers: idempotencyKeys.headers.mapFromDriverValue(row.headers as string) as Record<string, string>,
    },
  };
}


/**
 * Inserts the row of a key, replacing a row left under the same (organization, scope, key) only when
 * it has expired by `now`. False when a live row is there: another request stored its answer first.
 */
export async function upsertIdempotencyKey(
  db: Database,
  q: IdempotencyKeyRef & { now: Date; values: Omit<typeof idempotencyKeys.$inferInsert, 'organizationId' | 'scope' | 'key'> },
): Promise<boolean> {
  const rows = await upsertStatement(db, { organizationId: q.organizationId, scope: q.scope, key: q.key, ...q.values, now: q.now.toISOString() });
  return rows.length === 1;
}

/** upsertIdempotencyKey's statement, its text built once (the values through the columns' encoders). */
const upsertStatement = preparedBuilder<{ key: string }>((db) => {
  const p = (name: string) => sql.placeholder(name);
  const values = {
    fingerprint: p('fingerprint'),
    route: p('route'),
    status: p('status'),
    body: p('body'),
    headers: p('headers'),
    createdAt: p('createdAt'),
    expiresAt: p('expiresAt'),
  };
  return db
    .insert(idempotencyKeys)
    .values({ organizationId: p('organizationId'), scope: p('scope'), key: p('key'), ...values } as never)
    .onConflictDoUpdate({
      target: [idempotencyKeys.organizationId, idempotencyKeys.scope, idempotencyKeys.key],
      set: values as never,
      setWhere: sql`${idempotencyKeys.expiresAt} <= ${p('now')}::timestamptz`,
    })
    .returning({ key: idempotencyKeys.key });
});

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
