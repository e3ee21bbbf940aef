import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../client';
import { companyGroupMembers, companyGroups, counterpartyMappings, customers } from '../schema';

/**
 * The counterparty map rows of an organization that, as at `today`, map one of its customers to
 * another company of a group the organization belongs to (`m.customer_id` names the customer).
 * The one definition of "group company"; `isGroupCompanySql` and the list's `group` filter use it.
 */
export function groupMappingsFromSql(organizationId: SQL | string, today: string): SQL {
  return sql`counterparty_mappings m
    join company_group_members g_other on g_other.organization_id = m.company_organization_id
    join company_group_members g_self on g_self.group_id = g_other.group_id and g_self.organization_id = m.organization_id
    join company_groups g on g.id = g_self.group_id and g.active
    where m.organization_id = ${organizationId}
      and m.active
      and m.company_organization_id <> m.organization_id
      and m.valid_from <= ${today}::date and (m.valid_to is null or m.valid_to >= ${today}::date)`;
}

/**
 * True while the customer is mapped, as at `today`, to another company of a group the
 * organization belongs to. Usable in any select or where over a customer id column.
 */
export function isGroupCompanySql(organizationIdColumn: string, customerIdColumn: string, today: string): SQL<boolean> {
  // Qualified column names (drizzle leaves single-table selects unqualified, which is ambiguous here).
  const organizationId = sql.raw(organizationIdColumn);
  const customerId = sql.raw(customerIdColumn);
  return sql<boolean>`exists (select 1 from ${groupMappingsFromSql(organizationId, today)} and m.customer_id = ${customerId})`;
}

/** Customers of the organization mapped, as at `today`, to another company of its group: one InitPlan per statement. */
export function groupCustomerIdsSql(organizationId: string, today: string): SQL {
  return sql`array(select m.customer_id from ${groupMappingsFromSql(organizationId, today)})`;
}

export async function findCustomer(db: Database, q: { organizationId: string; id: string; today: string }) {
  const [row] = await db
    .select({ customer: customers, isGroupCompany: isGroupCompanySql('customers.organization_id', 'customers.id', q.today) })
    .from(customers)
    .where(and(eq(customers.organizationId, q.organizationId), eq(customers.id, q.id)));
  return row ? { ...row.customer, isGroupCompany: Boolean(row.isGroupCompany) } : undefined;
}

export type CustomerRow = NonNullable<Awaited<ReturnType<typeof findCustomer>>>;

/** Inserts a customer of `values.organizationId`; a code in use raises the unique violation `customers_org_code`. */
export async function insertCustomer(db: Database, values: typeof customers.$inferInsert & { organizationId: string }) {
  const [row] = await db.insert(customers).values(values).returning();
  return row;
}

/** Maps a customer of the organization to another company for a dated period. */
export async function insertCounterpartyMapping(db: Database, values: typeof counterpartyMappings.$inferInsert & { organizationId: string }) {
  const [row] = await db.insert(counterpartyMappings).values(values).returning();
  return row;
}

/** A group of companies and its member organizations (a group spans organizations by nature). */
export async function insertCompanyGroup(db: Database, q: { name: string; organizationIds: string[] }) {
  const [group] = await db.insert(companyGroups).values({ name: q.name }).returning();
  if (group && q.organizationIds.length) {
    await db.insert(companyGroupMembers).values(q.organizationIds.map((organizationId) => ({ groupId: group.id, organizationId })));
  }
  return group;
}
