/**
 * Every query on the approval set-up tables (grants, approver assignments, delegations, the claim
 * policy): the plain finders the approval engine reads, and the lists, locks and writes of the
 * settings.approvalGrants|approverAssignments|delegations|claimPolicy procedures. Scoped by organization.
 */
import { and, asc, eq, gte, lte, ne, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../client';
import { approvalGrants, approverAssignments, claimPolicies, delegations } from '../schema';
import { afterKey } from './keyset';

export type ApprovalGrantRow = typeof approvalGrants.$inferSelect;
export type ApproverAssignmentRow = typeof approverAssignments.$inferSelect;
export type DelegationRecord = typeof delegations.$inferSelect;
export type ClaimPolicyRow = typeof claimPolicies.$inferSelect;

type Org = { organizationId: string };
type One = { organizationId: string; id: string };
type After = { value: string; id: string } | undefined;
type Page = { includeInactive: boolean; after: After; limit: number };

// The approval engine reads through queries/approval-engine.ts; these serve the set-up services.

/** The organization's claim policy row, or undefined (the defaults apply). */
export async function findClaimPolicy(db: Database, q: Org & { forUpdate?: boolean }): Promise<ClaimPolicyRow | undefined> {
  const base = db.select().from(claimPolicies).where(eq(claimPolicies.organizationId, q.organizationId));
  const [row] = q.forUpdate ? await base.for('update') : await base;
  return row;
}

// Grants -------------------------------------------------------------------------------------

export async function listGrantsPage(db: Database, q: Org & Page): Promise<ApprovalGrantRow[]> {
  const g = approvalGrants;
  const where: (SQL | undefined)[] = [eq(g.organizationId, q.organizationId), afterKey(g.name, g.id, q.after)];
  if (!q.includeInactive) where.push(eq(g.active, true));
  return db.select().from(g).where(and(...where)).orderBy(asc(g.name), asc(g.id)).limit(q.limit);
}

export async function findGrant(db: Database, q: One & { forUpdate?: boolean }): Promise<ApprovalGrantRow | undefined> {
  const base = db.select().from(approvalGrants).where(and(eq(approvalGrants.organizationId, q.organizationId), eq(approvalGrants.id, q.id)));
  const [row] = q.forUpdate ? await base.for('update') : await base;
  return row;
}

/** Active grants of the organization other than `exceptId` (the primary-grant and fallback rules read them). */
export async function findOtherActiveGrants(db: Database, q: Org & { exceptId?: string }): Promise<ApprovalGrantRow[]> {
  const g = approvalGrants;
  const where = [eq(g.organizationId, q.organizationId), eq(g.active, true)];
  if (q.exceptId) where.push(ne(g.id, q.exceptId));
  return db.select().from(g).where(and(...where)).orderBy(asc(g.createdAt), asc(g.id));
}

export async function insertGrants(db: Database, values: (typeof approvalGrants.$inferInsert)[]): Promise<ApprovalGrantRow[]> {
  return db.insert(approvalGrants).values(values).returning();
}

export async function updateGrantRow(db: Database, q: One, set: Partial<typeof approvalGrants.$inferInsert>): Promise<ApprovalGrantRow | undefined> {
  const [row] = await db
    .update(approvalGrants)
    .set({ ...set, revision: sql`${approvalGrants.revision} + 1` })
    .where(and(eq(approvalGrants.organizationId, q.organizationId), eq(approvalGrants.id, q.id)))
    .returning();
  return row;
}

// Approver assignments -----------------------------------------------------------------------

export async function listAssignmentsPage(db: Database, q: Org & Page & { analyticAccountId?: string }): Promise<ApproverAssignmentRow[]> {
  const a = approverAssignments;
  const where: (SQL | undefined)[] = [eq(a.organizationId, q.organizationId), afterKey(a.validFrom, a.id, q.after, 'date')];
  if (q.analyticAccountId) where.push(eq(a.analyticAccountId, q.analyticAccountId));
  if (!q.includeInactive) where.push(eq(a.active, true));
  return db.select().from(a).where(and(...where)).orderBy(asc(a.validFrom), asc(a.id)).limit(q.limit);
}

export async function findAssignment(db: Database, q: One & { forUpdate?: boolean }): Promise<ApproverAssignmentRow | undefined> {
  const base = db.select().from(approverAssignments).where(and(eq(approverAssignments.organizationId, q.organizationId), eq(approverAssignments.id, q.id)));
  const [row] = q.forUpdate ? await base.for('update') : await base;
  return row;
}

export async function insertAssignmentRow(db: Database, values: typeof approverAssignments.$inferInsert): Promise<ApproverAssignmentRow | undefined> {
  const [row] = await db.insert(approverAssignments).values(values).returning();
  return row;
}

export async function updateAssignmentRow(db: Database, q: One, set: Partial<typeof approverAssignments.$inferInsert>): Promise<ApproverAssignmentRow | undefined> {
  const [row] = await db
    .update(approverAssignments)
    .set({ ...set, revision: sql`${approverAssignments.revision} + 1` })
    .where(and(eq(approverAssignments.organizationId, q.organizationId), eq(approverAssignments.id, q.id)))
    .returning();
  return row;
}

// Delegations --------------------------------------------------------------------------------

export async function listDelegationsPage(
  db: Database,
  q: Org & Page & { delegatorMemberId?: string; delegateMemberId?: string },
): Promise<DelegationRecord[]> {
  const d = delegations;
  const where: (SQL | undefined)[] = [eq(d.organizationId, q.organizationId), afterKey(d.validFrom, d.id, q.after, 'date')];
  if (q.delegatorMemberId) where.push(eq(d.delegatorMemberId, q.delegatorMemberId));
  if (q.delegateMemberId) where.push(eq(d.delegateMemberId, q.delegateMemberId));
  if (!q.includeInactive) where.push(eq(d.active, true));
  return db.select().from(d).where(and(...where)).orderBy(asc(d.validFrom), asc(d.id)).limit(q.limit);
}

export async function findDelegation(db: Database, q: One & { forUpdate?: boolean }): Promise<DelegationRecord | undefined> {
  const base = db.select().from(delegations).where(and(eq(delegations.organizationId, q.organizationId), eq(delegations.id, q.id)));
  const [row] = q.forUpdate ? await base.for('update') : await base;
  return row;
}

/** Active delegations of the delegator for the same scope and target overlapping [from, to], other than `exceptId`. */
export async function findOverlappingDelegations(
  db: Database,
  q: Org & { delegatorMemberId: string; scope: string; targetId: string | null; from: string; to: string; exceptId?: string },
): Promise<DelegationRecord[]> {
  const d = delegations;
  const target = sql`coalesce(${d.grantId}, ${d.axisId}, ${d.analyticAccountId})`;
  const where = [
    eq(d.organizationId, q.organizationId),
    eq(d.delegatorMemberId, q.delegatorMemberId),
    eq(d.active, true),
    sql`${d.scope} = ${q.scope}`,
    q.targetId ? sql`${target} = ${q.targetId}::uuid` : sql`${target} is null`,
    lte(d.validFrom, q.to),
    gte(d.validTo, q.from),
  ];
  if (q.exceptId) where.push(ne(d.id, q.exceptId));
  return db.select().from(d).where(and(...where)).orderBy(asc(d.validFrom));
}

export async function insertDelegationRow(db: Database, values: typeof delegations.$inferInsert): Promise<DelegationRecord | undefined> {
  const [row] = await db.insert(delegations).values(values).returning();
  return row;
}

export async function updateDelegationRow(db: Database, q: One, set: Partial<typeof delegations.$inferInsert>): Promise<DelegationRecord | undefined> {
  const [row] = await db
    .update(delegations)
    .set({ ...set, revision: sql`${delegations.revision} + 1` })
    .where(and(eq(delegations.organizationId, q.organizationId), eq(delegations.id, q.id)))
    .returning();
  return row;
}

// Claim policy -------------------------------------------------------------------------------

/** Writes the policy (inserting the row on its first change) at `revision`. */
export async function upsertClaimPolicy(db: Database, values: typeof claimPolicies.$inferInsert & { revision: number }): Promise<ClaimPolicyRow | undefined> {
  const { organizationId, ...set } = values;
  const [row] = await db.insert(claimPolicies).values(values).onConflictDoUpdate({ target: claimPolicies.organizationId, set }).returning();
  void organizationId;
  return row;
}
