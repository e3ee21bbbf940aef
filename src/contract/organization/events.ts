import { z } from 'zod';
import { DELIVERY_STATES_OUT, EVENT_TYPES, SUBJECT_TYPES } from '../../domain/events';
import { limitParam } from '../receivables/document-list';
import { timestamp, uuid } from '../fields';

/** Events (GET /v1/events) and webhook endpoints with their deliveries (/v1/webhook-endpoints). */

export const eventSchema = z
  .object({
    id: z.string(),
    type: z.string().describe('One of the event types the README lists'),
    occurred_at: timestamp(),
    organization_id: z.string(),
    actor_member_id: z.string().nullable(),
    subject: z.object({ type: z.string().describe(SUBJECT_TYPES.join(', ')), id: z.string(), revision: z.int().nullable() }),
    data: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'Event' });

const typeList = z
  .string()
  .max(2000)
  .meta({ example: 'receivables.invoice.issued,receivables.invoice.einvoice_validated' })
  .transform((v) => v.split(',').map((t) => t.trim()).filter(Boolean))
  .pipe(z.array(z.enum(EVENT_TYPES, { message: 'must be event types (see the README), comma-separated' })).max(50));

export const listEventsInput = z.strictObject({
  type: typeList.optional().describe('Only events of these types (comma-separated)'),
  subject_id: uuid().optional().describe('Only events about this record'),
  since: timestamp().optional().describe('Only events that occurred at or after this moment (at most 30 days back)'),
  limit: limitParam.optional(),
  cursor: z.string().max(2000).optional().describe("The previous page's next_cursor, with the same filters"),
});

export const eventListSchema = z.object({ events: z.array(eventSchema), next_cursor: z.string().nullable() }).meta({ id: 'EventList' });

const typesInput = z
  .array(z.union([z.enum(EVENT_TYPES), z.literal('*')]), { message: 'must be a list of event types, or ["*"]' })
  .min(1, { message: 'must list at least one event type, or "*"' })
  .max(50, { message: 'must list at most 50 event types' });

const URL_EXAMPLE = 'https://erp.example.com/hooks/finance';
const urlInput = z.string().min(1, { message: 'must not be blank' }).max(2000, { message: 'must be at most 2000 characters' }).meta({ example: URL_EXAMPLE });
const TYPE_EXAMPLE = 'receivables.invoice.einvoice_validated';

export const createEndpointInput = z.strictObject({
  url: urlInput.describe('https, or http to a network the operator allows'),
  types: typesInput.describe('The event types sent to it, or ["*"] for every type'),
  enabled: z.boolean().pipe(z.boolean()).optional(),
});

export const updateEndpointInput = z.strictObject({
  id: uuid(),
  url: urlInput.optional(),
  types: typesInput.optional(),
  enabled: z.boolean().pipe(z.boolean()).optional(),
});

export const endpointSchema = z
  .object({
    id: z.string(),
    url: z.string().meta({ example: URL_EXAMPLE }),
    types: z.array(z.string().meta({ example: TYPE_EXAMPLE })),
    enabled: z.boolean(),
    disabled_reason: z.enum(['failing']).nullable().describe('failing: disabled after 5 days of failed deliveries'),
    failing_since: timestamp().nullable(),
    previous_secret_expires_at: timestamp().nullable().describe('Until then the previous secret signs too (after a rotation)'),
    created_at: timestamp(),
    revision: z.int(),
  })
  .meta({ id: 'WebhookEndpoint' });

export const endpointWithSecretSchema = endpointSchema.extend({ secret: z.string().describe('whsec_…: shown this once').meta({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw8DWjETGHRm0=' }) }).meta({ id: 'WebhookEndpointWithSecret' });

export const endpointListSchema = z.object({ items: z.array(endpointSchema), next_cursor: z.string().nullable() });

export const attemptSchema = z.object({
  number: z.int(),
  attempted_at: timestamp(),
  duration_ms: z.int(),
  status: z.int().nullable(),
  answer: z.string().describe('The first 1 KiB of the answer').meta({ example: '{"received":true}' }),
  error: z.string().nullable().meta({ example: 'no answer within 10 s' }),
});

export const deliverySchema = z
  .object({
    id: z.string(),
    endpoint_id: z.string(),
    event_id: z.string().nullable(),
    event_type: z.string().meta({ example: TYPE_EXAMPLE }),
    webhook_id: z.string(),
    state: z.enum(DELIVERY_STATES_OUT),
    attempts: z.array(attemptSchema),
    next_attempt_at: timestamp().nullable(),
    created_at: timestamp(),
  })
  .meta({ id: 'WebhookDelivery' });

export const deliveryListSchema = z.object({ items: z.array(deliverySchema), next_cursor: z.string().nullable() });

export const listDeliveriesInput = z.strictObject({
  id: uuid().describe('The endpoint'),
  limit: limitParam.optional(),
  cursor: z.string().max(2000).optional(),
});

export const redeliverInput = z.strictObject({
  id: uuid().describe('The endpoint'),
  delivery_id: uuid().optional().describe('This failed delivery'),
  since: timestamp().optional().describe('Every failed delivery that failed at or after this moment'),
});

export const redeliverSchema = z.object({ redelivered: z.array(z.string().meta({ example: '4f6c1d2e-8a3b-4c5d-9e7f-0a1b2c3d4e5f' })).describe('The deliveries queued again') });
