import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Fixed-window rate-limit counters shared by every process on one PostgreSQL (rate-limiter-flexible's
 * RateLimiterDrizzle store: one atomic upsert per hit). Keys are `<limit>:<api key id | organization
 * id | source address>`. Not a tenant table: a counter belongs to the limit, and rows are throwaway.
 * On the embedded database the counters live in memory and this table stays empty.
 */
export const rateLimitCounters = pgTable('rate_limit_counters', {
  key: text('key').primaryKey(),
  points: integer('points').notNull().default(0),
  expire: timestamp('expire', { withTimezone: true }),
});
