import { and, asc, eq, sql } from 'drizzle-orm';
import { anyOf, type Database } from '../client';
import { analyticAccounts, analyticAxes } from '../schema';
import { afterKey, type SetupListQuery as ListQuery } from './keyset';

/** Analytic accounts (the projects, departments, ... of an axis): lookups, set-up lists and changes, each scoped to one organization (ids of another are simply not found). */

export async function findAnalyticAccountsByIds(db: Database, q: { organizationId: string; ids: string[] }) {
  if (!q.ids.length) return [];
  return db
    .select({
      id: analyticAccounts.id,
      axisId: analyticAccounts.axisId,
      code: analyticAccounts.code,
      name: analyticAccounts.name,
      // An account of an inactive axis is as unusable as an inactive account.
      active: sql<boolean>`(${analyticAccounts.active} and ${analyticAxes.active})`.mapWith(Boolean),
      isProjectAxis: analyticAxes.isProjectAxis,
    })
    .from(analyticAccounts)
    .innerJoin(analyticAxes, and(eq(analyticAxes.organizationId, analyticAccounts.organizationId), eq(analyticAxes.id, analyticAccounts.axisId)))
    .where(and(eq(analyticAccounts.organizationId, q.organizationId), anyOf(analyticAccounts.id, q.ids)));
}

export async function insertAnalyticAccount(db: Database, values: typeof analyticAccounts.$inferInsert) {
  const [row] = await db.insert(analyticAccounts).values(values).returning();
  return row;
}

export type AnalyticAccountRow = typeof analyticAccounts.$inferSelect;

export async function listAnalyticAccounts(db: Database, q: ListQuery & { axisId?: string }): Promise<AnalyticAccountRow[]> {
  const where = [eq(analyticAccounts.organizationId, q.organizationId), afterKey(analyticAccounts.code, analyticAccounts.id, q.after)];
  if (q.axisId) where.push(eq(analyticAccounts.axisId, q.axisId));
  if (!q.includeInactive) where.push(eq(analyticAccounts.active, true));
  return db.select().from(analyticAccounts).where(and(...where)).orderBy(asc(analyticAccounts.code), asc(analyticAccounts.id)).limit(q.limit);
}

export async function lockAnalyticAccount(db: Database, q: { organizationId: string; id: string }): Promise<AnalyticAccountRow | undefined> {
  const [row] = await db
    .select()
    .from(analyticAccounts)
    .where(and(eq(analyticAccounts.organizationId, q.organizationId), eq(analyticAccounts.id, q.id)))
    .for('update');
  return row;
}

export async function updateAnalyticAccountRow(db: Database, q: { organizationId: string; id: string }, values: Partial<typeof analyticAccounts.$inferInsert>) {
  const [row] = await db
    .update(analyticAccounts)
    .set(values)
    .where(and(eq(analyticAccounts.organizationId, q.organizationId), eq(analyticAccounts.id, q.id)))
    .returning();
  return row;
}
