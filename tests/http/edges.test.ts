import { randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { buildServer } from '../../src/server';
import { bearer, createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { TEST_PAYOUT_ENCRYPTION_KEY } from '../helpers/keys';
import { expectProblem } from '../helpers/problem';

const t = useTestApp();

type Injected = Awaited<ReturnType<typeof t.app.inject>>;

/** A problem with the request id in the body and in X-Request-Id. */
function expectProblemWithId(res: Injected, status: number, code: string) {
  const problem = expectProblem(res, status, code) as ReturnType<typeof expectProblem> & { request_id?: string };
  expect(problem.request_id).toEqual(expect.any(String));
  expect(res.headers['x-request-id']).toBe(problem.request_id);
  return problem;
}

describe("fastify's router refusals are problems with a request id", () => {
  it('invalid percent-encoding in a /v1 path is 400 invalid_request', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/receivables/customers/%E0%A4%A', headers: { 'x-request-id': 'req-bad-url' } });
    const problem = expectProblemWithId(res, 400, 'invalid_request');
    expect(problem.request_id).toBe('req-bad-url');
    expect(problem.instance).toBe('/v1/receivables/customers/%E0%A4%A');
  });

  it('a /trpc path longer than the router reads is 414 uri_too_long', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/trpc/${'a'.repeat(600)}` });
    expectProblemWithId(res, 414, 'uri_too_long');
  });

  it('a URL longer than 8 KiB is 414 uri_too_long, before authentication', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/receivables/customers?q=${'a'.repeat(8 * 1024)}` });
    const problem = expectProblemWithId(res, 414, 'uri_too_long');
    expect(problem.detail).toBe('The URL is longer than 8192 characters');
  });

  it('a URL of 8 KiB less a little still reaches the operation', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/healthz?pad=${'a'.repeat(8000)}` });
    expect(res.statusCode).toBe(200);
  });
});

describe("Node's own refusals before routing are problems too", () => {
  it('a request line over 16 KiB is 431 headers_too_large, a problem, on a listening server', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      for (const path of [`/v1/receivables/customers?q=${'a'.repeat(20_000)}`, `/trpc/auth.me?input=${'1'.repeat(20_000)}`]) {
        const res = await fetch(`${address}${path}`);
        expect(res.status).toBe(431);
        expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
        const problem = (await res.json()) as Record<string, unknown>;
        expect(problem).toMatchObject({ type: '/problems/headers_too_large', status: 431, code: 'headers_too_large', title: 'Request headers too large' });
        expect(problem.request_id).toBe(res.headers.get('x-request-id'));
        expect(problem.instance).toBe(`urn:request:${problem.request_id}`);
      }
    } finally {
      t.app.server.close();
    }
  });
});

describe('tRPC refusals are JSON', () => {
  it('a body of another media type on /trpc is 415 in tRPC\'s error shape, as application/json', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/trpc/auth.login', headers: { 'content-type': 'text/plain' }, payload: 'x' });
    expect(res.statusCode).toBe(415);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json().error.data).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', problem: { code: 'unsupported_media_type', status: 415 } });
  });
});

describe('404s everywhere are problems', () => {
  it.each(['/nothing', '/trpc', '/trpc/a/b', '/v1'])('GET %s', async (url) => {
    const res = await t.app.inject({ method: 'GET', url });
    const problem = expectProblemWithId(res, 404, 'not_found');
    expect(problem.instance).toBe(url);
  });

  it('an unknown tRPC procedure keeps the tRPC error shape, the problem in error.data', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/trpc/nothing.here' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.data.problem).toMatchObject({ code: 'not_found', status: 404 });
  });
});

describe('/problems pages', () => {
  it.each(['zzz', '__proto__', 'constructor', 'hasOwnProperty', 'toString'])('/problems/%s is a 404 problem', async (code) => {
    const res = await t.app.inject({ method: 'GET', url: `/problems/${code}` });
    const problem = expectProblemWithId(res, 404, 'not_found');
    expect(problem.detail).toBe(`There is no problem type "${code}"`);
  });

  it.each(['not_found', 'method_not_allowed', 'uri_too_long'])('/problems/%s explains the code', async (code) => {
    const res = await t.app.inject({ method: 'GET', url: `/problems/${code}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain(`<code>${code}</code>`);
  });
});

describe('a method a path does not serve is 405 method_not_allowed with Allow', () => {
  it.each(['PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const)('%s /v1/receivables/customers', async (method) => {
    const org = await createTestOrganization(t.db);
    const res = await t.app.inject({ method, url: '/v1/receivables/customers', headers: bearer(org.owner.apiKey) });
    expectProblemWithId(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe('GET, HEAD, POST');
  });

  it('a path with a parameter: DELETE /v1/receivables/customers/{id}', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: `/v1/receivables/customers/${randomUUID()}` });
    expectProblemWithId(res, 405, 'method_not_allowed');
    expect(String(res.headers.allow).split(', ')).toEqual(expect.arrayContaining(['GET', 'HEAD']));
    expect(String(res.headers.allow)).not.toContain('DELETE');
  });

  it('a fastify route of the facade: GET /v1/documents (upload only)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/documents' });
    expectProblemWithId(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe('POST');
  });

  it('outside /v1: POST /healthz', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/healthz' });
    expectProblemWithId(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  it('an unknown path stays 404 whatever the method', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/v1/receivables/nothing' });
    expectProblemWithId(res, 404, 'not_found');
  });
});

describe("HEAD only where GET is served, with GET's authentication", () => {
  it('without credentials on a protected GET: 401, no body', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: '/v1/receivables/customers' });
    expect(res.statusCode).toBe(401);
    expect(res.body).toBe('');
  });

  it('with a wrong key: 401', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: '/v1/receivables/customers', headers: { authorization: 'Bearer fk_nope' } });
    expect(res.statusCode).toBe(401);
  });

  it("with a key: GET's status and headers, no body", async () => {
    const org = await createTestOrganization(t.db);
    const get = await t.app.inject({ method: 'GET', url: '/v1/receivables/customers', headers: bearer(org.owner.apiKey) });
    const head = await t.app.inject({ method: 'HEAD', url: '/v1/receivables/customers', headers: bearer(org.owner.apiKey) });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.headers['ratelimit-limit']).toBeDefined();
  });

  it("another organization's record is 404 as on GET", async () => {
    const org = await createTestOrganization(t.db);
    const res = await t.app.inject({ method: 'HEAD', url: `/v1/receivables/customers/${randomUUID()}`, headers: bearer(org.owner.apiKey) });
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe('');
  });

  it.each(['/v1/nothing', '/nothing'])('on an unknown path %s: 404, no body', async (url) => {
    const res = await t.app.inject({ method: 'HEAD', url });
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe('');
  });

  it('on a path without GET: 405 with Allow', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: '/v1/documents' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST');
  });

  it('on a tRPC query without credentials: 401, not the adapter 204', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: '/trpc/receivables.customers.list' });
    expect(res.statusCode).toBe(401);
  });
});

describe('compression', () => {
  it('a JSON answer above 1 KiB is gzip-compressed when the client accepts it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/openapi.json', headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    const doc = JSON.parse(gunzipSync(res.rawPayload).toString('utf8')) as { openapi: string };
    expect(doc.openapi).toMatch(/^3\./);
  });

  it('a small answer and a client that accepts no encoding get it as it is', async () => {
    const small = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'accept-encoding': 'gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    const plain = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json().openapi).toMatch(/^3\./);
  });

  it('a compressed request body is not accepted (nothing is decompressed)', async () => {
    const org = await createTestOrganization(t.db);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/expenses/claims',
      headers: { ...bearer(org.owner.apiKey), 'content-type': 'application/json', 'content-encoding': 'gzip', 'idempotency-key': randomUUID() },
      payload: Buffer.from([0x1f, 0x8b, 0x08, 0x00]),
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });
});

describe('CORS: off by default, an allowlist when CORS_ORIGINS is set', () => {
  it('by default no Access-Control-* header, and a preflight is 405', async () => {
    const get = await t.app.inject({ method: 'GET', url: '/healthz', headers: { origin: 'https://evil.example' } });
    expect(Object.keys(get.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/v1/receivables/customers',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.statusCode).toBe(405);
    expect(Object.keys(preflight.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });

  it('CORS_ORIGINS is a comma-separated list of origins; a path or "*" is refused at start-up', () => {
    const base = { PAYOUT_ENCRYPTION_KEY: TEST_PAYOUT_ENCRYPTION_KEY } as NodeJS.ProcessEnv;
    expect(loadConfig(base).CORS_ORIGINS).toEqual([]);
    expect(loadConfig({ ...base, CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' }).CORS_ORIGINS).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
    ]);
    expect(() => loadConfig({ ...base, CORS_ORIGINS: '*' })).toThrow(/CORS_ORIGINS/);
    expect(() => loadConfig({ ...base, CORS_ORIGINS: 'https://app.example.com/path' })).toThrow(/CORS_ORIGINS/);
  });

  it('a listed origin gets the CORS headers and a preflight; another origin gets none', async () => {
    const app = await buildServer({ ...t.deps, config: { ...t.deps.config, CORS_ORIGINS: ['https://app.example.com'] } });
    try {
      const org = await createTestOrganization(t.db);
      const allowed = await app.inject({ method: 'GET', url: '/v1/receivables/customers', headers: { ...bearer(org.owner.apiKey), origin: 'https://app.example.com' } });
      expect(allowed.statusCode).toBe(200);
      expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example.com');
      expect(String(allowed.headers['access-control-expose-headers'])).toMatch(/RateLimit-Remaining/);
      expect(allowed.headers['access-control-allow-credentials']).toBeUndefined();

      const preflight = await app.inject({
        method: 'OPTIONS',
        url: '/v1/receivables/customers',
        headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, idempotency-key' },
      });
      expect(preflight.statusCode).toBe(204);
      expect(String(preflight.headers['access-control-allow-headers'])).toMatch(/Idempotency-Key/);

      const other = await app.inject({ method: 'GET', url: '/v1/receivables/customers', headers: { ...bearer(org.owner.apiKey), origin: 'https://evil.example' } });
      expect(other.statusCode).toBe(200);
      expect(other.headers['access-control-allow-origin']).toBeUndefined();

      // An unknown path is still a 404, not a match of the preflight route.
      const unknown = await app.inject({ method: 'GET', url: '/nothing', headers: { origin: 'https://app.example.com' } });
      expectProblem(unknown, 404, 'not_found');
    } finally {
      await app.close();
    }
  });
});

describe('size limits are documented', () => {
  it('the OpenAPI description states the body, upload and URL limits', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as { info: { description: string } };
    expect(doc.info.description).toContain('**Size limits.** A JSON request body of at most 1 MiB');
    expect(doc.info.description).toContain('10 MiB by default');
    expect(doc.info.description).toContain('a URL of at most 8192 characters');
  });
});
