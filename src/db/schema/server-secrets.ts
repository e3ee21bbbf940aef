import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Secrets every server process of one database shares (not tenant data): generated once, on first
 * use, when the environment does not configure them. `cursor` signs list cursors (CURSOR_SECRET).
 */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
