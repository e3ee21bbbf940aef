import { and, asc, desc, eq, gte, isNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import { anyOf, queryRows, type Database } from '../client';
import { members, orgUnits, payoutChannels, positionAssignments, positions } from '../schema';
import { afterKey } from './keyset';

/**
 * The organization chart (units, positions, dated assignments), the members it names, and the
 * members' payout channels. Every query takes the organization id; ids of another organization are
 * simply not found.
 */

type After = { value: string | null; id: string } | undefined;

// ---------------------------------------------------------------------------------------------
// Members, as the org chart refers to them

/** A member of the organization (id and whether active), or undefined. */
export async function findMemberRef(db: Database, q: { organizationId: string; id: string }) {
  const [row] = await db
    .select({ id: members.id, active: members.active })
    .from(members)
    .where(and(eq(members.organizationId, q.organizationId), eq(members.id, q.id)));
  return row;
}

// ---------------------------------------------------------------------------------------------
// Org units

/** The head of a unit: its active position flagged is_unit_head (the set-up keeps at most one). */
// Qualified by hand: drizzle leaves a single-table select's columns unqualified, which the subquery would misread.
const headPositionId = sql<string | null>`(
  select p.id from positions p
  where p.organization_id = "org_units"."organization_id" and p.org_unit_id = "org_units"."id" and p.is_unit_head and p.retired_at is null
  order by p.created_at, p.id limit 1)`;

const orgUnitColumns = {
  id: orgUnits.id,
  organizationId: orgUnits.organizationId,
  code: orgUnits.code,
  name: orgUnits.name,
  parentId: orgUnits.parentId,
  active: orgUnits.active,
  createdAt: orgUnits.createdAt,
  revision: orgUnits.revision,
  headPositionId,
};

export type OrgUnitRow = typeof orgUnits.$inferSelect;
export type OrgUnitView = OrgUnitRow & { headPositionId: string | null };

export async function findOrgUnit(db: Database, q: { organizationId: string; id: string }): Promise<OrgUnitView | undefined> {
  const [row] = await db
    .select(orgUnitColumns)
    .from(orgUnits)
    .where(and(eq(orgUnits.organizationId, q.organizationId), eq(orgUnits.id, q.id)));
  return row;
}

/** The unit under a row lock, for a change against its revision. */
export async function lockOrgUnit(db: Database, q: { organizationId: string; id: string }): Promise<OrgUnitRow | undefined> {
  const [row] = await db
    .select()
    .from(orgUnits)
    .where(and(eq(orgUnits.organizationId, q.organizationId), eq(orgUnits.id, q.id)))
    .for('update');
  return row;
}

/** Units ordered by code (unique in the organization), from after `after`. */
export async function listOrgUnits(
  db: Database,
  q: { organizationId: string; includeInactive: boolean; parentId?: string; after: After; limit: number },
): Promise<OrgUnitView[]> {
  const where: (SQL | undefined)[] = [eq(orgUnits.organizationId, q.organizationId), afterKey(orgUnits.code, orgUnits.id, q.after)];
  if (!q.includeInactive) where.push(eq(orgUnits.active, true));
  if (q.parentId) where.push(eq(orgUnits.parentId, q.parentId));
  return db
    .select(orgUnitColumns)
    .from(orgUnits)
    .where(and(...where))
    .orderBy(asc(orgUnits.code), asc(orgUnits.id))
    .limit(q.limit);
}

/** Inserts a unit; a code in use raises the unique violation `org_units_org_code`. */
export async function insertOrgUnit(db: Database, values: typeof orgUnits.$inferInsert & { organizationId: string }) {
  const [row] = await db.insert(orgUnits).values(values).returning();
  return row;
}

/** Applies a change and bumps the revision; a code in use raises `org_units_org_code`. */
export async function updateOrgUnitRow(db: Database, q: { organizationId: string; id: string; set: Partial<Pick<OrgUnitRow, 'code' | 'name' | 'parentId' | 'active'>> }) {
  const [row] = await db
    .update(orgUnits)
    .set({ ...q.set, revision: sql`${orgUnits.revision} + 1` })
    .where(and(eq(orgUnits.organizationId, q.organizationId), eq(orgUnits.id, q.id)))
    .returning();
  return row;
}

/** The unit and every unit above it, nearest first (the chain a new parent must not contain). */
export async function orgUnitChain(db: Database, q: { organizationId: string; id: string }): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`with recursive up(id, parent_id, depth) as (
          select id, parent_id, 0 from org_units where organization_id = ${q.organizationId} and id = ${q.id}
          union all
          select u.id, u.parent_id, up.depth + 1 from org_units u join up on u.id = up.parent_id
          where u.organization_id = ${q.organizationId} and up.depth < 1000
        ) select id from up order by depth`,
  );
  return rows.map((r) => r.id);
}

/** What still hangs on a unit: active sub-units and positions not retired. */
export async function orgUnitDependents(db: Database, q: { organizationId: string; id: string }) {
  const [row] = await queryRows<{ units: number; positions: number }>(
    db,
    sql`select
          (select count(*)::int from org_units where organization_id = ${q.organizationId} and parent_id = ${q.id} and active) as units,
          (select count(*)::int from positions where organization_id = ${q.organizationId} and org_unit_id = ${q.id} and retired_at is null) as positions`,
  );
  return { units: Number(row?.units ?? 0), positions: Number(row?.positions ?? 0) };
}

// ---------------------------------------------------------------------------------------------
// Positions

export type PositionRow = typeof positions.$inferSelect;

export async function findPosition(db: Database, q: { organizationId: string; id: string }): Promise<PositionRow | undefined> {
  const [row] = await db
    .select()
    .from(positions)
    .where(and(eq(positions.organizationId, q.organizationId), eq(positions.id, q.id)));
  return row;
}

export async function lockPosition(db: Database, q: { organizationId: string; id: string }): Promise<PositionRow | undefined> {
  const [row] = await db
    .select()
    .from(positions)
    .where(and(eq(positions.organizationId, q.organizationId), eq(positions.id, q.id)))
    .for('update');
  return row;
}

/** Positions ordered by title, then id; retired ones only when asked. */
export async function listPositions(
  db: Database,
  q: { organizationId: string; includeRetired: boolean; orgUnitId?: string; after: After; limit: number },
): Promise<PositionRow[]> {
  const where: (SQL | undefined)[] = [eq(positions.organizationId, q.organizationId), afterKey(positions.title, positions.id, q.after)];
  if (!q.includeRetired) where.push(isNull(positions.retiredAt));
  if (q.orgUnitId) where.push(eq(positions.orgUnitId, q.orgUnitId));
  return db
    .select()
    .from(positions)
    .where(and(...where))
    .orderBy(asc(positions.title), asc(positions.id))
    .limit(q.limit);
}

export async function insertPosition(db: Database, values: typeof positions.$inferInsert & { organizationId: string }) {
  const [row] = await db.insert(positions).values(values).returning();
  return row;
}

export async function updatePositionRow(
  db: Database,
  q: { organizationId: string; id: string; set: Partial<Pick<PositionRow, 'orgUnitId' | 'title' | 'isUnitHead' | 'reportsToPositionId' | 'retiredAt'>> },
) {
  const [row] = await db
    .update(positions)
    .set({ ...q.set, revision: sql`${positions.revision} + 1` })
    .where(and(eq(positions.organizationId, q.organizationId), eq(positions.id, q.id)))
    .returning();
  return row;
}

/** The position and every position it reports to, nearest first. */
export async function positionReportingChain(db: Database, q: { organizationId: string; id: string }): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`with recursive up(id, reports_to, depth) as (
          select id, reports_to_position_id, 0 from positions where organization_id = ${q.organizationId} and id = ${q.id}
          union all
          select p.id, p.reports_to_position_id, up.depth + 1 from positions p join up on p.id = up.reports_to
          where p.organization_id = ${q.organizationId} and up.depth < 1000
        ) select id from up order by depth`,
  );
  return rows.map((r) => r.id);
}

/** The unit's active head position other than `exceptId`, if any. */
export async function findOtherUnitHead(db: Database, q: { organizationId: string; orgUnitId: string; exceptId?: string }) {
  const where: SQL[] = [
    eq(positions.organizationId, q.organizationId),
    eq(positions.orgUnitId, q.orgUnitId),
    eq(positions.isUnitHead, true),
    isNull(positions.retiredAt),
  ];
  if (q.exceptId) where.push(ne(positions.id, q.exceptId));
  const [row] = await db.select({ id: positions.id, title: positions.title }).from(positions).where(and(...where)).limit(1);
  return row;
}

// ---------------------------------------------------------------------------------------------
// Position assignments

export type PositionAssignmentRow = typeof positionAssignments.$inferSelect;

export async function findPositionAssignment(db: Database, q: { organizationId: string; id: string }): Promise<PositionAssignmentRow | undefined> {
  const [row] = await db
    .select()
    .from(positionAssignments)
    .where(and(eq(positionAssignments.organizationId, q.organizationId), eq(positionAssignments.id, q.id)));
  return row;
}

export async function lockPositionAssignment(db: Database, q: { organizationId: string; id: string }): Promise<PositionAssignmentRow | undefined> {
  const [row] = await db
    .select()
    .from(positionAssignments)
    .where(and(eq(positionAssignments.organizationId, q.organizationId), eq(positionAssignments.id, q.id)))
    .for('update');
  return row;
}

/**
 * Assignments ordered by valid_from, then id. Without `includeEnded`, only those in force on `today`
 * or later (neither ended before today nor withdrawn).
 */
export async function listPositionAssignments(
  db: Database,
  q: { organizationId: string; today: string; includeEnded: boolean; memberId?: string; positionId?: string; after: After; limit: number },
): Promise<PositionAssignmentRow[]> {
  const a = positionAssignments;
  const where: (SQL | undefined)[] = [eq(a.organizationId, q.organizationId), afterKey(a.validFrom, a.id, q.after, 'date')];
  if (!q.includeEnded) where.push(isNull(a.withdrawnAt), or(isNull(a.validTo), gte(a.validTo, q.today)));
  if (q.memberId) where.push(eq(a.memberId, q.memberId));
  if (q.positionId) where.push(eq(a.positionId, q.positionId));
  return db
    .select()
    .from(a)
    .where(and(...where))
    .orderBy(asc(a.validFrom), asc(a.id))
    .limit(q.limit);
}

export async function insertPositionAssignment(db: Database, values: typeof positionAssignments.$inferInsert & { organizationId: string }) {
  const [row] = await db.insert(positionAssignments).values(values).returning();
  return row;
}

export async function updatePositionAssignmentRow(
  db: Database,
  q: { organizationId: string; id: string; set: Partial<Pick<PositionAssignmentRow, 'validFrom' | 'validTo' | 'withdrawnAt'>> },
) {
  const [row] = await db
    .update(positionAssignments)
    .set({ ...q.set, revision: sql`${positionAssignments.revision} + 1` })
    .where(and(eq(positionAssignments.organizationId, q.organizationId), eq(positionAssignments.id, q.id)))
    .returning();
  return row;
}

/**
 * The member's assignments (not withdrawn) whose period meets [from, to] (inclusive, `to` null =
 * open): primary ones when `primary`, else those of `positionId`; `exceptId` left out.
 */
export async function findOverlappingAssignments(
  db: Database,
  q: { organizationId: string; memberId: string; from: string; to: string | null; primary?: boolean; positionId?: string; exceptId?: string },
): Promise<PositionAssignmentRow[]> {
  const a = positionAssignments;
  const where: SQL[] = [
    eq(a.organizationId, q.organizationId),
    eq(a.memberId, q.memberId),
    isNull(a.withdrawnAt),
    sql`${a.validFrom} <= coalesce(${q.to}::date, 'infinity'::date)`,
    sql`coalesce(${a.validTo}, 'infinity'::date) >= ${q.from}::date`,
  ];
  if (q.primary) where.push(eq(a.isPrimary, true));
  if (q.positionId) where.push(eq(a.positionId, q.positionId));
  if (q.exceptId) where.push(ne(a.id, q.exceptId));
  return db.select().from(a).where(and(...where)).orderBy(asc(a.validFrom)).for('update');
}

/** The org unit of the member's primary position on `day` (inclusive dates), or undefined. */
export async function findPrimaryUnitOn(db: Database, q: { organizationId: string; memberId: string; day: string }) {
  const [row] = await db
    .select({ unitId: orgUnits.id, unitName: orgUnits.name, positionId: positions.id, assignmentId: positionAssignments.id })
    .from(positionAssignments)
    .innerJoin(positions, and(eq(positions.organizationId, positionAssignments.organizationId), eq(positions.id, positionAssignments.positionId)))
    .innerJoin(orgUnits, and(eq(orgUnits.organizationId, positions.organizationId), eq(orgUnits.id, positions.orgUnitId)))
    .where(
      and(
        eq(positionAssignments.organizationId, q.organizationId),
        eq(positionAssignments.memberId, q.memberId),
        eq(positionAssignments.isPrimary, true),
        isNull(positionAssignments.withdrawnAt),
        lte(positionAssignments.validFrom, q.day),
        or(isNull(positionAssignments.validTo), gte(positionAssignments.validTo, q.day)),
      ),
    )
    .orderBy(desc(positionAssignments.validFrom), desc(positionAssignments.createdAt))
    .limit(1);
  return row;
}

/**
 * The primary, not withdrawn assignments of several members with their unit's name, newest
 * valid_from first (then newest created): what findPrimaryUnitOn picks from, for a page of claims
 * whose claimants' units are looked up on various days in one statement.
 */
export async function listPrimaryUnitAssignments(db: Database, q: { organizationId: string; memberIds: string[] }) {
  if (q.memberIds.length === 0) return [];
  return db
    .select({
      memberId: positionAssignments.memberId,
      validFrom: positionAssignments.validFrom,
      validTo: positionAssignments.validTo,
      unitName: orgUnits.name,
    })
    .from(positionAssignments)
    .innerJoin(positions, and(eq(positions.organizationId, positionAssignments.organizationId), eq(positions.id, positionAssignments.positionId)))
    .innerJoin(orgUnits, and(eq(orgUnits.organizationId, positions.organizationId), eq(orgUnits.id, positions.orgUnitId)))
    .where(
      and(
        eq(positionAssignments.organizationId, q.organizationId),
        anyOf(positionAssignments.memberId, q.memberIds),
        eq(positionAssignments.isPrimary, true),
        isNull(positionAssignments.withdrawnAt),
      ),
    )
    .orderBy(asc(positionAssignments.memberId), desc(positionAssignments.validFrom), desc(positionAssignments.createdAt));
}

// ---------------------------------------------------------------------------------------------
// Payout channels

export type PayoutChannelRow = typeof payoutChannels.$inferSelect;

export async function findPayoutChannel(db: Database, q: { organizationId: string; id: string }) {
  const [row] = await db
    .select()
    .from(payoutChannels)
    .where(and(eq(payoutChannels.organizationId, q.organizationId), eq(payoutChannels.id, q.id)));
  return row;
}

/** A member's own channel under a row lock; another member's is not found. */
export async function lockMemberPayoutChannel(db: Database, q: { organizationId: string; memberId: string; id: string }) {
  const [row] = await db
    .select()
    .from(payoutChannels)
    .where(and(eq(payoutChannels.organizationId, q.organizationId), eq(payoutChannels.memberId, q.memberId), eq(payoutChannels.id, q.id)))
    .for('update');
  return row;
}

/** A member's channels ordered by name, then id; inactive ones only when asked. */
export async function listMemberPayoutChannels(
  db: Database,
  q: { organizationId: string; memberId: string; includeInactive: boolean; after: After; limit: number },
): Promise<PayoutChannelRow[]> {
  const c = payoutChannels;
  const where: (SQL | undefined)[] = [eq(c.organizationId, q.organizationId), eq(c.memberId, q.memberId), afterKey(c.name, c.id, q.after)];
  if (!q.includeInactive) where.push(eq(c.active, true));
  return db
    .select()
    .from(c)
    .where(and(...where))
    .orderBy(asc(c.name), asc(c.id))
    .limit(q.limit);
}

export async function insertPayoutChannel(db: Database, values: typeof payoutChannels.$inferInsert) {
  const [row] = await db.insert(payoutChannels).values(values).returning();
  if (!row) throw new Error('payout channel insert returned no row');
  return row;
}

/** Deactivates a channel and bumps its revision. */
export async function deactivatePayoutChannelRow(db: Database, q: { organizationId: string; id: string }) {
  const [row] = await db
    .update(payoutChannels)
    .set({ active: false, revision: sql`${payoutChannels.revision} + 1` })
    .where(and(eq(payoutChannels.organizationId, q.organizationId), eq(payoutChannels.id, q.id)))
    .returning();
  return row;
}
