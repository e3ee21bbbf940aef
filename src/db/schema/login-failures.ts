import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Failed logins (auth.login), shared by every process on the database, counted on the injected
 * clock, each row a fixed window (`window_started_at`) of units reserved before a password is
 * verified and given back when the attempt was not a failure. Three kinds of row:
 * - `address`: attempts from one source address; over the limit, every attempt from it is refused.
 * - `pair`: attempts at one login name from one address (subject: SHA-256 of both), so an
 *   attacker's failures lock the name out of the attacker's address only.
 * - `account`: attempts at one login name from anywhere (subject: SHA-256 of the lower-cased e-mail,
 *   so unknown e-mails are counted exactly like known ones and no typed e-mail is stored in clear);
 *   a much higher limit, past which the name is locked everywhere until the window ends.
 * `locked_until` belongs to an older scheme (growing locks) and is no longer set.
 * Not a tenant table: a login precedes knowing the organization.
 */
export const loginFailures = pgTable(
  'login_failures',
  {
    kind: text('kind').$type<'address' | 'pair' | 'account'>().notNull(),
    subject: text('subject').notNull(),
    failures: integer('failures').notNull(),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
    lastFailedAt: timestamp('last_failed_at', { withTimezone: true }).notNull(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.kind, t.subject] })],
);
