import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../client';
import { accounts, analyticAccounts, analyticAxes, customers, expenseCategories, memberRoles, members, organizations, roles, taxCodes } from '../schema';

/**
 * What the organization's readiness checklist reads (services/settings/readiness.ts): whether it has
 * an active customer, account, tax code and expense category; its active members with the union of
 * their roles' permissions; and the first active analytic accounts on active axes (the accounts a
 * claim's sign-offs are opened on).
 */

export async function readinessCounts(db: Database, q: { organizationId: string }) {
  const [row] = await db
    .select({
      customer: sql<boolean>`exists (select 1 from ${customers} where ${customers.organizationId} = ${q.organizationId} and ${customers.isActive})`,
      account: sql<boolean>`exists (select 1 from ${accounts} where ${accounts.organizationId} = ${q.organizationId} and ${accounts.active})`,
      taxCode: sql<boolean>`exists (select 1 from ${taxCodes} where ${taxCodes.organizationId} = ${q.organizationId} and ${taxCodes.active})`,
      expenseCategory: sql<boolean>`exists (select 1 from ${expenseCategories} where ${expenseCategories.organizationId} = ${q.organizationId} and ${expenseCategories.active})`,
    })
    .from(organizations)
    .where(eq(organizations.id, q.organizationId));
  return {
    customer: Boolean(row?.customer),
    account: Boolean(row?.account),
    taxCode: Boolean(row?.taxCode),
    expenseCategory: Boolean(row?.expenseCategory),
  };
}

/** The active members and the union of their roles' permissions. */
export async function activeMemberPermissions(db: Database, q: { organizationId: string }): Promise<{ id: string; permissions: string[] }[]> {
  return db
    .select({
      id: members.id,
      permissions: sql<string[]>`coalesce((
        select array_agg(distinct p)
        from ${memberRoles} mr
        join ${roles} r on r.organization_id = mr.organization_id and r.id = mr.role_id
        cross join unnest(r.permissions) as p
        where mr.organization_id = "members"."organization_id" and mr.member_id = "members"."id"), '{}'::text[])`,
    })
    .from(members)
    .where(and(eq(members.organizationId, q.organizationId), eq(members.active, true)))
    .orderBy(asc(members.createdAt), asc(members.id));
}

/** Up to `limit` active analytic accounts on active axes, with their axis. */
export async function activeAnalyticAccounts(db: Database, q: { organizationId: string; limit: number }) {
  return db
    .select({ id: analyticAccounts.id, axisId: analyticAccounts.axisId })
    .from(analyticAccounts)
    .innerJoin(analyticAxes, and(eq(analyticAxes.organizationId, analyticAccounts.organizationId), eq(analyticAxes.id, analyticAccounts.axisId)))
    .where(and(eq(analyticAccounts.organizationId, q.organizationId), eq(analyticAccounts.active, true), eq(analyticAxes.active, true)))
    .orderBy(asc(analyticAccounts.code), asc(analyticAccounts.id))
    .limit(q.limit);
}
