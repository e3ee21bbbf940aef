import { eq, sql } from 'drizzle-orm';
import { queryRows, type Database } from '../client';
import { claims, customers, organizations, receipts, receivableDocuments } from '../schema';

/** The organization's own row, for organization.profile.* (the tenant is the record itself). */

export type OrganizationRow = typeof organizations.$inferSelect;

export async function lockOrganization(db: Database, q: { organizationId: string }): Promise<OrganizationRow | undefined> {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, q.organizationId)).for('update');
  return row;
}

export async function updateOrganizationRow(db: Database, q: { organizationId: string }, values: Partial<typeof organizations.$inferInsert>) {
  const [row] = await db.update(organizations).set(values).where(eq(organizations.id, q.organizationId)).returning();
  return row;
}

/**
 * Whether the organization holds any record kept in its base currency (receivables documents,
 * receipts, customers, claims): the base currency is fixed from then on.
 */
export async function organizationHasRecords(db: Database, q: { organizationId: string }): Promise<boolean> {
  const [row] = await queryRows<{ found: boolean }>(
    db,
    sql`select (
      exists (select 1 from ${receivableDocuments} where ${receivableDocuments.organizationId} = ${q.organizationId})
      or exists (select 1 from ${receipts} where ${receipts.organizationId} = ${q.organizationId})
      or exists (select 1 from ${customers} where ${customers.organizationId} = ${q.organizationId})
      or exists (select 1 from ${claims} where ${claims.organizationId} = ${q.organizationId})
    ) as found`,
  );
  return Boolean(row?.found);
}
