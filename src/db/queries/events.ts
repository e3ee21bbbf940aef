import { and, desc, eq, getTableColumns, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { preparedBuilder, type Database } from '../client';
import { events, webhookEndpoints } from '../schema';
import { keysetCondition } from './keyset';

/**
 * The events table's statements (schema/events.ts): appended in the transaction of a change, read a
 * keyset page at a time newest first, purged after their 30 days.
 */

export type EventRow = typeof events.$inferSelect;
export type NewEvent = Omit<typeof events.$inferInsert, 'id'>;

/** An appended event, with the enabled webhook endpoints subscribed to its type as the insert found them. */
export type AppendedEvent = EventRow & { subscribedEndpointIds: string[] };

/**
 * Appends an event and answers, in the same statement, the ids of the organization's enabled
 * endpoints subscribed to its type (or to every type): the fan-out's question asked without a
 * round trip of its own on every change.
 */
export async function insertEvent(db: Database, event: NewEvent): Promise<AppendedEvent> {
  const [row] = await insertEventStatement(db, { ...event, actorMemberId: event.actorMemberId ?? null, subjectRevision: event.subjectRevision ?? null, data: event.data ?? {} });
  return { ...row!, subscribedEndpointIds: [...(row!.subscribedEndpointIds ?? [])] };
}

/**
 * The ids of the organization's enabled webhook endpoints subscribed to an event type (or to every
 * type), in id order, as an array expression over an event row's organization and type columns: what
 * every statement that appends an event answers beside it.
 */
export function subscribedEndpointIdsSql(organizationId: SQL, type: SQL): SQL<string[]> {
  return sql<string[]>`array(select w.id from ${webhookEndpoints} w where w.organization_id = ${organizationId} and w.enabled
    and (w.types @> array[${type}]::text[] or w.types @> array['*']::text[]) order by w.id)`;
}

/** insertEvent's statement, its text built once (the values through the columns' encoders). */
const insertEventStatement = preparedBuilder<AppendedEvent>((db) => {
  const p = (name: keyof NewEvent) => sql.placeholder(name);
  return db
    .insert(events)
    .values({
      organizationId: p('organizationId'),
      type: p('type'),
      occurredAt: p('occurredAt'),
      actorMemberId: p('actorMemberId'),
      subjectType: p('subjectType'),
      subjectId: p('subjectId'),
      subjectRevision: p('subjectRevision'),
      data: p('data'),
    } as never)
    .returning({
      ...getTableColumns(events),
      subscribedEndpointIds: subscribedEndpointIdsSql(sql`${events.organizationId}`, sql`${events.type}`),
    });
});

export interface EventListQuery {
  organizationId: string;
  types?: string[];
  subjectId?: string;
  since?: Date;
  /** Kept: events older than this are not listed even before the purge took them. */
  notBefore: Date;
  after?: { value: string; id: string };
  take: number;
}

/** Newest first; `occurred_at` as text in the keyset position. */
export async function listEventRows(db: Database, q: EventListQuery): Promise<(EventRow & { sortValue: string })[]> {
  const since = q.since && q.since > q.notBefore ? q.since : q.notBefore;
  const conditions = [eq(events.organizationId, q.organizationId), gte(events.occurredAt, since)];
  if (q.types?.length) conditions.push(inArray(events.type, q.types));
  if (q.subjectId) conditions.push(eq(events.subjectId, q.subjectId));
  if (q.after) conditions.push(keysetCondition(events.occurredAt, events.id, 'desc', q.after, 'timestamptz'));
  return db
    .select({ ...allColumns, sortValue: sql<string>`${events.occurredAt}::text` })
    .from(events)
    .where(and(...conditions))
    .orderBy(desc(events.occurredAt), desc(events.id))
    .limit(q.take);
}

const allColumns = {
  id: events.id,
  organizationId: events.organizationId,
  type: events.type,
  occurredAt: events.occurredAt,
  actorMemberId: events.actorMemberId,
  subjectType: events.subjectType,
  subjectId: events.subjectId,
  subjectRevision: events.subjectRevision,
  data: events.data,
};

export async function findEvent(db: Database, q: { organizationId: string; id: string; notBefore: Date }): Promise<EventRow | undefined> {
  const [row] = await db
    .select()
    .from(events)
    .where(and(eq(events.organizationId, q.organizationId), eq(events.id, q.id), gte(events.occurredAt, q.notBefore)));
  return row;
}

/** Events of every organization older than `before`, a batch at a time (the purge job). */
export async function deleteEventsOfAllOrganizations(db: Database, q: { before: Date; batchSize: number }): Promise<number> {
  const rows = await db
    .delete(events)
    .where(inArray(events.id, db.select({ id: events.id }).from(events).where(lt(events.occurredAt, q.before)).limit(q.batchSize)))
    .returning({ id: events.id });
  return rows.length;
}
