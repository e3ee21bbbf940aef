import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../src/lib/errors';
import { guardRoute, sendIdempotentWrite } from '../../src/routers/route-guard';
import { createCustomer } from '../factories/setup';
import { bearer, createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { countIdempotencyKeys, customerCreateTarget } from '../helpers/writes';

const t = useTestApp({ RATE_LIMIT_PER_KEY: '4', RATE_LIMIT_AUTH_FAILURES: '2' });

/**
 * Addresses are set explicitly: on PostgreSQL the per-address counters are shared by every test app
 * (as by every process), and other tests fail keys from 127.0.0.1.
 *
 * The helpers a plain fastify route (the multipart upload) uses to get what writeProcedure gives a
 * procedure: authentication with failed-key counting, rate limits, idempotency in one transaction.
 */
describe('route-guard helpers for plain fastify routes', () => {
  let app: FastifyInstance;
  const target = customerCreateTarget();
  beforeAll(async () => {
    app = Fastify();
    app.setErrorHandler((error, _req, reply) => {
      if (!isAppError(error)) return reply.code(500).send({ code: 'internal' });
      return reply.code(error.status).headers(error.headers ?? {}).send({ code: error.appCode });
    });
    app.post('/things', async (req, reply) => {
      const principal = await guardRoute(t.deps, req, reply);
      const body = req.body as { code: string; legal_name: string };
      return sendIdempotentWrite(t.deps, req, reply, {
        principal,
        route: 'things.create',
        input: body,
        run: async (tx) => {
          const customer = await createCustomer(tx, principal.organizationId, { code: body.code, legalName: body.legal_name });
          return { status: 201, headers: { ETag: `"${customer.revision}"`, Location: `/things/${customer.id}` }, body: customer };
        },
      });
    });
  });
  afterAll(() => app.close());

  const post = (token: string, key?: string, body = target.body('a'), remoteAddress = '10.98.0.1') =>
    app.inject({ method: 'POST', url: '/things', headers: { ...bearer(token), ...(key ? { 'idempotency-key': key } : {}) }, payload: body, remoteAddress });

  it('needs a key with an API key, replays, refuses a reused key, and carries the rate-limit headers', async () => {
    const org = await createTestOrganization(t.db);
    const missing = await post(org.owner.apiKey);
    expect(missing.statusCode).toBe(422);
    expect(missing.json().code).toBe('idempotency_key_required');
    expect(missing.headers['ratelimit-remaining']).toBe('3');

    const first = await post(org.owner.apiKey, 'up-1');
    expect(first.statusCode).toBe(201);
    expect(first.headers.etag).toBe('"1"');
    const again = await post(org.owner.apiKey, 'up-1');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(again.headers.location).toBe(first.headers.location);
    expect(await target.countRecords(t.db, org.id)).toBe(1);
    expect(await countIdempotencyKeys(t.db, org.id)).toBe(1);

    const reused = await post(org.owner.apiKey, 'up-1', target.body('b'));
    expect(reused.statusCode).toBe(409);
    expect(reused.json().code).toBe('idempotency_key_reused');
    expect(await target.countRecords(t.db, org.id)).toBe(1);

    const over = await post(org.owner.apiKey, 'up-2', target.body('b'));
    expect(over.statusCode).toBe(429);
    expect(over.json().code).toBe('rate_limited');
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('counts failed key authentications per address', async () => {
    const org = await createTestOrganization(t.db);
    const from = `10.99.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
    const bad = `fk_00000000-0000-4000-8000-000000000000_${'y'.repeat(30)}`;
    expect((await post(bad, 'k', undefined, from)).statusCode).toBe(401);
    expect((await post(bad, 'k', undefined, from)).statusCode).toBe(401);
    expect((await post(bad, 'k', undefined, from)).statusCode).toBe(429);
    expect((await post(org.owner.apiKey, 'k', target.body('c'), '10.99.0.2')).statusCode).toBe(201);
  });
});
