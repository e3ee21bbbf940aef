/**
 * Appending an event: one row in the transaction of the change it tells of (a rollback leaves no
 * event), then every subscriber in the same transaction. Webhook fan-out is the first subscriber
 * (services/webhooks/fan-out.ts); anything else that reacts to events (notifications) subscribes the
 * same way and reads the same row, never the change's own service.
 */
import type { Database } from '../../db/client';
import { insertEvent, type AppendedEvent, type EventRow } from '../../db/queries/events';
import type { ServiceContext } from '../context';
import { fanOutToWebhooks } from '../webhooks/fan-out';
import type { EventType, SubjectType } from './types';

export interface EventSubject {
  type: SubjectType;
  id: string;
  /** The subject's revision after the change (null for a subject without one). */
  revision: number | null;
}

export interface AppendEventInput {
  organizationId: string;
  type: EventType;
  occurredAt: Date;
  actorMemberId: string | null;
  subject: EventSubject;
  data?: Record<string, unknown>;
}

/** Runs in the transaction of the append, after the row is written. */
export type EventSubscriber = (db: Database, event: AppendedEvent) => Promise<void>;

const subscribers: EventSubscriber[] = [fanOutToWebhooks];

/** Registers a subscriber once per process (module load of its service). */
export function subscribeToEvents(subscriber: EventSubscriber): void {
  if (!subscribers.includes(subscriber)) subscribers.push(subscriber);
}

export async function appendEvent(db: Database, input: AppendEventInput): Promise<EventRow> {
  const row = await insertEvent(db, {
    organizationId: input.organizationId,
    type: input.type,
    occurredAt: input.occurredAt,
    actorMemberId: input.actorMemberId,
    subjectType: input.subject.type,
    subjectId: input.subject.id,
    subjectRevision: input.subject.revision,
    data: input.data ?? {},
  });
  await runSubscribers(db, row);
  return row;
}

/**
 * appendEvent's second half: every subscriber, in the transaction, on an event row already written
 * (by a change that wrote its event in its own statement: insertDocumentWithLinesAndEvent).
 */
export async function runSubscribers(db: Database, event: AppendedEvent): Promise<void> {
  for (const subscriber of subscribers) await subscriber(db, event);
}

/**
 * The fields of an event told by a change made through a service context (its actor and clock), for a
 * statement that writes the event beside the change (the subject's id and revision come from the row
 * it writes): recordEvent's fields, so both ways of appending tell the same.
 */
export function contextEvent(ctx: ServiceContext, type: EventType, subjectType: SubjectType, data: Record<string, unknown> = {}) {
  return { type, occurredAt: ctx.now, actorMemberId: ctx.principal.memberId, subjectType, data };
}

/** The event of a change made through a service context: its organization, actor and clock. */
export function recordEvent(ctx: ServiceContext, type: EventType, subject: EventSubject, data: Record<string, unknown> = {}): Promise<EventRow> {
  const { occurredAt, actorMemberId } = contextEvent(ctx, type, subject.type, data);
  return appendEvent(ctx.db, { organizationId: ctx.org.id, type, occurredAt, actorMemberId, subject, data });
}
