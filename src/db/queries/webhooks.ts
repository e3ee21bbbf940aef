import { and, asc, desc, eq, gte, inArray, lt, lte, sql } from 'drizzle-orm';
import type { Database } from '../client';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../schema';
import { keysetCondition } from './keyset';

/** Webhook endpoints, their deliveries and the attempts of each (schema/events.ts). */

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

export async function insertEndpoint(db: Database, values: typeof webhookEndpoints.$inferInsert): Promise<EndpointRow> {
  const [row] = await db.insert(webhookEndpoints).values(values).returning();
  return row!;
}

export async function findEndpoint(db: Database, q: { organizationId: string; id: string; lock?: boolean }): Promise<EndpointRow | undefined> {
  const query = db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.organizationId, q.organizationId), eq(webhookEndpoints.id, q.id)));
  const [row] = q.lock ? await query.for('update') : await query;
  return row;
}

/** Oldest first, a keyset page by (created_at, id). */
export async function listEndpointRows(db: Database, q: { organizationId: string; after?: { value: string; id: string }; take: number }) {
  const conditions = [eq(webhookEndpoints.organizationId, q.organizationId)];
  if (q.after) conditions.push(keysetCondition(webhookEndpoints.createdAt, webhookEndpoints.id, 'asc', q.after, 'timestamptz'));
  return db
    .select({ endpoint: webhookEndpoints, sortValue: sql<string>`${webhookEndpoints.createdAt}::text` })
    .from(webhookEndpoints)
    .where(and(...conditions))
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id))
    .limit(q.take);
}

export async function updateEndpointRow(db: Database, q: { organizationId: string; id: string }, values: Partial<typeof webhookEndpoints.$inferInsert>): Promise<EndpointRow> {
  const [row] = await db
    .update(webhookEndpoints)
    .set(values)
    .where(and(eq(webhookEndpoints.organizationId, q.organizationId), eq(webhookEndpoints.id, q.id)))
    .returning();
  return row!;
}

export async function deleteEndpointRow(db: Database, q: { organizationId: string; id: string }): Promise<void> {
  await db.delete(webhookEndpoints).where(and(eq(webhookEndpoints.organizationId, q.organizationId), eq(webhookEndpoints.id, q.id)));
}

export async function insertDeliveries(db: Database, rows: (typeof webhookDeliveries.$inferInsert)[]): Promise<DeliveryRow[]> {
  if (rows.length === 0) return [];
  return db.insert(webhookDeliveries).values(rows).returning();
}

export async function findDelivery(db: Database, q: { organizationId: string; id: string }): Promise<DeliveryRow | undefined> {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.organizationId, q.organizationId), eq(webhookDeliveries.id, q.id)));
  return row;
}

/** An endpoint's deliveries, newest first, a keyset page by (created_at, id). */
export async function listDeliveryRows(db: Database, q: { organizationId: string; endpointId: string; after?: { value: string; id: string }; take: number }) {
  const conditions = [eq(webhookDeliveries.organizationId, q.organizationId), eq(webhookDeliveries.endpointId, q.endpointId)];
  if (q.after) conditions.push(keysetCondition(webhookDeliveries.createdAt, webhookDeliveries.id, 'desc', q.after, 'timestamptz'));
  return db
    .select({ delivery: webhookDeliveries, sortValue: sql<string>`${webhookDeliveries.createdAt}::text` })
    .from(webhookDeliveries)
    .where(and(...conditions))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(q.take);
}

export async function listAttemptRows(db: Database, q: { organizationId: string; deliveryIds: string[] }): Promise<AttemptRow[]> {
  if (q.deliveryIds.length === 0) return [];
  return db
    .select()
    .from(webhookAttempts)
    .where(and(eq(webhookAttempts.organizationId, q.organizationId), inArray(webhookAttempts.deliveryId, q.deliveryIds)))
    .orderBy(asc(webhookAttempts.deliveryId), asc(webhookAttempts.number));
}

/** The outcome of attempt `number` of a delivery: its log row and the delivery's new state (only if no other attempt got there first). */
export async function recordAttempt(
  db: Database,
  q: {
    organizationId: string;
    deliveryId: string;
    number: number;
    attempt: Omit<typeof webhookAttempts.$inferInsert, 'id' | 'organizationId' | 'deliveryId' | 'number'>;
    delivery: Partial<typeof webhookDeliveries.$inferInsert>;
  },
): Promise<boolean> {
  const moved = await db
    .update(webhookDeliveries)
    .set({ ...q.delivery, attempts: q.number })
    .where(
      and(
        eq(webhookDeliveries.organizationId, q.organizationId),
        eq(webhookDeliveries.id, q.deliveryId),
        eq(webhookDeliveries.attempts, q.number - 1),
        eq(webhookDeliveries.state, 'pending'),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  if (moved.length === 0) return false;
  await db.insert(webhookAttempts).values({ ...q.attempt, organizationId: q.organizationId, deliveryId: q.deliveryId, number: q.number });
  return true;
}

/** Ends a pending delivery without an attempt (its endpoint was disabled or deleted meanwhile). */
export async function failDelivery(db: Database, q: { organizationId: string; id: string; error: string; now: Date }): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ state: 'failed', lastError: q.error, finishedAt: q.now, nextAttemptAt: null })
    .where(and(eq(webhookDeliveries.organizationId, q.organizationId), eq(webhookDeliveries.id, q.id), eq(webhookDeliveries.state, 'pending')));
}

/**
 * Failed deliveries put back to pending for one more attempt each: one by id, or every one of an
 * endpoint that failed at or after `since`. Answers those it put back.
 */
export async function reopenFailedDeliveries(
  db: Database,
  q: { organizationId: string; endpointId: string; id?: string; since?: Date; now: Date; limit: number },
): Promise<DeliveryRow[]> {
  const conditions = [eq(webhookDeliveries.organizationId, q.organizationId), eq(webhookDeliveries.endpointId, q.endpointId), eq(webhookDeliveries.state, 'failed')];
  if (q.id) conditions.push(eq(webhookDeliveries.id, q.id));
  if (q.since) conditions.push(gte(webhookDeliveries.finishedAt, q.since));
  const chosen = db.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(and(...conditions)).limit(q.limit);
  return db
    .update(webhookDeliveries)
    .set({ state: 'pending', maxAttempts: sql`${webhookDeliveries.attempts} + 1`, nextAttemptAt: q.now, finishedAt: null, lastError: null })
    .where(and(eq(webhookDeliveries.organizationId, q.organizationId), inArray(webhookDeliveries.id, chosen)))
    .returning();
}

/** Deliveries (their attempts with them) of every organization created before `before`, a batch at a time. */
export async function deleteDeliveriesOfAllOrganizations(db: Database, q: { before: Date; batchSize: number }): Promise<number> {
  const rows = await db
    .delete(webhookDeliveries)
    .where(
      inArray(
        webhookDeliveries.id,
        db
          .select({ id: webhookDeliveries.id })
          .from(webhookDeliveries)
          .where(and(lt(webhookDeliveries.createdAt, q.before), sql`${webhookDeliveries.state} <> 'pending'`))
          .limit(q.batchSize),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return rows.length;
}

/**
 * An attempt's outcome on its endpoint: delivered clears `failing_since`; failed sets it when unset,
 * and disables the endpoint when it has been failing since `disableIfFailingSince` or before.
 * Answers whether this disabled it.
 */
export async function noteEndpointOutcome(
  db: Database,
  q: { organizationId: string; id: string; delivered: boolean; now: Date; disableIfFailingSince: Date },
): Promise<boolean> {
  const where = and(eq(webhookEndpoints.organizationId, q.organizationId), eq(webhookEndpoints.id, q.id));
  if (q.delivered) {
    await db.update(webhookEndpoints).set({ failingSince: null }).where(and(where, sql`${webhookEndpoints.failingSince} is not null`));
    return false;
  }
  await db
    .update(webhookEndpoints)
    .set({ failingSince: q.now })
    .where(and(where, sql`${webhookEndpoints.failingSince} is null`));
  const disabled = await db
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: 'failing', revision: sql`${webhookEndpoints.revision} + 1`, updatedAt: q.now })
    .where(and(where, eq(webhookEndpoints.enabled, true), lte(webhookEndpoints.failingSince, q.disableIfFailingSince)))
    .returning({ id: webhookEndpoints.id });
  return disabled.length > 0;
}
