import { and, asc, eq } from 'drizzle-orm';
import { anyOf, type Database } from '../client';
import { accounts } from '../schema';
import { afterKey, type SetupListQuery as ListQuery } from './keyset';

/** The chart of accounts: lookups, set-up lists and changes, each scoped to one organization (ids of another are simply not found). */

export async function findAccountsByIds(db: Database, q: { organizationId: string; ids: string[] }) {
  if (!q.ids.length) return [];
  return db.select().from(accounts).where(and(eq(accounts.organizationId, q.organizationId), anyOf(accounts.id, q.ids)));
}

export async function insertAccount(db: Database, values: typeof accounts.$inferInsert) {
  const [row] = await db.insert(accounts).values(values).returning();
  return row;
}

export type AccountRow = typeof accounts.$inferSelect;

export async function listAccounts(db: Database, q: ListQuery): Promise<AccountRow[]> {
  const where = [eq(accounts.organizationId, q.organizationId), afterKey(accounts.code, accounts.id, q.after)];
  if (!q.includeInactive) where.push(eq(accounts.active, true));
  return db.select().from(accounts).where(and(...where)).orderBy(asc(accounts.code), asc(accounts.id)).limit(q.limit);
}

/** One account under a row lock (a change reads, checks and writes it in one transaction). */
export async function lockAccount(db: Database, q: { organizationId: string; id: string }): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(and(eq(accounts.organizationId, q.organizationId), eq(accounts.id, q.id))).for('update');
  return row;
}

export async function updateAccountRow(db: Database, q: { organizationId: string; id: string }, values: Partial<typeof accounts.$inferInsert>) {
  const [row] = await db.update(accounts).set(values).where(and(eq(accounts.organizationId, q.organizationId), eq(accounts.id, q.id))).returning();
  return row;
}

/** Several accounts at once (the defaults every new organization starts with). */
export async function insertAccounts(db: Database, values: (typeof accounts.$inferInsert)[]) {
  if (!values.length) return [];
  return db.insert(accounts).values(values).returning();
}
