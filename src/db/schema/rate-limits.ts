import { bigint, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Fixed-window rate-limit counters shared by every process on one PostgreSQL (rate-limiter-flexible's
 * RateLimiterDrizzle store: one atomic upsert per hit). Keys are `<limit>:<api key id | organization
 * id | source address>`. Not a tenant table: a counter belongs to the limit, and rows are throwaway.
 * On the embedded database the counters live in memory and this table stays empty.
 * UNLOGGED, half of each page free, vacuumed every thousand dead versions (migration 0040; Drizzle
 * has no words for these): a counting statement commits without waiting for a WAL flush, and a
 * crash only starts every window again.
 */
export const rateLimitCounters = pgTable('rate_limit_counters', {
  key: text('key').primaryKey(),
  points: integer('points').notNull().default(0),
  expire: timestamp('expire', { withTimezone: true }),
});

/**
 * One counter per organization, raised by triggers (migration 0021) in the same transaction as
 * every change to who may do what there: an API key revoked or changed, a member deactivated, a
 * member's roles or a role's permissions changed, the organization's settings changed. A process
 * that cached a principal checks the epoch in the statement it runs anyway (the rate-limit
 * counters), so a cached principal is never used after the change committed, on any process.
 * No foreign key: an organization being deleted fires the triggers of its members on the way out.
 */
export const authEpochs = pgTable('auth_epochs', {
  organizationId: uuid('organization_id').primaryKey(),
  epoch: bigint('epoch', { mode: 'number' }).notNull().default(0),
});
