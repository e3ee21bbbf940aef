/**
 * What an event looks like to a client, in GET /v1/events and in the body of a webhook delivery
 * (the Standard Webhooks envelope: `type`, `timestamp`, `data`; here `data` is the event itself).
 */
import type { EventRow } from '../../db/queries/events';

export interface EventView {
  id: string;
  type: string;
  occurred_at: string;
  organization_id: string;
  actor_member_id: string | null;
  subject: { type: string; id: string; revision: number | null };
  data: Record<string, unknown>;
}

export function eventView(row: EventRow): EventView {
  return {
    id: row.id,
    type: row.type,
    occurred_at: row.occurredAt.toISOString(),
    organization_id: row.organizationId,
    actor_member_id: row.actorMemberId,
    subject: { type: row.subjectType, id: row.subjectId, revision: row.subjectRevision },
    data: row.data,
  };
}

/** The JSON body a delivery sends, fixed when the delivery is made (the same on every attempt). */
export function deliveryBody(event: EventView): string {
  return JSON.stringify({ type: event.type, timestamp: event.occurred_at, data: event });
}
