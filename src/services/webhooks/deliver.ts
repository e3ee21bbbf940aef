/**
 * One attempt of a webhook delivery, as its job makes it: read the delivery and its endpoint, POST
 * the body signed with the endpoint's secret(s) through the outbound guard (its address checked
 * again after resolution, no redirect followed, 10 s for the whole answer), then record the attempt
 * and the delivery's next step in one transaction. The record is fenced by the attempt's number, so
 * an attempt another process already recorded is never recorded twice; a process that dies before
 * recording leaves the delivery pending, and its job (its lease run out) makes the attempt again.
 */
import type { Database } from '../../db/client';
import { findDelivery, findEndpoint, failDelivery, noteEndpointOutcome, recordAttempt, type EndpointRow } from '../../db/queries/webhooks';
import { outboundFetch, readExcerpt, OutboundRefused, type FetchLike, type OutboundPolicy } from '../../integrations/outbound';
import { open } from '../../lib/secret-box';
import { ANSWER_EXCERPT_BYTES, DELIVERY_TIMEOUT_MS, DISABLE_AFTER_FAILING_MS, retryWaitMs } from './schedule';
import { signedHeaders } from './signing';
import { listActiveMemberIdsWithPermission } from '../../db/queries/mail';
import { notify } from '../mail/notify';

export interface WebhookDeps {
  /** The key endpoint secrets are sealed under. */
  key: Buffer;
  outbound: OutboundPolicy;
  /** The HTTP function; the guarded one of `outbound` by default. */
  fetch?: FetchLike;
  timeoutMs?: number;
  /** In [0, 1): the jitter of retry waits. */
  random?: () => number;
  /** The clock of the `webhook-timestamp` header (a receiver compares it with its own). */
  wallClock?: () => Date;
  /** Told when an endpoint is disabled for failing (the operator's log). */
  onDisabled?: (endpoint: { organizationId: string; id: string; url: string }) => void;
}

export function endpointSecrets(key: Buffer, endpoint: EndpointRow, now: Date): string[] {
  const secrets = [open(key, endpoint.secretSealed, endpoint.organizationId)];
  if (endpoint.previousSecretSealed && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) {
    secrets.push(open(key, endpoint.previousSecretSealed, endpoint.organizationId));
  }
  return secrets;
}

interface Outcome {
  status: number | null;
  answer: string;
  error: string | null;
  durationMs: number;
}

async function post(deps: WebhookDeps, url: string, headers: Record<string, string>, body: string): Promise<Outcome> {
  const started = performance.now();
  const signal = AbortSignal.timeout(deps.timeoutMs ?? DELIVERY_TIMEOUT_MS);
  const fetchFn = deps.fetch ?? outboundFetch(deps.outbound);
  const duration = () => Math.round(performance.now() - started);
  try {
    const response = await fetchFn(url, { method: 'POST', headers, body, signal, redirect: 'manual' });
    const answer = await readExcerpt(response, ANSWER_EXCERPT_BYTES);
    return { status: response.status, answer, error: null, durationMs: duration() };
  } catch (error) {
    const timedOut = signal.aborted;
    const reason = error instanceof OutboundRefused ? error.message : timedOut ? `no answer within ${(deps.timeoutMs ?? DELIVERY_TIMEOUT_MS) / 1000} s` : describe(error);
    return { status: null, answer: '', error: reason, durationMs: duration() };
  }
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  const code = (error as { code?: string })?.code ?? cause?.code;
  const message = error instanceof Error ? error.message : 'the request failed';
  return (code ? `${code}: ${message}` : message).slice(0, 300);
}

/** Makes the next attempt of a pending delivery at `now`; answers when to make the one after, if any. */
export async function attemptDelivery(db: Database, deps: WebhookDeps, q: { organizationId: string; deliveryId: string; now: Date }): Promise<{ runAgainAt?: Date }> {
  const { organizationId, now } = q;
  const delivery = await findDelivery(db, { organizationId, id: q.deliveryId });
  if (!delivery || delivery.state !== 'pending') return {};
  const endpoint = await findEndpoint(db, { organizationId, id: delivery.endpointId });
  if (!endpoint || !endpoint.enabled) {
    await failDelivery(db, { organizationId, id: delivery.id, error: 'the endpoint is disabled', now });
    return {};
  }
  const number = delivery.attempts + 1;
  const timestamp = Math.floor((deps.wallClock?.() ?? new Date()).getTime() / 1000);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'finance-api-webhooks/1',
    ...signedHeaders(endpointSecrets(deps.key, endpoint, now), delivery.messageId, timestamp, delivery.body),
  };
  const outcome = await post(deps, endpoint.url, headers, delivery.body);
  const delivered = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
  const retry = !delivered && number < delivery.maxAttempts;
  const runAgainAt = retry ? new Date(now.getTime() + retryWaitMs(number, (deps.random ?? Math.random)())) : undefined;
  let disabled = false;
  const recorded = await db.transaction(async (tx) => {
    const ok = await recordAttempt(tx, {
      organizationId,
      deliveryId: delivery.id,
      number,
      attempt: { attemptedAt: now, durationMs: outcome.durationMs, status: outcome.status, answer: outcome.answer, error: outcome.error },
      delivery: {
        state: delivered ? 'delivered' : retry ? 'pending' : 'failed',
        lastStatus: outcome.status,
        lastError: outcome.error ?? (delivered ? null : `answered ${outcome.status}`),
        nextAttemptAt: runAgainAt ?? null,
        finishedAt: retry ? null : now,
      },
    });
    if (ok) {
      disabled = await noteEndpointOutcome(tx, { organizationId, id: endpoint.id, delivered, now, disableIfFailingSince: new Date(now.getTime() - DISABLE_AFTER_FAILING_MS) });
      // Those who manage the endpoints are told by e-mail, in the same transaction as the change.
      if (disabled) {
        const memberIds = await listActiveMemberIdsWithPermission(tx, { organizationId, permission: 'organization.webhooks.manage' });
        await notify({ db: tx, org: { id: organizationId }, now }, 'webhook_disabled', { memberIds, endpointId: endpoint.id });
      }
    }
    return ok;
  });
  if (disabled) deps.onDisabled?.({ organizationId, id: endpoint.id, url: endpoint.url });
  return recorded && runAgainAt ? { runAgainAt } : {};
}
