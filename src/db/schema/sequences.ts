import { integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations';

/**
 * Per-organization number sequences, one row per (organization, name): document references
 * (`sales_invoice:2026`), claim references (`claim:2026`). Taken under a row lock by
 * queries/sequences.ts, so numbers have neither duplicates nor gaps.
 */
export const sequences = pgTable(
  'sequences',
  {
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    name: text('name').notNull(),
    lastValue: integer('last_value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.name] })],
);
