import { sql } from 'drizzle-orm';
import { boolean, date, integer, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations';

/**
 * The organization's reference exchange rates by date: `rate` base-currency units per one unit of
 * `currency` (never the base currency itself). A claim line priced with `fx_rate_source: reference`
 * takes the latest active rate on or before its expense date. One active rate per currency and day;
 * a deactivated one stays for history and frees its day.
 */
export const exchangeRates = pgTable(
  'exchange_rates',
  {
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    id: uuid('id').notNull().defaultRandom(),
    currency: text('currency').notNull(),
    rateDate: date('rate_date', { mode: 'string' }).notNull(),
    rate: numeric('rate', { precision: 20, scale: 10 }).notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revision: integer('revision').notNull().default(1),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    // Also the index of "latest rate on or before a day" (findReferenceRateOn).
    uniqueIndex('exchange_rates_org_currency_date').on(t.organizationId, t.currency, t.rateDate).where(sql`${t.active}`),
  ],
);
