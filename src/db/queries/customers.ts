import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../client';
import { customers } from '../schema';

/**
 * True while the customer is mapped, as at `today`, to another company of a group the
 * organization belongs to. Usable in any select or where over a customer id column.
 */
export function isGroupCompanySql(organizationIdColumn: string, customerIdColumn: string, today: string): SQL<boolean> {
  // Qualified column names (drizzle leaves single-table selects unqualified, which is ambiguous here).
  const organizationId = sql.raw(organizationIdColumn);
  const customerId = sql.raw(customerIdColumn);
  return sql<boolean>`exists (
    select 1 from counterparty_mappings m
    join company_group_members g_other on g_other.organization_id = m.company_organization_id
    join company_group_members g_self on g_self.group_id = g_other.group_id and g_self.organization_id = m.organization_id
    where m.organization_id = ${organizationId} and m.customer_id = ${customerId}
      and m.company_organization_id <> m.organization_id
      and m.valid_from <= ${today}::date and (m.valid_to is null or m.valid_to >= ${today}::date))`;
}

export async function findCustomer(db: Database, q: { organizationId: string; id: string; today: string }) {
  const [row] = await db
    .select({ customer: customers, isGroupCompany: isGroupCompanySql('customers.organization_id', 'customers.id', q.today) })
    .from(customers)
    .where(and(eq(customers.organizationId, q.organizationId), eq(customers.id, q.id)));
  return row ? { ...row.customer, isGroupCompany: Boolean(row.isGroupCompany) } : undefined;
}

export type CustomerRow = NonNullable<Awaited<ReturnType<typeof findCustomer>>>;
