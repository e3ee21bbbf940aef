import { asc, eq } from 'drizzle-orm';
import type { Database } from '../client';
import { organizations } from '../schema';

export async function findOrganization(db: Database, q: { organizationId: string }) {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, q.organizationId));
  return row;
}

/** Creates an organization: the one insert that precedes knowing an organization id. */
export async function insertOrganization(db: Database, values: typeof organizations.$inferInsert) {
  const [row] = await db.insert(organizations).values(values).returning();
  return row;
}

/** Every organization, oldest first: the admin CLI's view across tenants (never an API answer). */
export async function listOrganizations(db: Database) {
  return db
    .select({ id: organizations.id, name: organizations.name, baseCurrency: organizations.baseCurrency, timeZone: organizations.timeZone, createdAt: organizations.createdAt })
    .from(organizations)
    .orderBy(asc(organizations.createdAt), asc(organizations.id));
}
