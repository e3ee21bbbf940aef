/**
 * The REST adapter (src/routers/rest-adapter.ts): each documented operation on a fastify route of
 * its own, answering as trpc-to-openapi's adapter did. What fastify's router does not match itself
 * (a trailing slash, another letter case) is found as that adapter found it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appRouter } from '../../src/routers/app';
import { bearer, createTestOrganization, type TestOrganization } from '../factories/organization';
import { createTestCustomer } from '../factories/customer';
import { useTestApp } from '../helpers/app';
import { expectProblem } from '../helpers/problem';

const t = useTestApp();
let org: TestOrganization;
let customerId: string;

beforeAll(async () => {
  org = await createTestOrganization(t.db);
  for (const code of ['RA-1', 'RA-2', 'RA-3']) {
    const c = await createTestCustomer(t.db, org.id, { code });
    customerId ??= c.id;
  }
});

describe('the REST adapter', () => {
  it('serves every documented operation on a route of its own (none reaches the catch-all)', () => {
    const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: { openapi?: { method: string; path: string } } } }>;
    const documented = Object.values(procedures).filter((p) => p._def.meta?.openapi);
    expect(documented.length).toBeGreaterThanOrEqual(20);
    for (const p of documented) {
      const { method, path } = p._def.meta!.openapi!;
      const url = `/v1${path.replace(/\{(.+?)\}/g, ':$1')}`;
      expect(t.app.hasRoute({ method, url }), `${method} ${url}`).toBe(true);
    }
    expect(t.app.hasRoute({ method: 'GET', url: '/v1/*' })).toBe(true);
  });

  it('a keyed read answers the record, its ETag and the limit headers as JSON', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/receivables/customers/${customerId}`, headers: bearer(org.owner.apiKey) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers.etag).toBe('"1"');
    expect(res.headers['ratelimit-limit']).toEqual(expect.any(String));
    expect(res.json()).toMatchObject({ id: customerId, code: 'RA-1', revision: 1 });
  });

  it('a trailing slash and another letter case reach the same operation, as trpc-to-openapi matched them', async () => {
    const plain = await t.app.inject({ method: 'GET', url: `/v1/receivables/customers/${customerId}`, headers: bearer(org.owner.apiKey) });
    const slash = await t.app.inject({ method: 'GET', url: `/v1/receivables/customers/${customerId}/`, headers: bearer(org.owner.apiKey) });
    const upper = await t.app.inject({ method: 'GET', url: `/v1/Receivables/Customers/${customerId}`, headers: bearer(org.owner.apiKey) });
    expect(slash.statusCode).toBe(200);
    expect(upper.statusCode).toBe(200);
    expect(slash.json()).toEqual(plain.json());
    expect(upper.json()).toEqual(plain.json());
  });

  it('query values are coerced to the schema (limit=2 is the number 2) and repeated keys are refused as lists where one is expected', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/receivables/customers?limit=2', headers: bearer(org.owner.apiKey) });
    expect(res.statusCode).toBe(200);
    const page = res.json() as { customers: { code: string }[]; next_cursor: string | null };
    expect(page.customers.map((c) => c.code)).toEqual(['RA-1', 'RA-2']);
    expect(page.next_cursor).toEqual(expect.any(String));
    const twice = await t.app.inject({ method: 'GET', url: '/v1/receivables/customers?limit=2&limit=3', headers: bearer(org.owner.apiKey) });
    expectProblem(twice, 400, 'invalid_request');
  });

  it('an empty query value is left out, as the adapter did (limit= is the default page)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/receivables/customers?limit=', headers: bearer(org.owner.apiKey) });
    expect(res.statusCode).toBe(200);
    expect((res.json() as { customers: unknown[] }).customers).toHaveLength(3);
  });

  it('a write with a body of another media type is 415; a path no operation has is 404; another method is 405 with Allow', async () => {
    const text = await t.app.inject({
      method: 'POST',
      url: '/v1/receivables/customers',
      headers: { ...bearer(org.owner.apiKey), 'content-type': 'text/plain', 'idempotency-key': 'ra-415' },
      payload: 'code=X',
    });
    expectProblem(text, 415, 'unsupported_media_type');
    const missing = await t.app.inject({ method: 'GET', url: '/v1/receivables/nothing-here', headers: bearer(org.owner.apiKey) });
    expectProblem(missing, 404, 'not_found');
    const put = await t.app.inject({ method: 'PUT', url: `/v1/receivables/customers/${customerId}`, headers: bearer(org.owner.apiKey) });
    const problem = expectProblem(put, 405, 'method_not_allowed');
    expect(put.headers.allow).toBe('GET, HEAD, PATCH');
    expect(problem.detail).toContain('PUT');
  });

  it('HEAD of a read runs its GET (with its authentication) and sends no body', async () => {
    const ok = await t.app.inject({ method: 'HEAD', url: `/v1/receivables/customers/${customerId}`, headers: bearer(org.owner.apiKey) });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('');
    expect(ok.headers.etag).toBe('"1"');
    const anonymous = await t.app.inject({ method: 'HEAD', url: `/v1/receivables/customers/${customerId}` });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('the REST adapter writes each answer as its output schema has it', () => {
  for (const mode of ['fields', 'full', 'strict'] as const) {
    it(`an internal field never leaves; a wrong type is a 500 unless only fields are kept (${mode})`, async () => {
      const { default: Fastify } = await import('fastify');
      const { publicProcedure, router } = await import('../../src/routers/trpc');
      const { installOutputAnswers } = await import('../../src/routers/output-answer');
      const { registerRestAdapter } = await import('../../src/routers/rest-adapter');
      const out = z.object({ a: z.string(), n: z.number().nullable() });
      const r = router({
        leak: publicProcedure
          .meta({ openapi: { method: 'GET', path: '/leak' } })
          .input(z.object({}))
          .output(out)
          .query(() => ({ n: null, secret: 'y', a: 'say "x"' }) as z.infer<typeof out>),
        wrong: publicProcedure
          .meta({ openapi: { method: 'GET', path: '/wrong' } })
          .input(z.object({}))
          .output(out)
          .query(() => ({ a: 5, n: 1 }) as unknown as z.infer<typeof out>),
      });
      expect(installOutputAnswers(r as never, mode)).toBe(2);
      const app = Fastify();
      await app.register(
        async (scope) =>
          registerRestAdapter(scope, {
            router: r as never,
            createContext: () => ({ log: { error() {} }, requestId: 'r' }) as never,
            responseMeta: ({ errors }) => ({ status: errors.length ? 500 : 200 }),
          }),
        { prefix: '/v1' },
      );
      const leak = await app.inject({ method: 'GET', url: '/v1/leak' });
      expect(leak.statusCode).toBe(200);
      expect(leak.body).toBe('{"a":"say \\"x\\"","n":null}');
      const wrong = await app.inject({ method: 'GET', url: '/v1/wrong' });
      if (mode === 'fields') {
        expect(wrong.statusCode).toBe(200);
        expect(wrong.body).toBe('{"a":5,"n":1}');
      } else {
        expect(wrong.statusCode).toBe(500);
        expect(wrong.json()).toMatchObject({ code: 'INTERNAL_SERVER_ERROR' });
        expect(wrong.body).not.toContain('"a":5');
      }
      await app.close();
    });
  }
});
