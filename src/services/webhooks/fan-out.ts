/**
 * Fan-out: an appended event becomes one delivery per enabled endpoint subscribed to its type, each
 * with its delivery job, in the event's own transaction (so a change, its event and its deliveries
 * commit together, and the job runner sends them after).
 */
import type { Database } from '../../db/client';
import type { AppendedEvent } from '../../db/queries/events';
import { insertDeliveries, type DeliveryRow } from '../../db/queries/webhooks';
import { insertJob } from '../../db/queries/jobs';
import { deliveryBody, eventView } from './payload';
import { DELIVER_JOB, deliveryDedupeKey, SCHEDULE_ATTEMPTS } from './schedule';

export async function fanOutToWebhooks(db: Database, event: AppendedEvent): Promise<void> {
  // The subscribed endpoints came back with the event's own insert.
  const endpoints = event.subscribedEndpointIds.map((id) => ({ id }));
  if (endpoints.length === 0) return;
  const body = deliveryBody(eventView(event));
  const deliveries = await insertDeliveries(
    db,
    endpoints.map((e) => ({
      organizationId: event.organizationId,
      endpointId: e.id,
      eventId: event.id,
      eventType: event.type,
      messageId: `msg_${event.id}`,
      body,
      maxAttempts: SCHEDULE_ATTEMPTS,
      nextAttemptAt: event.occurredAt,
      createdAt: event.occurredAt,
    })),
  );
  for (const d of deliveries) await enqueueDelivery(db, d, event.occurredAt);
}

/** The job that makes a pending delivery's next attempt at `runAt`. */
export async function enqueueDelivery(db: Database, delivery: Pick<DeliveryRow, 'id' | 'organizationId'>, runAt: Date, now: Date = runAt): Promise<void> {
  await insertJob(db, {
    kind: DELIVER_JOB,
    payload: { delivery_id: delivery.id },
    organizationId: delivery.organizationId,
    runAt,
    createdAt: now,
    dedupeKey: deliveryDedupeKey(delivery.id),
    maxAttempts: 10,
  });
}
