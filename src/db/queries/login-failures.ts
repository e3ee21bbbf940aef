import { and, eq, sql } from 'drizzle-orm';
import { queryRows } from '../client';
import type { Database } from '../client';
import { loginFailures } from '../schema';

/**
 * Counters of failed logins (schema/login-failures.ts). Not tenant data: a login precedes knowing the
 * organization, so these take the counter's subject instead of an organization id. Each count is one
 * atomic INSERT ... ON CONFLICT, so concurrent processes never lose a failure.
 */

export type LoginFailureKind = 'address' | 'account';

export async function findLoginFailures(db: Database, q: { kind: LoginFailureKind; subject: string }) {
  const [row] = await db
    .select()
    .from(loginFailures)
    .where(and(eq(loginFailures.kind, q.kind), eq(loginFailures.subject, q.subject)));
  return row;
}

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** Counts one failure from an address in a fixed window that starts with the first failure. */
export async function countAddressFailure(db: Database, q: { address: string; now: Date; windowSeconds: number }) {
  const now = ts(q.now);
  const expired = sql`${loginFailures.windowStartedAt} + make_interval(secs => ${q.windowSeconds}) <= ${now}`;
  const [row] = await db
    .insert(loginFailures)
    .values({ kind: 'address', subject: q.address, failures: 1, windowStartedAt: q.now, lastFailedAt: q.now })
    .onConflictDoUpdate({
      target: [loginFailures.kind, loginFailures.subject],
      set: {
        failures: sql`case when ${expired} then 1 else ${loginFailures.failures} + 1 end`,
        windowStartedAt: sql`case when ${expired} then ${now} else ${loginFailures.windowStartedAt} end`,
        lastFailedAt: now,
      },
    })
    .returning();
  return row!;
}

/**
 * Counts one consecutive failure of an account (a run of failures ends `resetSeconds` after the last
 * one) and sets its lock: none for the first `freeFailures`, then 1 s doubling with each further
 * failure, at most `maxLockSeconds`.
 */
export async function countAccountFailure(
  db: Database,
  q: { subject: string; now: Date; freeFailures: number; maxLockSeconds: number; resetSeconds: number },
) {
  const now = ts(q.now);
  const failures = sql`(case when ${loginFailures.lastFailedAt} + make_interval(secs => ${q.resetSeconds}) <= ${now} then 1 else ${loginFailures.failures} + 1 end)`;
  const lockSeconds = (n: ReturnType<typeof sql>) =>
    sql`least(${q.maxLockSeconds}::float8, power(2::float8, (${n} - ${q.freeFailures} - 1)::float8))`;
  const lockUntil = (n: ReturnType<typeof sql>) =>
    sql`case when ${n} > ${q.freeFailures} then ${now} + make_interval(secs => ${lockSeconds(n)}) else null end`;
  const first = sql`1`;
  const [row] = await db
    .insert(loginFailures)
    .values({
      kind: 'account',
      subject: q.subject,
      failures: 1,
      windowStartedAt: q.now,
      lastFailedAt: q.now,
      lockedUntil: sql`${lockUntil(first)}`,
    })
    .onConflictDoUpdate({
      target: [loginFailures.kind, loginFailures.subject],
      set: { failures, lastFailedAt: now, lockedUntil: lockUntil(failures) },
    })
    .returning();
  return row!;
}

/** A successful login ends the account's run of failures. */
export async function clearAccountFailures(db: Database, q: { subject: string }) {
  await db.delete(loginFailures).where(and(eq(loginFailures.kind, 'account'), eq(loginFailures.subject, q.subject)));
}

/**
 * Deletes up to `batchSize` counters that no longer change any answer (a purge job across every
 * subject; answers how many went): address counters whose window ended (the next failure starts a
 * new window anyway), and account counters whose run was forgotten (`resetSeconds` after the last
 * failure) and whose lock, if any, is over. Either behaves exactly like a missing row.
 */
export async function deleteStaleLoginFailures(
  db: Database,
  q: { now: Date; addressWindowSeconds: number; accountResetSeconds: number; batchSize: number },
): Promise<number> {
  const now = ts(q.now);
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with gone as (
          delete from login_failures where ctid in (
            select ctid from login_failures
            where (kind = 'address' and window_started_at + make_interval(secs => ${q.addressWindowSeconds}) <= ${now})
               or (kind = 'account' and last_failed_at + make_interval(secs => ${q.accountResetSeconds}) <= ${now}
                   and (locked_until is null or locked_until <= ${now}))
            limit ${q.batchSize})
          returning 1)
        select count(*)::int as n from gone`,
  );
  return Number(row?.n ?? 0);
}
