import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Failed logins (auth.login), shared by every process on the database, counted on the injected
 * clock. Two kinds of row:
 * - `address`: failures from one source address in a fixed window (`window_started_at`); over the
 *   limit, every attempt from the address is refused until the window ends.
 * - `account`: consecutive failures of one login name (subject: SHA-256 of the lower-cased e-mail,
 *   so unknown e-mails are counted exactly like known ones and no typed e-mail is stored in clear);
 *   past the free failures, `locked_until` grows by doubling. A successful login deletes the row.
 * Not a tenant table: a login precedes knowing the organization.
 */
export const loginFailures = pgTable(
  'login_failures',
  {
    kind: text('kind').$type<'address' | 'account'>().notNull(),
    subject: text('subject').notNull(),
    failures: integer('failures').notNull(),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
    lastFailedAt: timestamp('last_failed_at', { withTimezone: true }).notNull(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.kind, t.subject] })],
);
