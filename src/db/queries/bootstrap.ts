import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../client';

/** True on a database with no organization yet (start-up seeds the demo then). */
export async function isDatabaseEmpty(db: Database): Promise<boolean> {
  const rows = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from organizations`);
  return Number(rows[0]?.n ?? 0) === 0;
}
