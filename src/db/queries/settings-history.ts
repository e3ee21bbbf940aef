import { and, desc, eq, lt, type SQL } from 'drizzle-orm';
import type { Database } from '../client';
import { settingsHistory } from '../schema';

export type SettingsHistoryRow = typeof settingsHistory.$inferSelect;

export async function insertSettingsHistory(db: Database, values: typeof settingsHistory.$inferInsert) {
  await db.insert(settingsHistory).values(values);
}

/** Several entries in one statement (in the given order), e.g. the defaults of a new organization. */
export async function insertSettingsHistoryRows(db: Database, values: (typeof settingsHistory.$inferInsert)[]) {
  if (values.length) await db.insert(settingsHistory).values(values);
}

/** Newest first, keyset on `seq`; optionally one entity or one record. */
export async function listSettingsHistory(
  db: Database,
  q: { organizationId: string; entity?: string; recordId?: string; beforeSeq?: number; limit: number },
): Promise<SettingsHistoryRow[]> {
  const where: SQL[] = [eq(settingsHistory.organizationId, q.organizationId)];
  if (q.entity) where.push(eq(settingsHistory.entity, q.entity));
  if (q.recordId) where.push(eq(settingsHistory.recordId, q.recordId));
  if (q.beforeSeq !== undefined) where.push(lt(settingsHistory.seq, q.beforeSeq));
  return db
    .select()
    .from(settingsHistory)
    .where(and(...where))
    .orderBy(desc(settingsHistory.seq))
    .limit(q.limit);
}
