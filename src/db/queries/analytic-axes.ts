import { and, asc, eq, sql } from 'drizzle-orm';
import { queryRows, type Database } from '../client';
import { analyticAccounts, analyticAxes, receivableLineShares } from '../schema';
import { afterKey, type SetupListQuery as ListQuery } from './keyset';

/** Analytic axes (the project axis among them): lookups, set-up lists and changes, each scoped to one organization (ids of another are simply not found). */

/** The organization's project axis (at most one), if it has one. */
export async function findProjectAxis(db: Database, q: { organizationId: string }) {
  const [row] = await db
    .select()
    .from(analyticAxes)
    .where(and(eq(analyticAxes.organizationId, q.organizationId), eq(analyticAxes.isProjectAxis, true)));
  return row;
}

export async function insertAnalyticAxis(db: Database, values: typeof analyticAxes.$inferInsert) {
  const [row] = await db.insert(analyticAxes).values(values).returning();
  return row;
}

export type AnalyticAxisRow = typeof analyticAxes.$inferSelect;

export async function listAnalyticAxes(db: Database, q: ListQuery): Promise<AnalyticAxisRow[]> {
  const where = [eq(analyticAxes.organizationId, q.organizationId), afterKey(analyticAxes.code, analyticAxes.id, q.after)];
  if (!q.includeInactive) where.push(eq(analyticAxes.active, true));
  return db.select().from(analyticAxes).where(and(...where)).orderBy(asc(analyticAxes.code), asc(analyticAxes.id)).limit(q.limit);
}

export async function findAnalyticAxis(db: Database, q: { organizationId: string; id: string }): Promise<AnalyticAxisRow | undefined> {
  const [row] = await db.select().from(analyticAxes).where(and(eq(analyticAxes.organizationId, q.organizationId), eq(analyticAxes.id, q.id)));
  return row;
}

export async function lockAnalyticAxis(db: Database, q: { organizationId: string; id: string }): Promise<AnalyticAxisRow | undefined> {
  const [row] = await db.select().from(analyticAxes).where(and(eq(analyticAxes.organizationId, q.organizationId), eq(analyticAxes.id, q.id))).for('update');
  return row;
}

export async function updateAnalyticAxisRow(db: Database, q: { organizationId: string; id: string }, values: Partial<typeof analyticAxes.$inferInsert>) {
  const [row] = await db.update(analyticAxes).set(values).where(and(eq(analyticAxes.organizationId, q.organizationId), eq(analyticAxes.id, q.id))).returning();
  return row;
}

/** Whether a document line shares an account of the axis (its project summary was computed with the axis's flag). */
export async function isAnalyticAxisUsed(db: Database, q: { organizationId: string; axisId: string }): Promise<boolean> {
  const [row] = await queryRows<{ used: boolean }>(db, sql`select exists (
      select 1 from ${receivableLineShares}
      where ${receivableLineShares.organizationId} = ${q.organizationId}
        and ${receivableLineShares.analyticAccountId} in (
          select ${analyticAccounts.id} from ${analyticAccounts}
          where ${analyticAccounts.organizationId} = ${q.organizationId} and ${analyticAccounts.axisId} = ${q.axisId})
    ) as used`);
  return Boolean(row?.used);
}
