import { bigserial, index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations';

/**
 * Append-only history of every change to reference data and authority (docs/design.md §15): who,
 * when, the record before and after. Never updated or deleted, so the set-up in force on any day
 * can be rebuilt. `seq` orders entries written in the same instant.
 */
export const settingsHistory = pgTable(
  'settings_history',
  {
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    id: uuid('id').notNull().defaultRandom(),
    /** The entity's procedure name: accounts, taxCodes, members, roles, profile, ... */
    entity: text('entity').notNull(),
    recordId: uuid('record_id').notNull(),
    /** create, update, deactivate, reactivate, delete, set_roles, set_password, ... */
    action: text('action').notNull(),
    actorMemberId: uuid('actor_member_id'),
    /** How the actor reached the change: session, api_key or system (CLI, demo, migration). */
    actorVia: text('actor_via').notNull(),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
    before: jsonb('before').$type<Record<string, unknown> | null>(),
    after: jsonb('after').$type<Record<string, unknown> | null>(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.seq] }),
    index('settings_history_record_idx').on(t.organizationId, t.entity, t.recordId, t.seq),
  ],
);
