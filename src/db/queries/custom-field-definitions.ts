import { and, asc, eq } from 'drizzle-orm';
import { type Database } from '../client';
import { customFieldDefinitions } from '../schema';
import { afterKey, type SetupListQuery as ListQuery } from './keyset';

/** Custom field definitions: lookups, set-up lists and changes, each scoped to one organization (ids of another are simply not found). */

export async function findCustomFieldDefinitions(db: Database, q: { organizationId: string; recordType: 'receivable_document' | 'customer' | 'expense_claim' }) {
  return db
    .select()
    .from(customFieldDefinitions)
    .where(and(eq(customFieldDefinitions.organizationId, q.organizationId), eq(customFieldDefinitions.recordType, q.recordType)));
}

export async function insertCustomFieldDefinition(db: Database, values: typeof customFieldDefinitions.$inferInsert) {
  const [row] = await db.insert(customFieldDefinitions).values(values).returning();
  return row;
}

export type CustomFieldDefinitionRow = typeof customFieldDefinitions.$inferSelect;

export async function listCustomFieldDefinitions(
  db: Database,
  q: ListQuery & { recordType?: 'receivable_document' | 'customer' | 'expense_claim' },
): Promise<CustomFieldDefinitionRow[]> {
  const where = [eq(customFieldDefinitions.organizationId, q.organizationId), afterKey(customFieldDefinitions.key, customFieldDefinitions.id, q.after)];
  if (q.recordType) where.push(eq(customFieldDefinitions.recordType, q.recordType));
  if (!q.includeInactive) where.push(eq(customFieldDefinitions.active, true));
  return db
    .select()
    .from(customFieldDefinitions)
    .where(and(...where))
    .orderBy(asc(customFieldDefinitions.key), asc(customFieldDefinitions.id))
    .limit(q.limit);
}

export async function lockCustomFieldDefinition(db: Database, q: { organizationId: string; id: string }): Promise<CustomFieldDefinitionRow | undefined> {
  const [row] = await db
    .select()
    .from(customFieldDefinitions)
    .where(and(eq(customFieldDefinitions.organizationId, q.organizationId), eq(customFieldDefinitions.id, q.id)))
    .for('update');
  return row;
}

export async function updateCustomFieldDefinitionRow(
  db: Database,
  q: { organizationId: string; id: string },
  values: Partial<typeof customFieldDefinitions.$inferInsert>,
) {
  const [row] = await db
    .update(customFieldDefinitions)
    .set(values)
    .where(and(eq(customFieldDefinitions.organizationId, q.organizationId), eq(customFieldDefinitions.id, q.id)))
    .returning();
  return row;
}
