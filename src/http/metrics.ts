import type { FastifyInstance, FastifyRequest } from 'fastify';
import { timingSafeEqual, createHash } from 'node:crypto';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { queryRows, sql } from '../db/client';
import { countUnfinishedJobs } from '../db/queries/jobs';
import type { AppDeps } from '../deps';
import { problemForCode } from '../lib/problem';
import { appRouter } from '../routers/app';

/**
 * GET /metrics in the Prometheus text format (docs/design.md §10): requests by route template and
 * status, latency histograms, the database pool and the job queue depth (also by job kind). Routes are labelled by
 * their template (`/v1/receivables/customers/{id}`, `/trpc/receivables.customers.get`), never by
 * the raw URL: an id or a client-written path never becomes a label (the series stay bounded).
 * With METRICS_TOKEN set, the page needs `Authorization: Bearer <token>`; unset, it is open and
 * belongs on an internal network only (it shows traffic, never data or secrets).
 */

const PROCEDURES = new Set(Object.keys(appRouter._def.procedures as object));

/** The route label of a request: its template, `unmatched` for paths no route serves. */
export function routeLabel(req: FastifyRequest): string {
  const url = req.routeOptions.url;
  if (!url) return 'unmatched';
  // An operation's own route, or the REST catch-all that found one (a trailing slash, another letter case).
  const template = req.routeOptions.config?.operationTemplate ?? req.operationTemplate;
  if (template) return template;
  if (url === '/trpc/:path') {
    const path = (req.params as { path?: string }).path ?? '';
    if (PROCEDURES.has(path)) return `/trpc/${path}`;
    return path.includes(',') ? '/trpc/(batch)' : '/trpc/:path';
  }
  return url;
}

function tokenMatches(given: string | undefined, token: string): boolean {
  const digest = (v: string) => createHash('sha256').update(v).digest();
  return given !== undefined && timingSafeEqual(digest(given), digest(`Bearer ${token}`));
}

/** Registers the request hooks and GET /metrics; call before the routes are registered. */
export function registerMetrics(app: FastifyInstance, deps: AppDeps): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to its answer being sent, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  new Gauge({
    name: 'db_pool_max_connections',
    help: 'Connections the database pool may open (DATABASE_POOL_SIZE; 1 on the embedded database)',
    labelNames: ['database'] as const,
    registers: [registry],
    collect() {
      this.set({ database: deps.dbKind }, deps.dbKind === 'postgres' ? deps.config.DATABASE_POOL_SIZE : 1);
    },
  });
  new Gauge({
    name: 'jobs_queue_depth',
    help: 'Background jobs not finished, by state (queued, running, failed = waiting for a retry, dead = out of attempts)',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      try {
        const rows = await queryRows<{ state: string; n: number }>(
          deps.db,
          sql`select state, count(*)::int as n from jobs where state in ('queued', 'running', 'failed', 'dead') group by state`,
        );
        for (const state of ['queued', 'running', 'failed', 'dead']) this.set({ state }, Number(rows.find((r) => r.state === state)?.n ?? 0));
      } catch {
        // The database did not answer (/readyz says so): no figure rather than a stale one.
        this.reset();
      }
    },
  });

  new Gauge({
    name: 'jobs_by_kind',
    help: 'Background jobs not finished, by kind and state (failed = retrying after a failure, dead = out of attempts)',
    labelNames: ['kind', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      try {
        for (const row of await countUnfinishedJobs(deps.db)) this.set({ kind: row.kind, state: row.state }, row.n);
      } catch {
        // The database did not answer: no figure rather than a stale one.
      }
    },
  });

  app.addHook('onResponse', (req, reply, done) => {
    const labels = { method: req.method, route: routeLabel(req), status: String(reply.statusCode) };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
    done();
  });

  app.get('/metrics', async (req, reply) => {
    const token = deps.config.METRICS_TOKEN;
    if (token && !tokenMatches(req.headers.authorization, token)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .type('application/problem+json; charset=utf-8')
        .send({ ...problemForCode('unauthenticated', 'Send Authorization: Bearer <METRICS_TOKEN>'), instance: '/metrics', request_id: String(req.id) });
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}
