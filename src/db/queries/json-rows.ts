import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';

/**
 * Child rows as one JSON column of the parent's statement (a read in one round trip), decoded back
 * into exactly what `db.select().from(table)` answers: every column by its database name, numerics
 * and 64-bit integers sent as text so no amount passes through a floating-point number.
 */
const AS_TEXT = new Set(['PgNumeric', 'PgBigInt53', 'PgBigInt64']);

const columnLists = new WeakMap<PgTable, [string, PgColumn][]>();

/** A table's columns by property name (a table's columns never change: read once per table). */
function columnsOf(table: PgTable): [string, PgColumn][] {
  let columns = columnLists.get(table);
  if (!columns) columnLists.set(table, (columns = Object.entries(getTableColumns(table)) as [string, PgColumn][]));
  return columns;
}

/** `(select coalesce(json_agg(x order by …), '[]') from (select <columns> from table where …) x)`. */
export function jsonRows(table: PgTable, where: SQL, orderBy: string[]): SQL {
  const list = sql.join(
    columnsOf(table).map(([, c]) => (AS_TEXT.has(c.columnType) ? sql`${sql.identifier(c.name)}::text as ${sql.identifier(c.name)}` : sql.identifier(c.name))),
    sql`, `,
  );
  const order = sql.raw(orderBy.map((o) => `x.${o}`).join(', '));
  return sql`(select coalesce(json_agg(x order by ${order}), '[]'::json) from (select ${list} from ${table} where ${where}) x)`;
}

/** The rows of a jsonRows column, typed and converted as the driver would have. */
export function decodeJsonRows<T extends PgTable>(table: T, value: unknown): T['$inferSelect'][] {
  const rows = (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>[];
  const columns = columnsOf(table);
  return rows.map((raw) => {
    const row: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      const v = raw[column.name];
      row[key] = v === null || v === undefined ? null : column.mapFromDriverValue(v);
    }
    return row as T['$inferSelect'];
  });
}
