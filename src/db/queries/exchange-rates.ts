import { and, asc, desc, eq, lte, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../client';
import { exchangeRates } from '../schema';

/** The organization's reference exchange rates by date (base-currency units per one unit of `currency`). */

export type ExchangeRateRow = typeof exchangeRates.$inferSelect;

/**
 * The reference rate a claim line uses for `fx_rate_source: reference`: the latest active rate of
 * `currency` dated on or before `day`, or undefined when the organization has none by then.
 */
export async function findReferenceRateOn(db: Database, q: { organizationId: string; currency: string; day: string }): Promise<ExchangeRateRow | undefined> {
  const [row] = await db
    .select()
    .from(exchangeRates)
    .where(
      and(
        eq(exchangeRates.organizationId, q.organizationId),
        eq(exchangeRates.currency, q.currency),
        eq(exchangeRates.active, true),
        lte(exchangeRates.rateDate, q.day),
      ),
    )
    .orderBy(desc(exchangeRates.rateDate))
    .limit(1);
  return row;
}

export async function findExchangeRate(db: Database, q: { organizationId: string; id: string }) {
  const [row] = await db
    .select()
    .from(exchangeRates)
    .where(and(eq(exchangeRates.organizationId, q.organizationId), eq(exchangeRates.id, q.id)));
  return row;
}

export async function lockExchangeRate(db: Database, q: { organizationId: string; id: string }) {
  const [row] = await db
    .select()
    .from(exchangeRates)
    .where(and(eq(exchangeRates.organizationId, q.organizationId), eq(exchangeRates.id, q.id)))
    .for('update');
  return row;
}

/**
 * Rates by currency, newest day first, then id: the cursor value is `<currency>:<rate_date>`.
 */
export async function listExchangeRates(
  db: Database,
  q: { organizationId: string; includeInactive: boolean; currency?: string; after: { value: string | null; id: string } | undefined; limit: number },
): Promise<ExchangeRateRow[]> {
  const r = exchangeRates;
  const where: SQL[] = [eq(r.organizationId, q.organizationId)];
  if (!q.includeInactive) where.push(eq(r.active, true));
  if (q.currency) where.push(eq(r.currency, q.currency));
  if (q.after?.value) {
    const [currency, day] = q.after.value.split(':');
    where.push(
      sql`(${r.currency} > ${currency} or (${r.currency} = ${currency} and (${r.rateDate} < ${day}::date or (${r.rateDate} = ${day}::date and ${r.id} > ${q.after.id}::uuid))))`,
    );
  }
  return db
    .select()
    .from(r)
    .where(and(...where))
    .orderBy(asc(r.currency), desc(r.rateDate), asc(r.id))
    .limit(q.limit);
}

/** Inserts a rate; an active one of the same currency and day raises `exchange_rates_org_currency_date`. */
export async function insertExchangeRate(db: Database, values: typeof exchangeRates.$inferInsert & { organizationId: string }) {
  const [row] = await db.insert(exchangeRates).values(values).returning();
  return row;
}

export async function updateExchangeRateRow(db: Database, q: { organizationId: string; id: string; set: Partial<Pick<ExchangeRateRow, 'rate' | 'active'>> }) {
  const [row] = await db
    .update(exchangeRates)
    .set({ ...q.set, revision: sql`${exchangeRates.revision} + 1` })
    .where(and(eq(exchangeRates.organizationId, q.organizationId), eq(exchangeRates.id, q.id)))
    .returning();
  return row;
}
