import { and, asc, eq, ne, sql, type SQL } from 'drizzle-orm';
import { insertInChunks, anyOf, noneOf } from '../client';
import type { Database } from '../client';
import { companyGroupMembers, companyGroups, counterpartyMappings, customers, organizations } from '../schema';

/**
 * Company groups and the dated counterparty map (settings.companyGroups.*, settings.counterpartyMappings.*).
 * A company group is not a tenant table: it links organizations. Every read here is made on behalf of
 * one organization and only ever reaches the groups that organization is a member of.
 */

export type CompanyGroupMembership = 'creator' | 'member' | 'invited';
export type CompanyGroupRow = typeof companyGroups.$inferSelect & {
  /** Organizations that accepted (the creator included): only these are group companies of each other. */
  memberOrganizationIds: string[];
  /** Organizations invited and not yet accepted. */
  invitedOrganizationIds: string[];
};
export type CounterpartyMappingRow = typeof counterpartyMappings.$inferSelect;

/** `true` when `organizationId` is in group `g`, invited or accepted (it may see the group). */
function memberOf(organizationId: string): SQL {
  return sql`exists (select 1 from ${companyGroupMembers} gm where gm.group_id = ${companyGroups.id} and gm.organization_id = ${organizationId})`;
}

/** `true` when `organizationId` accepted its place in group `g` (membership that grants something). */
function acceptedMemberOf(organizationId: string): SQL {
  return sql`exists (select 1 from ${companyGroupMembers} gm where gm.group_id = ${companyGroups.id} and gm.organization_id = ${organizationId} and gm.status = 'accepted')`;
}

const idsOf = (status: 'invited' | 'accepted') =>
  sql<string[]>`array(select gm.organization_id::text from ${companyGroupMembers} gm where gm.group_id = ${companyGroups.id} and gm.status = ${status} order by gm.organization_id)`;

/** Groups the organization is in or invited to, by (name, id). */
export async function listCompanyGroups(
  db: Database,
  q: { organizationId: string; includeInactive: boolean; after?: { value: string; id: string }; limit: number },
): Promise<CompanyGroupRow[]> {
  const where: (SQL | undefined)[] = [memberOf(q.organizationId)];
  if (q.after) where.push(sql`(${companyGroups.name}, ${companyGroups.id}) > (${q.after.value}, ${q.after.id}::uuid)`);
  if (!q.includeInactive) where.push(eq(companyGroups.active, true));
  const rows = await db
    .select({ group: companyGroups, memberOrganizationIds: idsOf('accepted'), invitedOrganizationIds: idsOf('invited') })
    .from(companyGroups)
    .where(and(...where))
    .orderBy(asc(companyGroups.name), asc(companyGroups.id))
    .limit(q.limit);
  return rows.map((r) => ({ ...r.group, memberOrganizationIds: r.memberOrganizationIds ?? [], invitedOrganizationIds: r.invitedOrganizationIds ?? [] }));
}

/** One group the organization is in or invited to, under a row lock; undefined for any other group. */
export async function lockCompanyGroup(db: Database, q: { organizationId: string; id: string }): Promise<CompanyGroupRow | undefined> {
  const [row] = await db
    .select()
    .from(companyGroups)
    .where(and(eq(companyGroups.id, q.id), memberOf(q.organizationId)))
    .for('update');
  if (!row) return undefined;
  return withMembers(db, row);
}

async function withMembers(db: Database, group: typeof companyGroups.$inferSelect): Promise<CompanyGroupRow> {
  const rows = await db
    .select({ id: companyGroupMembers.organizationId, status: companyGroupMembers.status })
    .from(companyGroupMembers)
    .where(eq(companyGroupMembers.groupId, group.id))
    .orderBy(asc(companyGroupMembers.organizationId));
  return {
    ...group,
    memberOrganizationIds: rows.filter((r) => r.status === 'accepted').map((r) => r.id),
    invitedOrganizationIds: rows.filter((r) => r.status === 'invited').map((r) => r.id),
  };
}

/** Which of `ids` name an organization (the members a group may be given). */
export async function existingOrganizationIds(db: Database, q: { ids: string[] }): Promise<string[]> {
  if (!q.ids.length) return [];
  const rows = await db.select({ id: organizations.id }).from(organizations).where(anyOf(organizations.id, q.ids));
  return rows.map((r) => r.id);
}

/** A new group created by `createdByOrganizationId` (an accepted member), with the other organizations invited (or, for fixtures, accepted). */
export async function insertCompanyGroupWithMembers(
  db: Database,
  q: { name: string; createdByOrganizationId: string; otherOrganizationIds: string[]; othersStatus: 'invited' | 'accepted' },
): Promise<CompanyGroupRow | undefined> {
  const [group] = await db.insert(companyGroups).values({ name: q.name, createdByOrganizationId: q.createdByOrganizationId }).returning();
  if (!group) return undefined;
  const rows = [
    { groupId: group.id, organizationId: q.createdByOrganizationId, status: 'accepted' as const },
    ...q.otherOrganizationIds.map((organizationId) => ({ groupId: group.id, organizationId, status: q.othersStatus })),
  ];
  await insertInChunks(rows, (chunk) => db.insert(companyGroupMembers).values(chunk));
  return withMembers(db, group);
}

/**
 * Changes a group the organization manages (the caller checked, under the lock, that it created it):
 * name, active, revision.
 */
export async function updateCompanyGroupRow(
  db: Database,
  q: { organizationId: string; id: string },
  values: { name?: string; active?: boolean; revision: number },
): Promise<CompanyGroupRow | undefined> {
  const [group] = await db
    .update(companyGroups)
    .set(values)
    .where(and(eq(companyGroups.id, q.id), eq(companyGroups.createdByOrganizationId, q.organizationId)))
    .returning();
  return group ? withMembers(db, group) : undefined;
}

/**
 * The creator's new member list of a group it manages: every organization of `keepOrInvite` that is
 * not yet in the group is invited; every one in it (but the creator) that is not listed is removed.
 */
export async function setCompanyGroupMembers(db: Database, q: { organizationId: string; id: string; keepOrInvite: string[] }): Promise<void> {
  const listed = [...new Set([q.organizationId, ...q.keepOrInvite])];
  await db.delete(companyGroupMembers).where(and(eq(companyGroupMembers.groupId, q.id), noneOf(companyGroupMembers.organizationId, listed)));
  const rows = listed.map((organizationId) => ({ groupId: q.id, organizationId, status: 'invited' as const }));
  await insertInChunks(rows, (chunk) => db.insert(companyGroupMembers).values(chunk).onConflictDoNothing());
}

/** Bumps the revision of a group the organization is in or invited to (a change of its own membership). */
async function bumpCompanyGroup(db: Database, q: { organizationId: string; id: string; revision: number }) {
  const [group] = await db
    .update(companyGroups)
    .set({ revision: q.revision })
    .where(and(eq(companyGroups.id, q.id), memberOf(q.organizationId)))
    .returning();
  return group;
}

/** The organization's own answer to its invitation: accepted; the group at `revision`. */
export async function acceptCompanyGroupInvitation(db: Database, q: { organizationId: string; id: string; revision: number }): Promise<CompanyGroupRow | undefined> {
  const group = await bumpCompanyGroup(db, q);
  if (!group) return undefined;
  await db
    .update(companyGroupMembers)
    .set({ status: 'accepted' })
    .where(and(eq(companyGroupMembers.groupId, q.id), eq(companyGroupMembers.organizationId, q.organizationId)));
  return withMembers(db, group);
}

/** The organization declines its invitation or leaves the group: its row goes; the group at `revision`. */
export async function removeOwnCompanyGroupMembership(db: Database, q: { organizationId: string; id: string; revision: number }): Promise<CompanyGroupRow | undefined> {
  const group = await bumpCompanyGroup(db, q);
  if (!group) return undefined;
  await db.delete(companyGroupMembers).where(and(eq(companyGroupMembers.groupId, q.id), eq(companyGroupMembers.organizationId, q.organizationId)));
  return withMembers(db, group);
}

/** Whether `companyOrganizationId` shares an active group with the organization (and is not itself), both having accepted. */
export async function sharesActiveGroup(db: Database, q: { organizationId: string; companyOrganizationId: string }): Promise<boolean> {
  if (q.organizationId === q.companyOrganizationId) return false;
  const [row] = await db
    .select({ id: companyGroups.id })
    .from(companyGroups)
    .where(and(eq(companyGroups.active, true), acceptedMemberOf(q.organizationId), acceptedMemberOf(q.companyOrganizationId)))
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
