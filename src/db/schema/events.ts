import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { members, organizations } from './organizations';

/**
 * Events: one row per change a client could care about, appended in the transaction of the change
 * (services/events/append.ts), kept 30 days. Thin: the subject's type, id and revision after the
 * change, and a few fields (`data`); the client reads the record for the rest.
 */
export const events = pgTable(
  'events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    type: text('type').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    /** Who made the change (the member on whose behalf the system acted, for jobs); null for none. */
    actorMemberId: uuid('actor_member_id'),
    subjectType: text('subject_type').notNull(),
    subjectId: uuid('subject_id').notNull(),
    subjectRevision: integer('subject_revision'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    index('events_org_time_idx').on(t.organizationId, t.occurredAt, t.id),
    index('events_org_subject_idx').on(t.organizationId, t.subjectId, t.occurredAt),
    index('events_time_idx').on(t.occurredAt),
  ],
);

/**
 * Webhook endpoints: where an organization's events are sent. The signing secret is sealed
 * (lib/secret-box.ts) under the server's key; after a rotation the previous one keeps signing until
 * `previous_secret_expires_at`. `failing_since` is the first failed attempt since the last delivered
 * one; an endpoint failing for 5 days is disabled (`disabled_reason` says why).
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    url: text('url').notNull(),
    types: text('types').array().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    secretSealed: text('secret_sealed').notNull(),
    previousSecretSealed: text('previous_secret_sealed'),
    previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true }),
    failingSince: timestamp('failing_since', { withTimezone: true }),
    disabledReason: text('disabled_reason'),
    revision: integer('revision').notNull().default(1),
    createdBy: uuid('created_by').references(() => members.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('webhook_endpoints_org_idx').on(t.organizationId, t.createdAt, t.id)],
);

export const DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/**
 * One event to one endpoint: the exact body sent (the same on every attempt and redelivery, so its
 * `webhook-id` is too), its state and the attempts made. `max_attempts` is the schedule's 8, or one
 * more than made when sent again by hand. A test event has no event row.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id').references(() => events.id, { onDelete: 'set null' }),
    eventType: text('event_type').notNull(),
    /** The `webhook-id` header: the event's id (a test event's own). */
    messageId: text('message_id').notNull(),
    body: text('body').notNull(),
    state: text('state').$type<DeliveryState>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull(),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    check('webhook_deliveries_state_known', sql`${t.state} in ('pending', 'delivered', 'failed')`),
    index('webhook_deliveries_endpoint_idx').on(t.organizationId, t.endpointId, t.createdAt, t.id),
    index('webhook_deliveries_failed_idx').on(t.organizationId, t.endpointId, t.finishedAt).where(sql`${t.state} = 'failed'`),
    index('webhook_deliveries_time_idx').on(t.createdAt),
  ],
);

/** One attempt of a delivery: when, how long, the answer's status and its first 1 KiB (or why none). */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull(),
    durationMs: integer('duration_ms').notNull(),
    status: integer('status'),
    answer: text('answer').notNull().default(''),
    error: text('error'),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.number), index('webhook_attempts_time_idx').on(t.attemptedAt)],
);
