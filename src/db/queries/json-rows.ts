import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { isIdentityDecoder } from '../client';

/**
 * Child rows as one JSON column of the parent's statement (a read in one round trip), decoded back
 * into exactly what `db.select().from(table)` answers: every column by its database name, numerics
 * and 64-bit integers sent as text so no amount passes through a floating-point number.
 */
const AS_TEXT = new Set(['PgNumeric', 'PgBigInt53', 'PgBigInt64']);

const columnLists = new WeakMap<PgTable, [string, PgColumn][]>();

/** A table's columns by property name (a table's columns never change: read once per table). */
export function columnsOf(table: PgTable): [string, PgColumn][] {
  let columns = columnLists.get(table);
  if (!columns) columnLists.set(table, (columns = Object.entries(getTableColumns(table)) as [string, PgColumn][]));
  return columns;
}

/** `(select coalesce(json_agg(x order by …), '[]') from (select <columns> from table where …) x)`. */
export function jsonRows(table: PgTable, where: SQL, orderBy: string[]): SQL {
  return jsonRowsFrom(table, sql`${table} where ${where}`, orderBy);
}

/**
 * jsonRows over any relation that has the table's columns (a CTE's `insert … returning *`):
 * `(select coalesce(json_agg(x order by …), '[]') from (select <columns> from <from>) x)`.
 */
export function jsonRowsFrom(table: PgTable, from: SQL, orderBy: string[]): SQL {
  const list = sql.join(
    columnsOf(table).map(([, c]) => (AS_TEXT.has(c.columnType) ? sql`${sql.identifier(c.name)}::text as ${sql.identifier(c.name)}` : sql.identifier(c.name))),
    sql`, `,
  );
  const order = sql.raw(orderBy.map((o) => `x.${o}`).join(', '));
  return sql`(select coalesce(json_agg(x order by ${order}), '[]'::json) from (select ${list} from ${from}) x)`;
}

const decoders = new WeakMap<PgTable, (rows: Record<string, unknown>[]) => unknown[]>();

/**
 * The function that decodes a table's jsonRows rows: generated once per table, each row one object
 * literal with the table's columns in order, each value through its column's decoder (not called
 * where the column answers the value as it is), a missing or null value null.
 */
function decoderOf(table: PgTable): (rows: Record<string, unknown>[]) => unknown[] {
  let decode = decoders.get(table);
  if (decode) return decode;
  const columns = columnsOf(table);
  const fields = columns
    .map(([key, column], i) => {
      const read = `(v = r[${JSON.stringify(column.name)}]) === null || v === undefined ? null`;
      return `${JSON.stringify(key)}: ${read} : ${isIdentityDecoder(column) ? 'v' : `c[${i}].mapFromDriverValue(v)`}`;
    })
    .join(',\n');
  const body = `return function decodeRows(rows) {\nconst out = new Array(rows.length);\nfor (let i = 0; i < rows.length; i++) {\nconst r = rows[i];\nlet v;\nout[i] = {\n${fields}\n};\n}\nreturn out;\n};`;
  decode = new Function('c', body)(columns.map(([, column]) => column)) as (rows: Record<string, unknown>[]) => unknown[];
  decoders.set(table, decode);
  return decode;
}

/** The rows of a jsonRows column, typed and converted as the driver would have. */
export function decodeJsonRows<T extends PgTable>(table: T, value: unknown): T['$inferSelect'][] {
  const rows = (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>[];
  return decoderOf(table)(rows) as T['$inferSelect'][];
}
