import { describe, expect, it } from 'vitest';
import { enqueue } from '../../src/jobs/queue';
import { createTestCustomer } from '../factories/customer';
import { bearer, createTestOrganization } from '../factories/organization';
import { createTestApp, useTestApp } from '../helpers/app';

/**
 * GET /metrics (docs/design.md §10): Prometheus text with requests by route template and status,
 * latency histograms, the database pool and the job queue depth; closed by METRICS_TOKEN when set.
 */
const t = useTestApp();

/** The value of one sample line, `name{labels} value`, or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const inner = line.slice(name.length + 1, line.lastIndexOf('}'));
    const parts = inner.split(',');
    if (wanted.every((w) => parts.includes(w))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('GET /metrics', () => {
  it('counts requests by route template (never the raw URL) and status, with latency histograms, the pool and the job queue', async () => {
    const org = await createTestOrganization(t.db);
    const customer = await createTestCustomer(t.db, org.id);
    const read = await t.app.inject({ method: 'GET', url: `/v1/receivables/customers/${customer.id}`, headers: bearer(org.owner.apiKey) });
    expect(read.statusCode).toBe(200);
    const unknown = await t.app.inject({ method: 'GET', url: `/v1/receivables/customers/${crypto.randomUUID()}`, headers: bearer(org.owner.apiKey) });
    expect(unknown.statusCode).toBe(404);
    const trpc = await t.app.inject({ method: 'GET', url: `/trpc/receivables.customers.get?input=${encodeURIComponent(JSON.stringify({ id: customer.id }))}`, headers: bearer(org.owner.apiKey) });
    expect(trpc.statusCode).toBe(200);
    await t.app.inject({ method: 'GET', url: '/no/such/path/123' });
    await t.app.inject({ method: 'GET', url: '/trpc/no.such.procedure.abc' });
    await enqueue(t.db, { kind: 'metrics-test-kind', runAt: new Date(Date.now() + 86_400_000) });

    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    const route = '/v1/receivables/customers/{id}';
    expect(sample(text, 'http_requests_total', { method: 'GET', route, status: '200' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'http_requests_total', { method: 'GET', route, status: '404' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'http_requests_total', { method: 'GET', route: '/trpc/receivables.customers.get', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'http_requests_total', { method: 'GET', route: '/trpc/:path', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route, status: '200' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'http_request_duration_seconds_bucket', { method: 'GET', route, status: '200', le: '+Inf' })).toBeGreaterThanOrEqual(1);
    // No id, no client-written path among the labels.
    expect(text).not.toContain(customer.id);
    expect(text).not.toContain('/no/such/path');
    expect(text).not.toContain('no.such.procedure');
    expect(sample(text, 'db_pool_max_connections', { database: t.deps.dbKind })).toBe(t.deps.dbKind === 'postgres' ? t.deps.config.DATABASE_POOL_SIZE : 1);
    expect(sample(text, 'jobs_queue_depth', { state: 'queued' })).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^process_cpu_seconds_total /m);
  });

  it('with METRICS_TOKEN set, answers 401 without the token and the figures with it', async () => {
    const token = 'metrics-token-0123456789abcdef';
    const guarded = await createTestApp({ METRICS_TOKEN: token });
    try {
      const without = await guarded.app.inject({ method: 'GET', url: '/metrics' });
      expect(without.statusCode).toBe(401);
      expect(without.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(without.json()).toMatchObject({ status: 401, code: 'unauthenticated' });
      const wrong = await guarded.app.inject({ method: 'GET', url: '/metrics', headers: bearer('metrics-token-wrong-0123456789') });
      expect(wrong.statusCode).toBe(401);
      const right = await guarded.app.inject({ method: 'GET', url: '/metrics', headers: bearer(token) });
      expect(right.statusCode).toBe(200);
      expect(right.body).toContain('# TYPE http_requests_total counter');
    } finally {
      await guarded.app.close();
      await guarded.handle.close();
    }
  });
});
