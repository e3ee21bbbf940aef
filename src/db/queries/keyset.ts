import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/**
 * The keyset condition of set-up lists ordered by (key, id) ascending: rows after the previous page's
 * last one. `cast` names the key's type when it is not text (`date`), so the comparison is typed.
 */
export function afterKey(key: AnyColumn, id: AnyColumn, after: { value: string | null; id: string } | undefined, cast?: 'date'): SQL | undefined {
  if (!after || after.value === null) return undefined;
  const value = cast ? sql`${after.value}::${sql.raw(cast)}` : sql`${after.value}`;
  return sql`(${key}, ${id}) > (${value}, ${after.id}::uuid)`;
}

/**
 * A transaction-scoped advisory lock on one organization's piece of set-up (its org chart, one
 * member's assignments), so two concurrent changes checking the same rule (no cycle, no overlap)
 * run one after the other. Released at commit or rollback.
 */
export async function lockSetupScope(db: { execute: (q: SQL) => Promise<unknown> }, organizationId: string, scope: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${organizationId}:${scope}`}, 0))`);
}
