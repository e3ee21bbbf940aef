import { sql } from 'drizzle-orm';
import type { Database } from '../client';
import { queryRows } from '../client';
import { sequences } from '../schema';

/**
 * Hands out the next value (1, 2, ...) of the organization's sequence `name` (e.g. `claim:2026`,
 * `sales_invoice:2026`); the row is created on first use. The upsert takes a row lock held until the
 * surrounding transaction ends, so concurrent callers queue on it: no duplicates, and a rolled-back
 * transaction gives its number back (no gaps).
 */
export async function nextSequenceValue(db: Database, q: { organizationId: string; name: string }): Promise<number> {
  const rows = await queryRows<{ last_value: number | string }>(
    db,
    sql`insert into ${sequences} (organization_id, name, last_value) values (${q.organizationId}, ${q.name}, 1)
        on conflict (organization_id, name) do update set last_value = ${sequences}.last_value + 1
        returning last_value`,
  );
  const value = rows[0]?.last_value;
  if (value === undefined) throw new Error(`sequence ${q.name} returned no row`);
  return Number(value);
}
