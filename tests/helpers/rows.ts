import { queryRows, sql, type Database } from '../../src/db/client';

/** Rows of every tenant table (those with an organization_id column) belonging to one organization. */
export async function countTenantRows(db: Database, organizationId: string): Promise<Record<string, number>> {
  const tables = await queryRows<{ table_name: string }>(
    db,
    sql`select table_name from information_schema.columns
        where table_schema = 'public' and column_name = 'organization_id' order by table_name`,
  );
  const out: Record<string, number> = {};
  for (const { table_name } of tables) {
    const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${sql.identifier(table_name)} where organization_id = ${organizationId}`);
    out[table_name] = Number(row?.n ?? 0);
  }
  return out;
}
