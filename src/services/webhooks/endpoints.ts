/**
 * Webhook endpoints of an organization: created, listed, read, changed (url, types, enabled),
 * deleted, their secret rotated, a test event sent, their deliveries listed and sent again. The URL
 * goes through the outbound guard when it is saved (every address its host resolves to), and again
 * on every delivery. The secret is answered on creation and rotation only, and kept sealed.
 */
import { randomUUID } from 'node:crypto';
import { checkUrlAddresses, parseOutboundUrl, type OutboundPolicy } from '../../integrations/outbound';
import {
  deleteEndpointRow,
  findEndpoint,
  insertDeliveries,
  insertEndpoint,
  listAttemptRows,
  listDeliveryRows,
  listEndpointRows,
  reopenFailedDeliveries,
  updateEndpointRow,
  type AttemptRow,
  type DeliveryRow,
  type EndpointRow,
} from '../../db/queries/webhooks';
import { notFound, validationError } from '../../lib/errors';
import { seal } from '../../lib/secret-box';
import type { CursorBinding } from '../../lib/cursor';
import type { ServiceContext } from '../context';
import { keysetPage } from '../keyset-page';
import { checkRevision } from '../revision';
import { KEY_VALUE_PATTERN } from '../../db/queries/keyset';
import { TEST_EVENT_TYPE } from '../events/types';
import { enqueueDelivery } from './fan-out';
import { PREVIOUS_SECRET_MS, SCHEDULE_ATTEMPTS } from './schedule';
import { newSecret } from './signing';

export interface EndpointDeps {
  /** The key secrets are sealed under. */
  key: Buffer;
  outbound: OutboundPolicy;
}

/** The most endpoints an organization may have. */
export const MAX_ENDPOINTS = 20;
/** The most deliveries one "send again since" puts back at once. */
export const REDELIVER_MAX = 1000;

export function endpointView(e: EndpointRow) {
  return {
    id: e.id,
    url: e.url,
    types: e.types,
    enabled: e.enabled,
    disabled_reason: (e.disabledReason as 'failing' | null) ?? null,
    failing_since: e.failingSince?.toISOString() ?? null,
    previous_secret_expires_at: e.previousSecretExpiresAt?.toISOString() ?? null,
    created_at: e.createdAt.toISOString(),
    revision: e.revision,
  };
}

export function deliveryView(d: DeliveryRow, attempts: AttemptRow[]) {
  return {
    id: d.id,
    endpoint_id: d.endpointId,
    event_id: d.eventId,
    event_type: d.eventType,
    webhook_id: d.messageId,
    state: d.state,
    attempts: attempts.map((a) => ({
      number: a.number,
      attempted_at: a.attemptedAt.toISOString(),
      duration_ms: a.durationMs,
      status: a.status,
      answer: a.answer,
      error: a.error,
    })),
    next_attempt_at: d.nextAttemptAt?.toISOString() ?? null,
    created_at: d.createdAt.toISOString(),
  };
}

/** Why `value` may not be an endpoint's URL (its form, then the addresses its host resolves to now), or null. */
export async function endpointUrlProblem(value: string, policy: OutboundPolicy): Promise<string | null> {
  const url = parseOutboundUrl(value, { allowQuery: true });
  if (typeof url === 'string') return url;
  return checkUrlAddresses(url, policy);
}

async function checkUrl(value: string, deps: EndpointDeps): Promise<string> {
  const problem = await endpointUrlProblem(value.trim(), deps.outbound);
  if (problem) throw validationError('/url', problem);
  return value.trim();
}

const uniqueTypes = (types: string[]) => (types.includes('*') ? ['*'] : [...new Set(types)].sort());

async function endpointOr404(ctx: ServiceContext, id: string, lock = false): Promise<EndpointRow> {
  const row = await findEndpoint(ctx.db, { organizationId: ctx.org.id, id, lock });
  if (!row) throw notFound('webhook endpoint');
  return row;
}

export async function createEndpoint(ctx: ServiceContext, input: { url: string; types: string[]; enabled?: boolean }, deps: EndpointDeps) {
  const url = await checkUrl(input.url, deps);
  const existing = await listEndpointRows(ctx.db, { organizationId: ctx.org.id, take: MAX_ENDPOINTS + 1 });
  if (existing.length >= MAX_ENDPOINTS) throw validationError('/url', `an organization has at most ${MAX_ENDPOINTS} webhook endpoints`);
  const id = randomUUID();
  const secret = newSecret();
  const row = await insertEndpoint(ctx.db, {
    id,
    organizationId: ctx.org.id,
    url,
    types: uniqueTypes(input.types),
    enabled: input.enabled ?? true,
    secretSealed: seal(deps.key, secret, ctx.org.id),
    createdBy: ctx.principal.memberId,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  return { ...endpointView(row), secret };
}

export async function listEndpoints(ctx: ServiceContext, input: { limit?: number; cursor?: string }) {
  const binding: CursorBinding = { sort: 'webhook_endpoints:created_at', order: 'asc', filters: {} };
  const keyset = await keysetPage(ctx, { binding, cursor: input.cursor, limit: input.limit ?? 25, value: KEY_VALUE_PATTERN.timestamptz });
  const rows = await listEndpointRows(ctx.db, { organizationId: ctx.org.id, after: keyset.after, take: keyset.take });
  const { page, next_cursor } = keyset.cut(rows, (r) => ({ value: r.sortValue, id: r.endpoint.id }));
  return { items: page.map((r) => endpointView(r.endpoint)), next_cursor };
}

export async function getEndpoint(ctx: ServiceContext, input: { id: string }) {
  return endpointView(await endpointOr404(ctx, input.id));
}

export async function updateEndpoint(
  ctx: ServiceContext,
  input: { id: string; url?: string; types?: string[]; enabled?: boolean; expected_revision: number },
  deps: EndpointDeps,
) {
  const current = await endpointOr404(ctx, input.id, true);
  checkRevision(current.revision, input.expected_revision);
  const set: Partial<EndpointRow> = {};
  if (input.url !== undefined && input.url.trim() !== current.url) set.url = await checkUrl(input.url, deps);
  if (input.types !== undefined) set.types = uniqueTypes(input.types);
  if (input.enabled !== undefined && input.enabled !== current.enabled) {
    set.enabled = input.enabled;
    // Enabled again by a person: its failing period starts afresh.
    if (input.enabled) Object.assign(set, { disabledReason: null, failingSince: null });
  }
  if (Object.keys(set).length === 0) return endpointView(current);
  const row = await updateEndpointRow(ctx.db, { organizationId: ctx.org.id, id: current.id }, { ...set, revision: current.revision + 1, updatedAt: ctx.now });
  return endpointView(row);
}

export async function deleteEndpoint(ctx: ServiceContext, input: { id: string; expected_revision: number }) {
  const current = await endpointOr404(ctx, input.id, true);
  checkRevision(current.revision, input.expected_revision);
  await deleteEndpointRow(ctx.db, { organizationId: ctx.org.id, id: current.id });
}

/** A new secret; the one it replaces keeps signing for 24 hours (both signatures are sent meanwhile). */
export async function rotateSecret(ctx: ServiceContext, input: { id: string; expected_revision: number }, deps: EndpointDeps) {
  const current = await endpointOr404(ctx, input.id, true);
  checkRevision(current.revision, input.expected_revision);
  const secret = newSecret();
  const row = await updateEndpointRow(
    ctx.db,
    { organizationId: ctx.org.id, id: current.id },
    {
      secretSealed: seal(deps.key, secret, ctx.org.id),
      previousSecretSealed: current.secretSealed,
      previousSecretExpiresAt: new Date(ctx.now.getTime() + PREVIOUS_SECRET_MS),
      revision: current.revision + 1,
      updatedAt: ctx.now,
    },
  );
  return { ...endpointView(row), secret };
}

/** A `webhook.test` event sent to this endpoint only (whether enabled or not is its own business: a disabled one is refused). */
export async function sendTestEvent(ctx: ServiceContext, input: { id: string }) {
  const endpoint = await endpointOr404(ctx, input.id);
  if (!endpoint.enabled) throw validationError('/id', 'the endpoint is disabled: enable it first');
  const id = randomUUID();
  const event = {
    id,
    type: TEST_EVENT_TYPE,
    occurred_at: ctx.now.toISOString(),
    organization_id: ctx.org.id,
    actor_member_id: ctx.principal.memberId,
    subject: { type: 'webhook_endpoint', id: endpoint.id, revision: endpoint.revision },
    data: { message: 'A test event: nothing happened.' },
  };
  const [delivery] = await insertDeliveries(ctx.db, [
    {
      organizationId: ctx.org.id,
      endpointId: endpoint.id,
      eventId: null,
      eventType: TEST_EVENT_TYPE,
      messageId: `msg_${id}`,
      body: JSON.stringify({ type: event.type, timestamp: event.occurred_at, data: event }),
      maxAttempts: SCHEDULE_ATTEMPTS,
      nextAttemptAt: ctx.now,
      createdAt: ctx.now,
    },
  ]);
  await enqueueDelivery(ctx.db, delivery!, ctx.now);
  return deliveryView(delivery!, []);
}

export async function listDeliveries(ctx: ServiceContext, input: { id: string; limit?: number; cursor?: string }) {
  const endpoint = await endpointOr404(ctx, input.id);
  const binding: CursorBinding = { sort: 'webhook_deliveries:created_at', order: 'desc', filters: { endpoint: endpoint.id } };
  const keyset = await keysetPage(ctx, { binding, cursor: input.cursor, limit: input.limit ?? 25, value: KEY_VALUE_PATTERN.timestamptz });
  const rows = await listDeliveryRows(ctx.db, { organizationId: ctx.org.id, endpointId: endpoint.id, after: keyset.after, take: keyset.take });
  const { page, next_cursor } = keyset.cut(rows, (r) => ({ value: r.sortValue, id: r.delivery.id }));
  const attempts = await listAttemptRows(ctx.db, { organizationId: ctx.org.id, deliveryIds: page.map((r) => r.delivery.id) });
  return { items: page.map((r) => deliveryView(r.delivery, attempts.filter((a) => a.deliveryId === r.delivery.id))), next_cursor };
}

/** Sends again one failed delivery (`delivery_id`) or every one that failed since `since`: one more attempt each, at once. */
export async function redeliver(ctx: ServiceContext, input: { id: string; delivery_id?: string; since?: string }) {
  const endpoint = await endpointOr404(ctx, input.id);
  if (!endpoint.enabled) throw validationError('/id', 'the endpoint is disabled: enable it first');
  if ((input.delivery_id === undefined) === (input.since === undefined)) throw validationError('/delivery_id', 'give either delivery_id or since');
  const reopened = await reopenFailedDeliveries(ctx.db, {
    organizationId: ctx.org.id,
    endpointId: endpoint.id,
    ...(input.delivery_id ? { id: input.delivery_id } : {}),
    ...(input.since ? { since: new Date(input.since) } : {}),
    now: ctx.now,
    limit: REDELIVER_MAX,
  });
  if (input.delivery_id && reopened.length === 0) throw validationError('/delivery_id', 'is not a failed delivery of this endpoint');
  for (const d of reopened) await enqueueDelivery(ctx.db, d, ctx.now);
  return { redelivered: reopened.map((d) => d.id) };
}
