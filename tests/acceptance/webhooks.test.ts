/**
 * Events and signed webhooks on PostgreSQL, with a real receiving server on 127.0.0.1 (allowed by
 * OUTBOUND_ALLOWED_NETWORKS): an invoice issued and validated by the MyInvois simulator reaches the
 * endpoint as `receivables.invoice.issued` then `receivables.invoice.einvoice_validated`, each with a
 * Standard Webhooks signature that verifies with the endpoint's secret; during a rotation both
 * secrets' signatures verify; 500 three times then 200 is delivered once after four attempts spaced
 * as the schedule says; a redirect is not followed; the outbound guard refuses internal addresses
 * at creation and a name that resolves elsewhere at delivery.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, webhookAttempts, webhookDeliveries } from '../../src/db/schema';
import { JobRunner } from '../../src/jobs/runner';
import { buildJobRegistry } from '../../src/jobs/standard-jobs';
import { outboundPolicy, parseNetworkList } from '../../src/integrations/outbound';
import { RETRY_WAITS_SECONDS, JITTER } from '../../src/services/webhooks/schedule';
import { createTestApp, onPostgres, useTestApp, type TestApp } from '../helpers/app';
import { useMyinvois } from '../helpers/myinvois-world';
import { receiver, verifies } from '../helpers/webhooks';

describe.skipIf(!onPostgres)('events and webhooks', () => {
  const t = useTestApp();
  const m = useMyinvois(t);
  const session = (token: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json', ...extra });
  const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token: string, body?: unknown, extra: Record<string, string> = {}) =>
    t.app.inject({ method, url, headers: session(token, extra), ...(body !== undefined ? { payload: JSON.stringify(body) } : {}) });
  const deliveriesOf = (endpointId: string) => t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));
  const attemptsOf = async (deliveryId: string) =>
    (await t.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, deliveryId))).sort((a, b) => a.number - b.number);

  it('delivers issued then einvoice_validated, signed with the endpoint’s secret, and lists them as events', async () => {
    const rx = await receiver();
    try {
      const w = await m.world();
      const created = await api('POST', '/v1/webhook-endpoints', w.org.owner.session, { url: `${rx.url}/hooks`, types: ['receivables.invoice.issued', 'receivables.invoice.einvoice_validated'] });
      expect(created.statusCode, created.body).toBe(201);
      const endpoint = created.json();
      expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(created.headers.location).toBe(`/v1/webhook-endpoints/${endpoint.id}`);
      // The secret is answered once: never on a read.
      const read = await api('GET', `/v1/webhook-endpoints/${endpoint.id}`, w.org.owner.session);
      expect(read.statusCode).toBe(200);
      expect(read.json().secret).toBeUndefined();
      // Session only.
      expect((await api('GET', '/v1/webhook-endpoints', w.org.owner.apiKey)).json().code).toBe('person_required');

      const draft = await m.draft(w);
      m.advance(1000);
      const submitted = await m.issue(w, draft);
      await m.runJobs();
      m.advance(15_000);
      await m.runJobs();
      expect((await m.read(w, draft.id)).state).toBe('issued');

      expect(rx.received.map((r) => JSON.parse(r.body).type)).toEqual(['receivables.invoice.issued', 'receivables.invoice.einvoice_validated']);
      for (const r of rx.received) {
        expect(verifies(endpoint.secret, r)).toBe(true);
        expect(r.headers['content-type']).toBe('application/json');
        const body = JSON.parse(r.body);
        expect(r.headers['webhook-id']).toBe(`msg_${body.data.id}`);
        expect(body.data).toMatchObject({ organization_id: w.org.id, subject: { type: 'receivable_document', id: draft.id } });
      }
      const [issued, validated] = rx.received.map((r) => JSON.parse(r.body).data);
      expect(issued.subject.revision).toBe(submitted.revision);
      expect(issued.data).toMatchObject({ state: 'submitted', action_key: 'issue' });
      expect(validated.subject.revision).toBe(submitted.revision + 1);
      expect(validated.data).toMatchObject({ state: 'issued', semantic: 'accrual', action_key: 'validate' });
      // A wrong secret does not verify.
      expect(verifies(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, rx.received[0]!)).toBe(false);

      // GET /v1/events: newest first, filtered by subject and type; one by id.
      const list = await api('GET', `/v1/events?subject_id=${draft.id}`, w.accountant.apiKey);
      expect(list.statusCode, list.body).toBe(200);
      // Newest first; the submission and the issue happened at the same instant of the test clock.
      const types = list.json().events.map((e: any) => e.type);
      expect(types[0]).toBe('receivables.invoice.einvoice_validated');
      expect([...types].sort()).toEqual([
        'receivables.invoice.created',
        'receivables.invoice.einvoice_submitted',
        'receivables.invoice.einvoice_validated',
        'receivables.invoice.issued',
      ]);
      const only = await api('GET', `/v1/events?subject_id=${draft.id}&type=receivables.invoice.issued,receivables.invoice.created&limit=1`, w.accountant.apiKey);
      expect(only.json().events.map((e: any) => e.type)).toEqual(['receivables.invoice.issued']);
      const next = await api('GET', `/v1/events?subject_id=${draft.id}&type=receivables.invoice.issued,receivables.invoice.created&limit=1&cursor=${only.json().next_cursor}`, w.accountant.apiKey);
      expect(next.json()).toMatchObject({ events: [{ type: 'receivables.invoice.created' }], next_cursor: null });
      const one = await api('GET', `/v1/events/${validated.id}`, w.accountant.apiKey);
      expect(one.json()).toEqual(validated);
      expect((await api('GET', '/v1/events', w.clerk.apiKey)).statusCode).toBe(403);
      expect((await api('GET', '/v1/events?type=receivables.invoice.paid_twice', w.accountant.apiKey)).statusCode).toBe(400);
    } finally {
      await rx.close();
    }
  });

  it('signs with both secrets for 24 hours after a rotation, then with the new one only', async () => {
    const rx = await receiver();
    try {
      const w = await m.world();
      const endpoint = (await api('POST', '/v1/webhook-endpoints', w.org.owner.session, { url: rx.url, types: ['*'] })).json();
      const rotated = await api('POST', `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, w.org.owner.session, {}, { 'if-match': `"${endpoint.revision}"` });
      expect(rotated.statusCode, rotated.body).toBe(200);
      const fresh = rotated.json();
      expect(fresh.secret).not.toBe(endpoint.secret);
      expect(fresh.previous_secret_expires_at).toBe(new Date(m.now().getTime() + 86_400_000).toISOString());
      const test = await api('POST', `/v1/webhook-endpoints/${endpoint.id}/test`, w.org.owner.session, {});
      expect(test.statusCode, test.body).toBe(202);
      await m.runJobs();
      const during = rx.received.at(-1)!;
      expect(JSON.parse(during.body).type).toBe('webhook.test');
      expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(verifies(endpoint.secret, during)).toBe(true);
      expect(verifies(fresh.secret, during)).toBe(true);

      m.advance(86_400_000 + 1000);
      await api('POST', `/v1/webhook-endpoints/${endpoint.id}/test`, w.org.owner.session, {});
      await m.runJobs();
      const after = rx.received.at(-1)!;
      expect(verifies(fresh.secret, after)).toBe(true);
      expect(verifies(endpoint.secret, after)).toBe(false);
      // A stale revision is refused.
      const stale = await api('POST', `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, w.org.owner.session, {}, { 'if-match': `"${endpoint.revision}"` });
      expect(stale.statusCode).toBe(409);
    } finally {
      await rx.close();
    }
  });

  it('retries 500 on the schedule and is delivered once, with four attempts logged', async () => {
    const rx = await receiver((_r, n, res) => void res.writeHead(n <= 3 ? 500 : 200).end(n <= 3 ? `boom ${n} ${'x'.repeat(2000)}` : 'thanks'));
    try {
      const w = await m.world();
      const endpoint = (await api('POST', '/v1/webhook-endpoints', w.org.owner.session, { url: rx.url, types: ['receivables.customer.created'] })).json();
      const customer = await api('POST', '/v1/receivables/customers', w.accountant.apiKey, { code: `C${Date.now() % 100000}`, legal_name: 'Syarikat Ujian' }, { 'idempotency-key': crypto.randomUUID() });
      expect(customer.statusCode, customer.body).toBe(201);
      const start = m.now();
      await m.runJobs();
      for (let i = 0; i < 3; i++) {
        const [d] = await deliveriesOf(endpoint.id);
        expect(d!.state).toBe('pending');
        m.advance(d!.nextAttemptAt!.getTime() - m.now().getTime());
        await m.runJobs();
      }
      const [delivery] = await deliveriesOf(endpoint.id);
      expect(delivery).toMatchObject({ state: 'delivered', attempts: 4, lastStatus: 200 });
      const attempts = await attemptsOf(delivery!.id);
      expect(attempts.map((a) => a.status)).toEqual([500, 500, 500, 200]);
      expect(attempts[0]!.attemptedAt).toEqual(start);
      for (let i = 1; i < 4; i++) {
        const wait = attempts[i]!.attemptedAt.getTime() - attempts[i - 1]!.attemptedAt.getTime();
        expect(wait).toBeGreaterThanOrEqual(RETRY_WAITS_SECONDS[i - 1]! * 1000);
        expect(wait).toBeLessThanOrEqual(RETRY_WAITS_SECONDS[i - 1]! * 1000 * (1 + JITTER));
      }
      // The first 1 KiB of each answer.
      expect(Buffer.byteLength(attempts[0]!.answer)).toBe(1024);
      expect(attempts[0]!.answer.startsWith('boom 1 ')).toBe(true);
      expect(attempts[3]!.answer).toBe('thanks');
      expect(rx.received.filter((r) => JSON.parse(r.body).type === 'receivables.customer.created')).toHaveLength(4);
      expect(new Set(rx.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
      // The console's read: the delivery with its attempts.
      const listed = await api('GET', `/v1/webhook-endpoints/${endpoint.id}/deliveries`, w.org.owner.session);
      expect(listed.json().items[0]).toMatchObject({ state: 'delivered', event_type: 'receivables.customer.created', attempts: [{ status: 500 }, { status: 500 }, { status: 500 }, { status: 200, answer: 'thanks' }] });
    } finally {
      await rx.close();
    }
  });

  it('does not follow a redirect, and sends a failed delivery again on request', async () => {
    const target = await receiver();
    const rx = await receiver((_r, n, res) => void (n === 1 ? res.writeHead(307, { location: `${target.url}/elsewhere` }).end() : res.writeHead(204).end()));
    try {
      const w = await m.world();
      const endpoint = (await api('POST', '/v1/webhook-endpoints', w.org.owner.session, { url: rx.url, types: ['*'] })).json();
      // A delivery made to fail at its first attempt: its last attempt is the first.
      await api('POST', `/v1/webhook-endpoints/${endpoint.id}/test`, w.org.owner.session, {});
      const [d] = await deliveriesOf(endpoint.id);
      await t.db.update(webhookDeliveries).set({ maxAttempts: 1 }).where(eq(webhookDeliveries.id, d!.id));
      await m.runJobs();
      expect(target.received).toHaveLength(0);
      const [failed] = await deliveriesOf(endpoint.id);
      expect(failed).toMatchObject({ state: 'failed', lastStatus: 307 });

      const again = await api('POST', `/v1/webhook-endpoints/${endpoint.id}/redeliver`, w.org.owner.session, { delivery_id: d!.id });
      expect(again.statusCode, again.body).toBe(202);
      expect(again.json()).toEqual({ redelivered: [d!.id] });
      await m.runJobs();
      const [done] = await deliveriesOf(endpoint.id);
      expect(done).toMatchObject({ state: 'delivered', attempts: 2, lastStatus: 204 });
      expect(rx.received[1]!.headers['webhook-id']).toBe(rx.received[0]!.headers['webhook-id']);
      // Nothing failed is left to send again.
      const none = await api('POST', `/v1/webhook-endpoints/${endpoint.id}/redeliver`, w.org.owner.session, { delivery_id: d!.id });
      expect(none.statusCode).toBe(422);
    } finally {
      await rx.close();
      await target.close();
    }
  });

  it('disables an endpoint whose attempts have all failed for 5 days', async () => {
    const rx = await receiver((_r, _n, res) => void res.writeHead(500).end('down'));
    try {
      const w = await m.world();
      const endpoint = (await api('POST', '/v1/webhook-endpoints', w.org.owner.session, { url: rx.url, types: ['*'] })).json();
      await api('POST', `/v1/webhook-endpoints/${endpoint.id}/test`, w.org.owner.session, {});
      await m.runJobs();
      expect((await api('GET', `/v1/webhook-endpoints/${endpoint.id}`, w.org.owner.session)).json()).toMatchObject({ enabled: true, failing_since: m.now().toISOString() });
      // Five days of failures later, the next failed attempt disables it.
      m.advance(5 * 86_400_000);
      await api('POST', `/v1/webhook-endpoints/${endpoint.id}/test`, w.org.owner.session, {});
      await m.runJobs();
      const disabled = (await api('GET', `/v1/webhook-endpoints/${endpoint.id}`, w.org.owner.session)).json();
      expect(disabled).toMatchObject({ enabled: false, disabled_reason: 'failing' });
      // The owner (who manages the endpoints) is told by e-mail, one message naming the endpoint.
      const mail = await t.db.select({ payload: jobs.payload }).from(jobs).where(and(eq(jobs.organizationId, w.org.id), eq(jobs.kind, 'mail.send')));
      expect(mail.map((j) => j.payload).filter((p) => (p as { kind: string }).kind === 'webhook_disabled')).toEqual([{ kind: 'webhook_disabled', memberId: w.org.owner.id, endpointId: endpoint.id }]);
      // Its pending deliveries end without an attempt; a test event is refused until it is enabled again.
      m.advance(600_000);
      await m.runJobs();
      const ended = await deliveriesOf(endpoint.id);
      expect(ended.map((d) => d.state)).toEqual(['failed', 'failed']);
      expect(ended.map((d) => d.lastError)).toContain('the endpoint is disabled');
      expect((await api('POST', `/v1/webhook-endpoints/${endpoint.id}/test`, w.org.owner.session, {})).statusCode).toBe(422);
      const enabled = await api('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, w.org.owner.session, { enabled: true }, { 'if-match': `"${disabled.revision}"` });
      expect(enabled.json()).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
    } finally {
      await rx.close();
    }
  });

  it('refuses at delivery a name that now resolves to an internal address', async () => {
    let answer = '93.184.216.34';
    const policy = { ...outboundPolicy(parseNetworkList('127.0.0.1/32').networks), resolve: async () => [{ address: answer, family: 4 }] };
    const prev = t.deps.outbound;
    t.deps.outbound = policy;
    try {
      const w = await m.world();
      const created = await api('POST', '/v1/webhook-endpoints', w.org.owner.session, { url: 'https://hooks.rebinding.test/in', types: ['*'] });
      expect(created.statusCode, created.body).toBe(201);
      answer = '10.0.0.1';
      await api('POST', `/v1/webhook-endpoints/${created.json().id}/test`, w.org.owner.session, {});
      const runner = new JobRunner({ db: t.db, registry: buildJobRegistry(t.deps.config, { webhooks: { outbound: policy } }), random: () => 0, batchSize: 50 });
      await runner.runOnce(m.now());
      const [d] = await deliveriesOf(created.json().id);
      const [attempt] = await attemptsOf(d!.id);
      expect(attempt).toMatchObject({ number: 1, status: null, error: 'outbound address refused: resolves to a private address, which is not reachable from this service' });
      expect(d!.state).toBe('pending');
    } finally {
      t.deps.outbound = prev;
    }
  });
});

describe.skipIf(!onPostgres)('the outbound guard at creation', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await createTestApp({ OUTBOUND_ALLOWED_NETWORKS: '' });
  });
  afterAll(async () => {
    await strict?.app.close();
    await strict?.handle.close();
  });

  it.each([
    ['https://10.0.0.1/hooks', 'resolves to a private address'],
    ['https://169.254.169.254/latest/meta-data', 'resolves to a link-local (cloud metadata) address'],
    ['https://[::1]:8443/hooks', 'resolves to a loopback address'],
    ['https://localhost/hooks', 'resolves to a loopback address'],
    ['ftp://example.com/hooks', 'must be an https URL'],
  ])('refuses %s with 422 at /url', async (url, why) => {
    const { createTestOrganization } = await import('../factories/organization');
    const org = await createTestOrganization(strict.db);
    const res = await strict.app.inject({
      method: 'POST',
      url: '/v1/webhook-endpoints',
      headers: { authorization: `Bearer ${org.owner.session}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ url, types: ['*'] }),
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ code: 'validation', errors: [{ pointer: '/url', detail: expect.stringContaining(why) }] });
  });
});

describe.skipIf(!onPostgres)('the events purge', () => {
  const t = useTestApp();

  it('deletes events and finished deliveries older than 30 days, and nothing newer', async () => {
    const { createTestOrganization } = await import('../factories/organization');
    const { appendEvent } = await import('../../src/services/events/append');
    const { purgeEvents } = await import('../../src/jobs/purges');
    const { events } = await import('../../src/db/schema');
    const org = await createTestOrganization(t.db);
    const endpoint = await t.app.inject({
      method: 'POST',
      url: '/v1/webhook-endpoints',
      headers: { authorization: `Bearer ${org.owner.session}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ url: 'http://127.0.0.1:9/none', types: ['*'] }),
    });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    const now = new Date('2031-03-01T00:00:00Z');
    const append = (occurredAt: Date) =>
      appendEvent(t.db, { organizationId: org.id, type: 'organization.member.added', occurredAt, actorMemberId: org.owner.id, subject: { type: 'member', id: org.owner.id, revision: 1 } });
    const old = await append(new Date(now.getTime() - 31 * 86_400_000));
    const kept = await append(new Date(now.getTime() - 29 * 86_400_000));
    await t.db.update(webhookDeliveries).set({ state: 'failed' }).where(eq(webhookDeliveries.endpointId, endpoint.json().id));
    await t.db.transaction((tx) => purgeEvents(30)({ db: tx, now, job: { kind: 'purge-events' } as never }) as Promise<void>);
    const left = await t.db.select({ id: events.id }).from(events).where(eq(events.organizationId, org.id));
    expect(left.map((e) => e.id)).toEqual([kept.id]);
    expect((await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint.json().id))).map((d) => d.eventId)).toEqual([kept.id]);
    expect(old.id).not.toBe(kept.id);
  });
});
