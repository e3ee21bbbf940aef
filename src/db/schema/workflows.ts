import { jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { WorkflowDefinition } from '../../domain/workflow';
import { organizations } from './organizations';

/** Each organization's workflow per record type, stored (not hard-coded in handlers). */
export const workflows = pgTable(
  'workflows',
  {
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    id: uuid('id').notNull().defaultRandom(),
    recordType: text('record_type', { enum: ['receivable_document', 'expense_claim'] }).notNull(),
    definition: jsonb('definition').$type<WorkflowDefinition>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] }), uniqueIndex('workflows_org_record_type').on(t.organizationId, t.recordType)],
);
