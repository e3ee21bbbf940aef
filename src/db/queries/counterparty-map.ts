import { and, asc, eq, ne, sql, type SQL } from 'drizzle-orm';
import { insertInChunks, anyOf, noneOf } from '../client';
import type { Database } from '../client';
import { companyGroupMembers, companyGroups, counterpartyMappings, customers, organizations } from '../schema';

/**
 * Company groups and the dated counterparty map (settings.companyGroups.*, settings.counterpartyMappings.*).
 * A company group is not a tenant table: it links organizations. Every read here is made on behalf of
 * one organization and only ever reaches the groups that organization is a member of.
 */

export type CompanyGroupRow = typeof companyGroups.$inferSelect & { memberOrganizationIds: string[] };
export type CounterpartyMappingRow = typeof counterpartyMappings.$inferSelect;

/** `true` when `organizationId` is a member of group `g`. */
function memberOf(organizationId: string): SQL {
  return sql`exists (select 1 from ${companyGroupMembers} gm where gm.group_id = ${companyGroups.id} and gm.organization_id = ${organizationId})`;
}

const memberIds = sql<string[]>`array(select gm.organization_id::text from ${companyGroupMembers} gm where gm.group_id = ${companyGroups.id} order by gm.organization_id)`;

/** Groups the organization belongs to, by (name, id). */
export async function listCompanyGroups(
  db: Database,
  q: { organizationId: string; includeInactive: boolean; after?: { value: string; id: string }; limit: number },
): Promise<CompanyGroupRow[]> {
  const where: (SQL | undefined)[] = [memberOf(q.organizationId)];
  if (q.after) where.push(sql`(${companyGroups.name}, ${companyGroups.id}) > (${q.after.value}, ${q.after.id}::uuid)`);
  if (!q.includeInactive) where.push(eq(companyGroups.active, true));
  const rows = await db
    .select({ group: companyGroups, memberOrganizationIds: memberIds })
    .from(companyGroups)
    .where(and(...where))
    .orderBy(asc(companyGroups.name), asc(companyGroups.id))
    .limit(q.limit);
  return rows.map((r) => ({ ...r.group, memberOrganizationIds: r.memberOrganizationIds ?? [] }));
}

/** One group the organization belongs to, under a row lock; undefined for any other group. */
export async function lockCompanyGroup(db: Database, q: { organizationId: string; id: string }): Promise<CompanyGroupRow | undefined> {
  const [row] = await db
    .select()
    .from(companyGroups)
    .where(and(eq(companyGroups.id, q.id), memberOf(q.organizationId)))
    .for('update');
  if (!row) return undefined;
  return { ...row, memberOrganizationIds: await groupMemberIds(db, row.id) };
}

async function groupMemberIds(db: Database, groupId: string): Promise<string[]> {
  const rows = await db
    .select({ id: companyGroupMembers.organizationId })
    .from(companyGroupMembers)
    .where(eq(companyGroupMembers.groupId, groupId))
    .orderBy(asc(companyGroupMembers.organizationId));
  return rows.map((r) => r.id);
}

/** Which of `ids` name an organization (the members a group may be given). */
export async function existingOrganizationIds(db: Database, q: { ids: string[] }): Promise<string[]> {
  if (!q.ids.length) return [];
  const rows = await db.select({ id: organizations.id }).from(organizations).where(anyOf(organizations.id, q.ids));
  return rows.map((r) => r.id);
}

export async function insertCompanyGroupWithMembers(db: Database, q: { name: string; memberOrganizationIds: string[] }): Promise<CompanyGroupRow | undefined> {
  const [group] = await db.insert(companyGroups).values({ name: q.name }).returning();
  if (!group) return undefined;
  if (q.memberOrganizationIds.length) {
    const rows = q.memberOrganizationIds.map((organizationId) => ({ groupId: group.id, organizationId }));
    await insertInChunks(rows, (chunk) => db.insert(companyGroupMembers).values(chunk));
  }
  return { ...group, memberOrganizationIds: [...q.memberOrganizationIds].sort() };
}

/**
 * Changes a group the organization belongs to (the caller checked membership under the lock):
 * name, active, revision, and when given the whole member list.
 */
export async function updateCompanyGroupRow(
  db: Database,
  q: { organizationId: string; id: string },
  values: { name?: string; active?: boolean; revision: number; memberOrganizationIds?: string[] },
): Promise<CompanyGroupRow | undefined> {
  const { memberOrganizationIds, ...columns } = values;
  const [group] = await db
    .update(companyGroups)
    .set(columns)
    .where(and(eq(companyGroups.id, q.id), memberOf(q.organizationId)))
    .returning();
  if (!group) return undefined;
  if (memberOrganizationIds) {
    await db
      .delete(companyGroupMembers)
      .where(memberOrganizationIds.length
        ? and(eq(companyGroupMembers.groupId, group.id), noneOf(companyGroupMembers.organizationId, memberOrganizationIds))
        : eq(companyGroupMembers.groupId, group.id));
    if (memberOrganizationIds.length) {
      const rows = memberOrganizationIds.map((organizationId) => ({ groupId: group.id, organizationId }));
      await insertInChunks(rows, (chunk) => db.insert(companyGroupMembers).values(chunk).onConflictDoNothing());
    }
  }
  return { ...group, memberOrganizationIds: await groupMemberIds(db, group.id) };
}

/** Whether `companyOrganizationId` shares an active group with the organization (and is not itself). */
export async function sharesActiveGroup(db: Database, q: { organizationId: string; companyOrganizationId: string }): Promise<boolean> {
  if (q.organizationId === q.companyOrganizationId) return false;
  const [row] = await db
    .select({ id: companyGroups.id })
    .from(companyGroups)
    .where(
      and(
        eq(companyGroups.active, true),
        memberOf(q.organizationId),
        sql`exists (select 1 from ${companyGroupMembers} gm where gm.group_id = ${companyGroups.id} and gm.organization_id = ${q.companyOrganizationId})`,
      ),
    )
    .limit(1);
  return Boolean(row);
}

/**
 * Locks the customer the mappings are of, so two writers cannot each find no overlap and both
 * insert (the overlap rule is checked under this lock). Undefined when not a customer of the organization.
 */
export async function lockCustomerForMapping(db: Database, q: { organizationId: string; customerId: string }): Promise<{ id: string } | undefined> {
  const [row] = await db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.organizationId, q.organizationId), eq(customers.id, q.customerId)))
    .for('update');
  return row;
}

/** Active mappings of one customer whose period meets [from, to] (to null: open-ended), other than `exceptId`. */
export async function overlappingMappings(
  db: Database,
  q: { organizationId: string; customerId: string; from: string; to: string | null; exceptId?: string },
): Promise<CounterpartyMappingRow[]> {
  const m = counterpartyMappings;
  const where: (SQL | undefined)[] = [
    eq(m.organizationId, q.organizationId),
    eq(m.customerId, q.customerId),
    eq(m.active, true),
    sql`(${m.validTo} is null or ${m.validTo} >= ${q.from}::date)`,
    q.to === null ? undefined : sql`${m.validFrom} <= ${q.to}::date`,
  ];
  if (q.exceptId) where.push(ne(m.id, q.exceptId));
  return db.select().from(m).where(and(...where)).orderBy(asc(m.validFrom), asc(m.id));
}

export async function listCounterpartyMappings(
  db: Database,
  q: { organizationId: string; customerId?: string; includeInactive: boolean; after?: { value: string; id: string }; limit: number },
): Promise<CounterpartyMappingRow[]> {
  const m = counterpartyMappings;
  const where: (SQL | undefined)[] = [eq(m.organizationId, q.organizationId)];
  if (q.customerId) where.push(eq(m.customerId, q.customerId));
  if (!q.includeInactive) where.push(eq(m.active, true));
  if (q.after) where.push(sql`(${m.validFrom}, ${m.id}) > (${q.after.value}::date, ${q.after.id}::uuid)`);
  return db.select().from(m).where(and(...where)).orderBy(asc(m.validFrom), asc(m.id)).limit(q.limit);
}

export async function lockCounterpartyMapping(db: Database, q: { organizationId: string; id: string }): Promise<CounterpartyMappingRow | undefined> {
  const [row] = await db
    .select()
    .from(counterpartyMappings)
    .where(and(eq(counterpartyMappings.organizationId, q.organizationId), eq(counterpartyMappings.id, q.id)))
    .for('update');
  return row;
}

export async function updateCounterpartyMappingRow(
  db: Database,
  q: { organizationId: string; id: string },
  values: Partial<typeof counterpartyMappings.$inferInsert>,
): Promise<CounterpartyMappingRow | undefined> {
  const [row] = await db
    .update(counterpartyMappings)
    .set(values)
    .where(and(eq(counterpartyMappings.organizationId, q.organizationId), eq(counterpartyMappings.id, q.id)))
    .returning();
  return row;
}
