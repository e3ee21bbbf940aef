import { sql } from 'drizzle-orm';
import { queryRows } from '../client';
import type { Database } from '../client';

/**
 * Counters of failed logins (schema/login-failures.ts). Not tenant data: a login precedes knowing the
 * organization, so these take the counter's subject instead of an organization id. Every counter is a
 * fixed window that starts with its first unit. An attempt reserves one unit of each of its counters
 * in one atomic statement BEFORE the password is verified (reserveLoginUnits) and gives them back
 * when it was not a failure (releaseLoginUnits), so concurrent attempts can never verify more
 * passwords than a limit allows, on any number of processes.
 */

export type LoginFailureKind = 'address' | 'pair' | 'account';

/** One counter an attempt reserves a unit of, with its window. */
export interface LoginCounter {
  kind: LoginFailureKind;
  subject: string;
  windowSeconds: number;
}

/** Where a counter stands with the reserved unit counted, and the window it was counted in. */
export interface ReservedUnit {
  kind: LoginFailureKind;
  subject: string;
  failures: number;
  windowStartedAt: Date;
}

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** The window of a row's kind, from the counters of this statement (the same kind, the same window). */
function windowOfKind(counters: readonly LoginCounter[]) {
  const cases = sql.join(counters.map((c) => sql`when ${c.kind} then ${c.windowSeconds}`), sql` `);
  return sql`make_interval(secs => (case login_failures.kind ${cases} end)::float8)`;
}

/**
 * Counts one unit on each counter in one statement (rows upserted in the order given, so concurrent
 * statements lock them in the same order), each in its fixed window: a window over at `now` starts
 * again at 1. Answers every counter as it stands with its unit.
 */
export async function reserveLoginUnits(db: Database, q: { counters: readonly LoginCounter[]; now: Date }): Promise<ReservedUnit[]> {
  const now = ts(q.now);
  const values = sql.join(q.counters.map((c) => sql`(${c.kind}, ${c.subject}, 1, ${now}, ${now}, null)`), sql`, `);
  const expired = sql`login_failures.window_started_at + ${windowOfKind(q.counters)} <= ${now}`;
  const rows = await queryRows<{ kind: LoginFailureKind; subject: string; failures: number; window_started_at: Date | string }>(
    db,
    sql`insert into login_failures (kind, subject, failures, window_started_at, last_failed_at, locked_until)
        values ${values}
        on conflict (kind, subject) do update set
          failures = case when ${expired} then 1 else login_failures.failures + 1 end,
          window_started_at = case when ${expired} then ${now} else login_failures.window_started_at end,
          last_failed_at = ${now},
          locked_until = null
        returning kind, subject, failures, window_started_at`,
  );
  return rows.map((r) => ({ kind: r.kind, subject: r.subject, failures: Number(r.failures), windowStartedAt: new Date(r.window_started_at) }));
}

/**
 * Gives reserved units back, each only in the window it was counted in (a window opened since is
 * not touched). An upsert in the reservation's order, so it never deadlocks with one; a counter
 * purged meanwhile comes back at 0 in its ended window (the purge takes it again).
 */
export async function releaseLoginUnits(db: Database, q: { units: readonly ReservedUnit[] }): Promise<void> {
  if (q.units.length === 0) return;
  const values = sql.join(
    q.units.map((u) => sql`(${u.kind}, ${u.subject}, 0, ${ts(u.windowStartedAt)}, ${ts(u.windowStartedAt)}, null)`),
    sql`, `,
  );
  await queryRows(
    db,
    sql`insert into login_failures (kind, subject, failures, window_started_at, last_failed_at, locked_until)
        values ${values}
        on conflict (kind, subject) do update set
          failures = case when login_failures.window_started_at = excluded.window_started_at and login_failures.failures > 0
                          then login_failures.failures - 1 else login_failures.failures end`,
  );
}

/**
 * Deletes up to `batchSize` counters whose window ended (a purge job across every subject; answers
 * how many went): the next attempt starts a new window anyway, so either behaves exactly like a
 * missing row. A kind without a window here (rows of an older scheme) goes once a day has passed.
 */
export async function deleteStaleLoginFailures(
  db: Database,
  q: { now: Date; windows: Partial<Record<LoginFailureKind, number>>; batchSize: number },
): Promise<number> {
  const now = ts(q.now);
  const cases = sql.join(
    Object.entries(q.windows).map(([kind, seconds]) => sql`when ${kind} then ${seconds}`),
    sql` `,
  );
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with gone as (
          delete from login_failures where ctid in (
            select ctid from login_failures
            where window_started_at + make_interval(secs => (case kind ${cases} else 86400 end)::float8) <= ${now}
              and (locked_until is null or locked_until <= ${now})
            limit ${q.batchSize})
          returning 1)
        select count(*)::int as n from gone`,
  );
  return Number(row?.n ?? 0);
}
