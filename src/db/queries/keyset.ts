import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/** The last row of the previous page: lists are ordered by (sort key, id). */
export interface KeysetAfter {
  value: string;
  id: string;
}

/** A set-up list's page query: the organization, whether inactive records are listed, where the page starts, how many rows. */
export interface SetupListQuery {
  organizationId: string;
  includeInactive: boolean;
  after?: KeysetAfter;
  limit: number;
}

/**
 * Keyset pages, the one way every list pages (receivables documents, customers, receipts, claims,
 * set-up lists): rows ordered by (sort key, id), a page starting strictly after the previous page's
 * last row. The position travels in a signed cursor (lib/cursor.ts, services/keyset-page.ts); here
 * is the SQL side: the row comparison, and what a position's value must look like before it is cast.
 */

/** The SQL type a position's value is cast to: its sort key's type (`text_c`: text compared bytewise). */
export type KeyType = 'text' | 'text_c' | 'date' | 'timestamptz' | 'numeric';

/** What a position's value of each key type looks like (its text form as the list query answers it). */
export const KEY_VALUE_PATTERN: Record<KeyType, RegExp> = {
  text: /^[\s\S]*$/,
  text_c: /^[\s\S]*$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  timestamptz: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2}){0,2}$/,
  numeric: /^-?\d+(\.\d+)?$/,
};

function keyValue(value: string, type: KeyType): SQL {
  if (type === 'text') return sql`${value}`;
  if (type === 'text_c') return sql`(${value}::text collate "C")`;
  return sql`${value}::${sql.raw(type)}`;
}

/**
 * Rows after `after` in the list's order: `(key, id) > (value, id)` ascending, `<` descending, one
 * row comparison the (organization, key, id) index serves from the position on.
 */
export function keysetCondition(key: AnyColumn | SQL, id: AnyColumn | SQL, order: 'asc' | 'desc', after: { value: string; id: string }, type: KeyType = 'text'): SQL {
  const op = sql.raw(order === 'asc' ? '>' : '<');
  return sql`(${key}, ${id}) ${op} (${keyValue(after.value, type)}, ${after.id}::uuid)`;
}

/**
 * The keyset condition of set-up lists ordered by (key, id) ascending: rows after the previous page's
 * last one (none for the first page). `cast` names the key's type when it is not text (`date`).
 */
export function afterKey(key: AnyColumn, id: AnyColumn, after: { value: string | null; id: string } | undefined, cast?: 'date'): SQL | undefined {
  if (!after || after.value === null) return undefined;
  return keysetCondition(key, id, 'asc', { value: after.value, id: after.id }, cast ?? 'text');
}

/**
 * A transaction-scoped advisory lock on one organization's piece of set-up (its org chart, one
 * member's assignments), so two concurrent changes checking the same rule (no cycle, no overlap)
 * run one after the other. Released at commit or rollback.
 */
export async function lockSetupScope(db: { execute: (q: SQL) => Promise<unknown> }, organizationId: string, scope: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${organizationId}:${scope}`}, 0))`);
}
