/**
 * What the approval engine reads (services/workflow/approvals): the organization chart on a day, the
 * grants, the approver assignments and delegations in force, the claim policy, the axes claims must be
 * allocated on, and the claim's sign-offs of a round. Every query is scoped by organization.
 */
import { and, asc, eq, gte, isNull, lte, or, sql } from 'drizzle-orm';
import { insertInChunks, anyOf } from '../client';
import type { Database } from '../client';
import {
  analyticAxes,
  approvalGrants,
  approverAssignments,
  claimPolicies,
  claims,
  claimSignoffs,
  delegations,
  members,
  orgUnits,
  organizations,
  positionAssignments,
  positions,
} from '../schema';

/** Positions, units, who holds what on `day`, and who is active: the chart the superior walk reads. */
export async function loadOrgChart(db: Database, q: { organizationId: string; day: string }) {
  const org = q.organizationId;
  const [unitRows, positionRows, holderRows, memberRows] = await Promise.all([
    db.select({ id: orgUnits.id, parentId: orgUnits.parentId, name: orgUnits.name }).from(orgUnits).where(eq(orgUnits.organizationId, org)),
    db
      .select({
        id: positions.id,
        orgUnitId: positions.orgUnitId,
        isUnitHead: positions.isUnitHead,
        reportsToPositionId: positions.reportsToPositionId,
        retiredAt: positions.retiredAt,
        createdAt: positions.createdAt,
      })
      .from(positions)
      .where(eq(positions.organizationId, org))
      .orderBy(asc(positions.createdAt), asc(positions.id)),
    db
      .select({ memberId: positionAssignments.memberId, positionId: positionAssignments.positionId, isPrimary: positionAssignments.isPrimary })
      .from(positionAssignments)
      .where(
        and(
          eq(positionAssignments.organizationId, org),
          isNull(positionAssignments.withdrawnAt),
          lte(positionAssignments.validFrom, q.day),
          or(isNull(positionAssignments.validTo), gte(positionAssignments.validTo, q.day)),
        ),
      )
      .orderBy(asc(positionAssignments.validFrom), asc(positionAssignments.createdAt)),
    db.select({ id: members.id, active: members.active }).from(members).where(eq(members.organizationId, org)),
  ]);
  return { unitRows, positionRows, holderRows, memberRows };
}

export type OrgChartRows = Awaited<ReturnType<typeof loadOrgChart>>;

export type GrantRow = typeof approvalGrants.$inferSelect;

/** Every grant of the organization, active or not (a fallback chain may name an inactive one: skipped). */
export async function listGrants(db: Database, q: { organizationId: string }): Promise<GrantRow[]> {
  return db.select().from(approvalGrants).where(eq(approvalGrants.organizationId, q.organizationId)).orderBy(asc(approvalGrants.createdAt));
}

export type AssignmentRow = typeof approverAssignments.$inferSelect;

/** Active approver assignments on these analytic accounts valid on `day`. */
export async function listAssignmentsOn(db: Database, q: { organizationId: string; analyticAccountIds: string[]; day: string }): Promise<AssignmentRow[]> {
  if (q.analyticAccountIds.length === 0) return [];
  const a = approverAssignments;
  return db
    .select()
    .from(a)
    .where(
      and(
        eq(a.organizationId, q.organizationId),
        anyOf(a.analyticAccountId, q.analyticAccountIds),
        eq(a.active, true),
        lte(a.validFrom, q.day),
        or(isNull(a.validTo), gte(a.validTo, q.day)),
      ),
    )
    .orderBy(asc(a.createdAt), asc(a.id));
}

export type DelegationRow = typeof delegations.$inferSelect;

/** Active delegations to the member in force on `day`, from delegators who are still active. */
export async function listDelegationsTo(db: Database, q: { organizationId: string; delegateMemberId: string; day: string }): Promise<DelegationRow[]> {
  const d = delegations;
  return db
    .select({ d })
    .from(d)
    .innerJoin(members, and(eq(members.organizationId, d.organizationId), eq(members.id, d.delegatorMemberId)))
    .where(
      and(
        eq(d.organizationId, q.organizationId),
        eq(d.delegateMemberId, q.delegateMemberId),
        eq(d.active, true),
        eq(members.active, true),
        lte(d.validFrom, q.day),
        gte(d.validTo, q.day),
      ),
    )
    .then((rows) => rows.map((r) => r.d));
}

/** Active delegations in force on `day` from any of these members, to active delegates. */
export async function listDelegationsFrom(db: Database, q: { organizationId: string; delegatorMemberIds: string[]; day: string }): Promise<DelegationRow[]> {
  if (q.delegatorMemberIds.length === 0) return [];
  const d = delegations;
  return db
    .select({ d })
    .from(d)
    .innerJoin(members, and(eq(members.organizationId, d.organizationId), eq(members.id, d.delegateMemberId)))
    .where(
      and(
        eq(d.organizationId, q.organizationId),
        anyOf(d.delegatorMemberId, q.delegatorMemberIds),
        eq(d.active, true),
        eq(members.active, true),
        lte(d.validFrom, q.day),
        gte(d.validTo, q.day),
      ),
    )
    .then((rows) => rows.map((r) => r.d));
}

/** The claim policy with its defaults, the seller's state code (for weekends) and the count of active members. */
export async function findClaimPolicyFacts(db: Database, q: { organizationId: string }) {
  const [row] = await db
    .select({
      escalationWorkingDays: sql<number>`coalesce(${claimPolicies.escalationWorkingDays}, 3)`,
      escalationMaxHops: sql<number>`coalesce(${claimPolicies.escalationMaxHops}, 2)`,
      weekendDays: claimPolicies.weekendDays,
      soleOwnerException: sql<boolean>`coalesce(${claimPolicies.soleOwnerException}, false)`,
      sellerState: sql<string | null>`${organizations.seller} -> 'address' ->> 'state'`,
      activeMembers: sql<number>`(select count(*)::int from members m where m.organization_id = ${organizations.id} and m.active)`,
    })
    .from(organizations)
    .leftJoin(claimPolicies, eq(claimPolicies.organizationId, organizations.id))
    .where(eq(organizations.id, q.organizationId));
  if (!row) throw new Error('organization not found');
  return { ...row, escalationWorkingDays: Number(row.escalationWorkingDays), escalationMaxHops: Number(row.escalationMaxHops), activeMembers: Number(row.activeMembers) };
}

/** The axes every claim line must be allocated on. */
export async function listRequiredClaimAxes(db: Database, q: { organizationId: string }) {
  return db
    .select({ id: analyticAxes.id, code: analyticAxes.code, name: analyticAxes.name })
    .from(analyticAxes)
    .where(and(eq(analyticAxes.organizationId, q.organizationId), eq(analyticAxes.requiredOnClaims, true), eq(analyticAxes.active, true)))
    .orderBy(asc(analyticAxes.code));
}

export type SignoffRow = typeof claimSignoffs.$inferSelect;

/** The sign-offs of a claim's round for one step (state), in a stable order. */
export async function listRoundSignoffs(db: Database, q: { organizationId: string; claimId: string; round: number; state: string }): Promise<SignoffRow[]> {
  return db
    .select()
    .from(claimSignoffs)
    .where(
      and(
        eq(claimSignoffs.organizationId, q.organizationId),
        eq(claimSignoffs.claimId, q.claimId),
        eq(claimSignoffs.round, q.round),
        eq(claimSignoffs.state, q.state),
      ),
    )
    .orderBy(asc(claimSignoffs.createdAt), asc(claimSignoffs.accountCode), asc(claimSignoffs.analyticAccountId));
}

export async function insertSignoffs(db: Database, rows: (typeof claimSignoffs.$inferInsert)[]) {
  if (rows.length === 0) return [];
  return insertInChunks(rows, (chunk) => db.insert(claimSignoffs).values(chunk).returning());
}

/** Signs the sign-off while it is still unsigned; false when someone signed it first. */
export async function signSignoff(
  db: Database,
  q: { organizationId: string; id: string },
  set: Pick<typeof claimSignoffs.$inferInsert, 'signatureId' | 'signedActorMemberId' | 'signedAuthorityMemberId' | 'signedAt' | 'signedVia' | 'approverAssignmentId'>,
): Promise<boolean> {
  const rows = await db
    .update(claimSignoffs)
    .set(set)
    .where(and(eq(claimSignoffs.organizationId, q.organizationId), eq(claimSignoffs.id, q.id), isNull(claimSignoffs.signatureId)))
    .returning({ id: claimSignoffs.id });
  return rows.length === 1;
}

/** Adds escalation authorities to an unsigned sign-off (the job runner's hop). */
export async function addSignoffHop(
  db: Database,
  q: { organizationId: string; id: string; authorities: SignoffRow['authorities']; eligible: string[]; hops: number; at: Date },
) {
  await db
    .update(claimSignoffs)
    .set({ authorities: q.authorities, eligible: q.eligible, escalationHops: q.hops, escalatedAt: q.at })
    .where(and(eq(claimSignoffs.organizationId, q.organizationId), eq(claimSignoffs.id, q.id), isNull(claimSignoffs.signatureId)));
}

/** A sign-off's claim, joined only while the claim is still in that sign-off's step and round. */
const signoffInClaimStep = and(
  eq(claims.organizationId, claimSignoffs.organizationId),
  eq(claims.id, claimSignoffs.claimId),
  eq(claims.state, claimSignoffs.state),
  eq(claims.round, claimSignoffs.round),
);

/** Unsigned sign-offs of the organization's claims still in their step and round. */
export async function listOpenSignoffs(db: Database, q: { organizationId: string }): Promise<SignoffRow[]> {
  return db
    .select({ s: claimSignoffs })
    .from(claimSignoffs)
    .innerJoin(claims, signoffInClaimStep)
    .where(and(eq(claimSignoffs.organizationId, q.organizationId), isNull(claimSignoffs.signatureId)))
    .orderBy(asc(claimSignoffs.createdAt), asc(claimSignoffs.id))
    .then((rows) => rows.map((r) => r.s));
}

/** Sets an unsigned sign-off's authorities and eligible members (a fallback after authority was withdrawn). */
export async function replaceSignoffAuthorities(db: Database, q: { organizationId: string; id: string; authorities: SignoffRow['authorities']; eligible: string[] }) {
  await db
    .update(claimSignoffs)
    .set({ authorities: q.authorities, eligible: q.eligible })
    .where(and(eq(claimSignoffs.organizationId, q.organizationId), eq(claimSignoffs.id, q.id), isNull(claimSignoffs.signatureId)));
}

/**
 * Unsigned sign-offs of claims still in their step and round, with hops left under their
 * organization's policy, longest waiting first: what the escalation job looks at.
 */
export async function listDueSignoffs(db: Database, q: { limit: number }): Promise<SignoffRow[]> {
  return db
    .select({ s: claimSignoffs })
    .from(claimSignoffs)
    .innerJoin(claims, signoffInClaimStep)
    .leftJoin(claimPolicies, eq(claimPolicies.organizationId, claimSignoffs.organizationId))
    .where(and(isNull(claimSignoffs.signatureId), sql`${claimSignoffs.escalationHops} < coalesce(${claimPolicies.escalationMaxHops}, 2)`))
    .orderBy(sql`coalesce(${claimSignoffs.escalatedAt}, ${claimSignoffs.createdAt})`, asc(claimSignoffs.id))
    .limit(q.limit)
    .then((rows) => rows.map((r) => r.s));
}
