import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { CustomerListSort } from '../../domain/receivables';
import { anyOfPlaceholder, executePrepared, oncePerHandle, preparedSelect, withCompiledRowMapping, type Database } from '../client';
import { accounts, counterpartyMappings, customers, taxCodes } from '../schema';
import { decodeJsonRows, jsonRows } from './json-rows';
import { KEY_VALUE_PATTERN, keysetCondition } from './keyset';
import { likePattern } from './like-pattern';

/**
 * The counterparty map rows of an organization that, as at `today`, map one of its customers to
 * another company of a group the organization belongs to (`m.customer_id` names the customer); both
 * organizations must have accepted their place in the group (an invitation grants nothing).
 * The one definition of "group company"; `isGroupCompanySql` and the list's `group` filter use it.
 */
export function groupMappingsFromSql(organizationId: SQL | string, today: string): SQL {
  return sql`counterparty_mappings m
    join company_group_members g_other on g_other.organization_id = m.company_organization_id and g_other.status = 'accepted'
    join company_group_members g_self on g_self.group_id = g_other.group_id and g_self.organization_id = m.organization_id and g_self.status = 'accepted'
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

/** The same customers as a relation with an `id` column, each customer once (to read something per customer). */
export function groupCustomersSql(organizationId: string, today: string): SQL {
  return sql`(select distinct m.customer_id as id from ${groupMappingsFromSql(organizationId, today)})`;
}

/** Customers of the organization mapped, as at `today`, to another company of its group: one InitPlan per statement. */
export function groupCustomerIdsSql(organizationId: string, today: string): SQL {
  return sql`array(select m.customer_id from ${groupMappingsFromSql(organizationId, today)})`;
}

function customerQuery(db: Database) {
  return db
    .select({ customer: customers, isGroupCompany: isGroupCompanySql('customers.organization_id', 'customers.id', sql.placeholder('today') as unknown as string) })
    .from(customers)
    .where(and(eq(customers.organizationId, sql.placeholder('organizationId')), eq(customers.id, sql.placeholder('id'))))
    .prepare('customer_by_id');
}

/** findCustomer's query, built once per database handle. */
const preparedCustomerQuery = oncePerHandle((db) => withCompiledRowMapping(customerQuery(db)));

export async function findCustomer(db: Database, q: { organizationId: string; id: string; today: string }) {
  const [row] = await executePrepared(db, preparedCustomerQuery(db), { organizationId: q.organizationId, id: q.id, today: q.today });
  return row ? { ...row.customer, isGroupCompany: Boolean(row.isGroupCompany) } : undefined;
}

/**
 * findCustomer with the accounts and tax codes a document's lines name, the customer's defaults
 * included, in one statement (what preparing a document reads before it writes). Undefined when the
 * organization has no such customer.
 */
export async function findCustomerWithLineReferences(
  db: Database,
  q: { organizationId: string; id: string; today: string; accountIds: string[]; taxCodeIds: string[] },
) {
  const [row] = await customerWithLineReferencesStatement(db, q);
  if (!row) return undefined;
  return {
    customer: { ...row.customer, isGroupCompany: Boolean(row.isGroupCompany) },
    accounts: decodeJsonRows(accounts, row.accounts),
    taxCodes: decodeJsonRows(taxCodes, row.taxCodes),
  };
}

/** findCustomerWithLineReferences's statement, built once per database handle (a prepared create's first read). */
const customerWithLineReferencesStatement = preparedSelect('customer_with_line_references', (db) =>
  db
    .select({
      customer: customers,
      isGroupCompany: isGroupCompanySql('customers.organization_id', 'customers.id', sql.placeholder('today') as unknown as string),
      accounts: jsonRows(
        accounts,
        sql`${accounts.organizationId} = ${customers.organizationId} and (${anyOfPlaceholder(accounts.id, 'accountIds')} or ${accounts.id} = ${customers.defaultRevenueAccountId})`,
        ['id'],
      ),
      taxCodes: jsonRows(
        taxCodes,
        sql`${taxCodes.organizationId} = ${customers.organizationId} and (${anyOfPlaceholder(taxCodes.id, 'taxCodeIds')} or ${taxCodes.id} = ${customers.defaultTaxCodeId})`,
        ['id'],
      ),
    })
    .from(customers)
    .where(and(eq(customers.organizationId, sql.placeholder('organizationId')), eq(customers.id, sql.placeholder('id')))),
);

export type CustomerRow = NonNullable<Awaited<ReturnType<typeof findCustomer>>>;

/** Locks the customer row (`FOR UPDATE`) of the organization for a change; undefined when there is none. */
export async function lockCustomer(db: Database, q: { organizationId: string; id: string }) {
  const [row] = await db
    .select()
    .from(customers)
    .where(and(eq(customers.organizationId, q.organizationId), eq(customers.id, q.id)))
    .for('update');
  return row;
}

/** Changes a customer of the organization; a code in use raises the unique violation `customers_org_code`. */
export async function updateCustomerRow(db: Database, q: { organizationId: string; id: string }, values: Partial<typeof customers.$inferInsert>) {
  const { organizationId: _org, id: _id, ...changes } = values;
  const [row] = await db
    .update(customers)
    .set(changes)
    .where(and(eq(customers.organizationId, q.organizationId), eq(customers.id, q.id)))
    .returning();
  return row;
}

export type CustomerListOrder = 'asc' | 'desc';

export interface CustomerListFilters {
  q?: string;
  isActive?: boolean;
  group?: 'only' | 'none';
}

export interface CustomerListQuery {
  organizationId: string;
  /** The organization's today: the counterparty map (group filter, is_group_company) is read as at this day. */
  today: string;
  sort: CustomerListSort;
  order: CustomerListOrder;
  filters: CustomerListFilters;
  /** The last row of the previous page: its sort value (text form) and id. */
  after?: { value: string; id: string };
  /** Rows to read: the page size plus one. */
  take: number;
}

/**
 * The sort keys, exactly as the (organization_id, key, id) indexes of the schema spell them, so a
 * page is an index scan from the cursor: codes bytewise, legal names case-insensitively.
 */
const CUSTOMER_SORT_KEY: Record<CustomerListSort, SQL> = {
  code: sql`(${customers.code} collate "C")`,
  legal_name: sql`(lower(${customers.legalName}) collate "C")`,
  created_at: sql`${customers.createdAt}`,
};

/** Text form of each sort key, exact enough to be compared again (timestamps keep their microseconds). */
const CUSTOMER_SORT_VALUE: Record<CustomerListSort, SQL<string>> = {
  code: sql<string>`${customers.code}`,
  legal_name: sql<string>`lower(${customers.legalName})`,
  created_at: sql<string>`${customers.createdAt}::text`,
};

/** What a valid cursor value of each sort looks like (checked before it reaches SQL). */
export const CUSTOMER_SORT_VALUE_PATTERN: Record<CustomerListSort, RegExp> = {
  code: KEY_VALUE_PATTERN.text_c,
  legal_name: KEY_VALUE_PATTERN.text_c,
  created_at: KEY_VALUE_PATTERN.timestamptz,
};

function customerAfter(sort: CustomerListSort, order: CustomerListOrder, after: { value: string; id: string }): SQL {
  return keysetCondition(CUSTOMER_SORT_KEY[sort], customers.id, order, after, sort === 'created_at' ? 'timestamptz' : 'text_c');
}

function customerConditions(q: CustomerListQuery): SQL[] {
  const f = q.filters;
  const out: SQL[] = [sql`${customers.organizationId} = ${q.organizationId}`];
  if (f.q !== undefined) {
    const pattern = likePattern(f.q);
    out.push(sql`(${customers.code} ilike ${pattern} or ${customers.legalName} ilike ${pattern})`);
  }
  if (f.isActive !== undefined) out.push(sql`${customers.isActive} = ${f.isActive}`);
  if (f.group === 'only') out.push(sql`${customers.id} = any(${groupCustomerIdsSql(q.organizationId, q.today)})`);
  if (f.group === 'none') out.push(sql`${customers.id} <> all(${groupCustomerIdsSql(q.organizationId, q.today)})`);
  if (q.after) out.push(customerAfter(q.sort, q.order, q.after));
  return out;
}

/** The page's statement (also what a plan check can EXPLAIN). */
export function listCustomersQuery(db: Database, q: CustomerListQuery) {
  const direction = q.order === 'asc' ? asc : desc;
  return db
    .select({
      customer: customers,
      sortValue: CUSTOMER_SORT_VALUE[q.sort],
      isGroupCompany: isGroupCompanySql('customers.organization_id', 'customers.id', q.today),
    })
    .from(customers)
    .where(and(...customerConditions(q)))
    .orderBy(direction(CUSTOMER_SORT_KEY[q.sort]), direction(customers.id))
    .limit(q.take);
}

/** One page of customers (limit + 1 rows) with the group flag, keyset-ordered by (sort key, id). */
export async function listCustomers(db: Database, q: CustomerListQuery) {
  const rows = await listCustomersQuery(db, q);
  return rows.map((r) => ({ ...r.customer, isGroupCompany: Boolean(r.isGroupCompany), sortValue: r.sortValue }));
}

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

/** Whether the customer is one of the organization's (a trade line or mapping names it). */
export async function customerExists(db: Database, q: { organizationId: string; id: string }): Promise<boolean> {
  const [row] = await db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.organizationId, q.organizationId), eq(customers.id, q.id)));
  return Boolean(row);
}
