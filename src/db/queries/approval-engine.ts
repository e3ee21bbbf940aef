/**
 * What the approval engine reads (services/workflow/approvals): the organization chart on a day, the
 * grants, the approver assignments and delegations in force, the claim policy, the axes claims must be
 * allocated on, and the claim's sign-offs of a round. Every query is scoped by organization.
 */
import { and, asc, eq, gte, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { insertInChunks, anyOfPlaceholder, preparedSelect, preparedSql } from '../client';
import { keysetCondition } from './keyset';
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
  organizations,
  positionAssignments,
  signoffRefreshDays,
} from '../schema';

/**
 * Positions, units, who holds what on `day`, and who is active: the chart the superior walk reads.
 * With `analyticAccountIds`, whether a member is active is read only for those the resolution of a
 * sign-off on these accounts can name (holders of a position on the day, grants' named holders, the
 * accounts' approvers), not for every member of the organization.
 */
export async function loadOrgChart(db: Database, q: { organizationId: string; day: string; analyticAccountIds?: string[] }): Promise<OrgChartRows> {
  const [row] = q.analyticAccountIds
    ? await chartOfAccountsStatement(db, { org: q.organizationId, day: q.day, accounts: q.analyticAccountIds })
    : await chartStatement(db, { org: q.organizationId, day: q.day });
  return {
    unitRows: JSON.parse(row!.units) as OrgChartRows['unitRows'],
    positionRows: JSON.parse(row!.positions) as OrgChartRows['positionRows'],
    holderRows: JSON.parse(row!.holders) as OrgChartRows['holderRows'],
    memberRows: JSON.parse(row!.members) as OrgChartRows['memberRows'],
  };
}

/**
 * The chart in one statement, each part as JSON text (parsed by loadOrgChart, the same on every
 * driver), with placeholders `org` and `day` (and `accounts` when members are scoped to them).
 */
function chartSql(scopedToAccounts: boolean) {
  const org = sql.placeholder('org');
  const day = sql.placeholder('day');
  const heldOn = sql`a.organization_id = ${org} and a.withdrawn_at is null and a.valid_from <= ${day}::date and (a.valid_to is null or a.valid_to >= ${day}::date)`;
  const memberScope = scopedToAccounts
    ? sql`and (m.id in (select a.member_id from position_assignments a where ${heldOn})
        or m.id in (select g.holder_member_id from approval_grants g where g.organization_id = ${org})
        or m.id in (select x.member_id from approver_assignments x where x.organization_id = ${org} and x.analytic_account_id = any(${sql.placeholder('accounts')}::uuid[])))`
    : sql``;
  return sql`select
      coalesce((select json_agg(json_build_object('id', u.id, 'parentId', u.parent_id, 'name', u.name) order by u.id)
        from org_units u where u.organization_id = ${org}), '[]')::text as units,
      coalesce((select json_agg(json_build_object('id', p.id, 'orgUnitId', p.org_unit_id, 'isUnitHead', p.is_unit_head,
          'reportsToPositionId', p.reports_to_position_id, 'retiredAt', p.retired_at) order by p.created_at, p.id)
        from positions p where p.organization_id = ${org}), '[]')::text as positions,
      coalesce((select json_agg(json_build_object('memberId', a.member_id, 'positionId', a.position_id, 'isPrimary', a.is_primary) order by a.valid_from, a.created_at)
        from position_assignments a where ${heldOn}), '[]')::text as holders,
      coalesce((select json_agg(json_build_object('id', m.id, 'active', m.active))
        from members m where m.organization_id = ${org} ${memberScope}), '[]')::text as members`;
}

type ChartTexts = { units: string; positions: string; holders: string; members: string };
const chartStatement = preparedSql<ChartTexts>(() => chartSql(false));
const chartOfAccountsStatement = preparedSql<ChartTexts>(() => chartSql(true));

/** The chart's rows: units, positions (oldest first; retired_at as ISO text), holders on the day, members' activity. */
export interface OrgChartRows {
  unitRows: { id: string; parentId: string | null; name: string }[];
  positionRows: { id: string; orgUnitId: string; isUnitHead: boolean; reportsToPositionId: string | null; retiredAt: string | null }[];
  holderRows: { memberId: string; positionId: string; isPrimary: boolean }[];
  memberRows: { id: string; active: boolean }[];
}

export type GrantRow = typeof approvalGrants.$inferSelect;

/** Every grant of the organization, active or not (a fallback chain may name an inactive one: skipped). */
export async function listGrants(db: Database, q: { organizationId: string }): Promise<GrantRow[]> {
  return grantsStatement(db, { organizationId: q.organizationId });
}

const grantsStatement = preparedSelect('engine_grants', (db) =>
  db.select().from(approvalGrants).where(eq(approvalGrants.organizationId, sql.placeholder('organizationId'))).orderBy(asc(approvalGrants.createdAt)),
);

export type AssignmentRow = typeof approverAssignments.$inferSelect;

/** Active approver assignments on these analytic accounts valid on `day`. */
export async function listAssignmentsOn(db: Database, q: { organizationId: string; analyticAccountIds: string[]; day: string }): Promise<AssignmentRow[]> {
  if (q.analyticAccountIds.length === 0) return [];
  return assignmentsStatement(db, { organizationId: q.organizationId, accounts: q.analyticAccountIds, day: q.day });
}

const assignmentsStatement = preparedSelect('engine_assignments_on', (db) => assignmentsInForceQuery(db, anyOfPlaceholder(approverAssignments.analyticAccountId, 'accounts')));

/** Every active approver assignment of the organization valid on `day`, on any account. */
export async function listAssignmentsInForce(db: Database, q: { organizationId: string; day: string }): Promise<AssignmentRow[]> {
  return assignmentsInForceStatement(db, { organizationId: q.organizationId, day: q.day });
}

const assignmentsInForceStatement = preparedSelect('engine_assignments_in_force', (db) => assignmentsInForceQuery(db));

/** Active assignments valid on the placeholder `day`, of the placeholder `organizationId` (and `accounts` when given). */
function assignmentsInForceQuery(db: Database, onAccounts?: SQL) {
  const a = approverAssignments;
  const day = sql.placeholder('day');
  return db
    .select()
    .from(a)
    .where(and(eq(a.organizationId, sql.placeholder('organizationId')), onAccounts, eq(a.active, true), lte(a.validFrom, day), or(isNull(a.validTo), gte(a.validTo, day))))
    .orderBy(asc(a.createdAt), asc(a.id));
}

export type DelegationRow = typeof delegations.$inferSelect;

/**
 * Every active delegation in force on `day` (a page's judgement filters it: those to the caller from
 * active delegators, those from a sign-off's authorities to active delegates), with whether its
 * delegator and its delegate are active.
 */
export async function listDelegationsInForce(db: Database, q: { organizationId: string; day: string }): Promise<(DelegationRow & { delegatorActive: boolean; delegateActive: boolean })[]> {
  const rows = await delegationsStatement(db, { organizationId: q.organizationId, day: q.day });
  return rows.map((r) => ({ ...r.d, delegatorActive: Boolean(r.delegatorActive), delegateActive: Boolean(r.delegateActive) }));
}

const delegationsStatement = preparedSelect('engine_delegations_in_force', (db) => {
  const d = delegations;
  const day = sql.placeholder('day');
  return db
    .select({
      d,
      delegatorActive: sql<boolean>`exists (select 1 from ${members} m where m.organization_id = ${d.organizationId} and m.id = ${d.delegatorMemberId} and m.active)`,
      delegateActive: sql<boolean>`exists (select 1 from ${members} m where m.organization_id = ${d.organizationId} and m.id = ${d.delegateMemberId} and m.active)`,
    })
    .from(d)
    .where(and(eq(d.organizationId, sql.placeholder('organizationId')), eq(d.active, true), lte(d.validFrom, day), gte(d.validTo, day)))
    .orderBy(asc(d.createdAt), asc(d.id));
});

/** The claim policy with its defaults, the seller's state code (for weekends) and the count of active members. */
export async function findClaimPolicyFacts(db: Database, q: { organizationId: string }) {
  const [row] = await policyFactsStatement(db, { organizationId: q.organizationId });
  if (!row) throw new Error('organization not found');
  return { ...row, escalationWorkingDays: Number(row.escalationWorkingDays), escalationMaxHops: Number(row.escalationMaxHops), activeMembers: Number(row.activeMembers) };
}

const policyFactsStatement = preparedSelect('engine_policy_facts', (db) =>
  db
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
    .where(eq(organizations.id, sql.placeholder('organizationId'))),
);

/** The axes every claim line must be allocated on. */
export async function listRequiredClaimAxes(db: Database, q: { organizationId: string }) {
  return requiredAxesStatement(db, { organizationId: q.organizationId });
}

const requiredAxesStatement = preparedSelect('engine_required_axes', (db) =>
  db
    .select({ id: analyticAxes.id, code: analyticAxes.code, name: analyticAxes.name })
    .from(analyticAxes)
    .where(and(eq(analyticAxes.organizationId, sql.placeholder('organizationId')), eq(analyticAxes.requiredOnClaims, true), eq(analyticAxes.active, true)))
    .orderBy(asc(analyticAxes.code)),
);

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

/**
 * The sign-offs of several claims, each of its own round and step (a page of the claim list), in one
 * statement whatever their number; each claim's in listRoundSignoffs' order.
 */
export async function listRoundSignoffsOf(db: Database, q: { organizationId: string; keys: { claimId: string; round: number; state: string }[] }): Promise<SignoffRow[]> {
  if (q.keys.length === 0) return [];
  return roundSignoffsStatement(db, {
    organizationId: q.organizationId,
    claimIds: q.keys.map((k) => k.claimId),
    rounds: q.keys.map((k) => k.round),
    states: q.keys.map((k) => k.state),
  });
}

const roundSignoffsStatement = preparedSelect('engine_round_signoffs_of', (db) => {
  const s = claimSignoffs;
  return db
    .select()
    .from(s)
    .where(
      and(
        eq(s.organizationId, sql.placeholder('organizationId')),
        sql`(${s.claimId}, ${s.round}, ${s.state}) in (select * from unnest(${sql.placeholder('claimIds')}::uuid[], ${sql.placeholder('rounds')}::int[], ${sql.placeholder('states')}::text[]))`,
      ),
    )
    .orderBy(asc(s.claimId), asc(s.createdAt), asc(s.accountCode), asc(s.analyticAccountId));
});

export async function insertSignoffs(db: Database, rows: (typeof claimSignoffs.$inferInsert)[]): Promise<(typeof claimSignoffs.$inferSelect)[]> {
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

/** An open sign-off with what resolving it needs of its claim, and its place in the walk (created_at as text, exact to the microsecond). */
export interface OpenSignoffRow {
  signoff: SignoffRow;
  claim: { claimantMemberId: string; claimantPositionId: string | null };
  after: { value: string; id: string };
}

/**
 * Up to `limit` unsigned sign-offs of the organization's claims still in their step and round, in
 * creation order after `after` (the previous page's last), on `analyticAccountIds` only when given: the organization's open sign-offs a
 * page at a time, so a walk over all of them holds one page in memory.
 */
export async function listOpenSignoffsPage(
  db: Database,
  q: { organizationId: string; analyticAccountIds?: string[]; after?: { value: string; id: string }; limit: number },
): Promise<OpenSignoffRow[]> {
  const rows = await db
    .select({ s: claimSignoffs, claimantMemberId: claims.claimantMemberId, claimantPositionId: claims.claimantPositionId, createdAt: sql<string>`${claimSignoffs.createdAt}::text` })
    .from(claimSignoffs)
    .innerJoin(claims, signoffInClaimStep)
    .where(
      and(
        eq(claimSignoffs.organizationId, q.organizationId),
        isNull(claimSignoffs.signatureId),
        q.analyticAccountIds ? inArray(claimSignoffs.analyticAccountId, q.analyticAccountIds) : undefined,
        q.after ? keysetCondition(claimSignoffs.createdAt, claimSignoffs.id, 'asc', q.after, 'timestamptz') : undefined,
      ),
    )
    .orderBy(asc(claimSignoffs.createdAt), asc(claimSignoffs.id))
    .limit(q.limit);
  return rows.map((r) => ({
    signoff: r.s,
    claim: { claimantMemberId: r.claimantMemberId, claimantPositionId: r.claimantPositionId },
    after: { value: r.createdAt, id: r.s.id },
  }));
}

/**
 * The organizations whose open sign-offs are due a refresh by the calendar at `now` (each on its own day,
 * in its time zone): never refreshed (once, open sign-offs or not), or refreshed on an earlier day after
 * which an active approver assignment or a position assignment (not withdrawn) started or ended
 * (valid_to is the last day it counts, so it ends the day after). Longest unrefreshed first, at most
 * `limit`.
 */
export async function listDatedRefreshDue(db: Database, q: { now: Date; limit: number }): Promise<string[]> {
  const at = q.now.toISOString();
  const today = sql`(${at}::timestamptz at time zone ${organizations.timeZone})::date`;
  const since = signoffRefreshDays.refreshedOn;
  const passed = (from: SQL, to: SQL) => sql`((${from} > ${since} and ${from} <= ${today}) or (${to} >= ${since} and ${to} < ${today}))`;
  const rows = await db
    .select({ organizationId: organizations.id })
    .from(organizations)
    .leftJoin(signoffRefreshDays, eq(signoffRefreshDays.organizationId, organizations.id))
    .where(
      or(
        isNull(since),
        and(
          sql`${since} < ${today}`,
          or(
            sql`exists (select 1 from ${approverAssignments} a where a.organization_id = ${organizations.id} and a.active and ${passed(sql`a.valid_from`, sql`a.valid_to`)})`,
            sql`exists (select 1 from ${positionAssignments} p where p.organization_id = ${organizations.id} and p.withdrawn_at is null and ${passed(sql`p.valid_from`, sql`p.valid_to`)})`,
          ),
        ),
      ),
    )
    .orderBy(sql`${since} nulls first`, asc(organizations.id))
    .limit(q.limit);
  return rows.map((r) => r.organizationId);
}

/** Records that the organization's open sign-offs were refreshed as of `day`. */
export async function markSignoffsRefreshed(db: Database, q: { organizationId: string; day: string }) {
  await db
    .insert(signoffRefreshDays)
    .values({ organizationId: q.organizationId, refreshedOn: q.day })
    .onConflictDoUpdate({ target: signoffRefreshDays.organizationId, set: { refreshedOn: q.day } });
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
