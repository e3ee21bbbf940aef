import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations';

/**
 * The stored answer of a completed write made with an Idempotency-Key. A row exists only for a
 * success and is written in the same transaction as the write, so a crash stores neither.
 *
 * `scope` is the namespace of the key: `api_key:<key id>` for an API key, `member:<member id>` for
 * a session (a person's sessions share their keys).
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    /** SHA-256 (hex) of method, route template, path parameters and canonical JSON input. */
    fingerprint: text('fingerprint').notNull(),
    /** The procedure path, for operators reading the table. */
    route: text('route').notNull(),
    status: integer('status').notNull(),
    /** The answer's JSON exactly as first sent (text keeps key order, so a replay is byte-identical). */
    body: text('body').notNull(),
    /** The replayed headers (ETag, Location). */
    headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.scope, t.key] }), index('idempotency_keys_expires_idx').on(t.expiresAt)],
);
