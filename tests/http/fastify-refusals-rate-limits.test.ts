import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bearer, createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { multipartBody, SAMPLE_PDF } from '../helpers/multipart';
import { expectProblem } from '../helpers/problem';

const t = useTestApp({ RATE_LIMIT_PER_KEY: '3', DOCUMENT_MAX_BYTES: '64' });

/** Requests fastify refuses before any route runs: the body is not JSON, too large, or of another type. */
const refused = (token: string | undefined, kind: 'malformed' | 'media' | 'large', from = '10.97.0.1') =>
  t.app.inject({
    method: 'POST',
    url: '/v1/expenses/claims',
    remoteAddress: from,
    headers: {
      ...(token ? bearer(token) : {}),
      'idempotency-key': randomUUID(),
      'content-type': kind === 'media' ? 'text/csv' : 'application/json',
    },
    payload: kind === 'malformed' ? '{"title":' : kind === 'media' ? 'a,b' : JSON.stringify({ title: 'a'.repeat(1024 * 1024 + 10) }),
  });

describe('fastify-level refusals on /v1 to an API-key request carry the RateLimit-* headers', () => {
  it.each([
    ['malformed JSON', 'malformed', 400, 'invalid_request'],
    ['a body that is not JSON', 'media', 415, 'unsupported_media_type'],
    ['a body over the limit', 'large', 413, 'payload_too_large'],
  ] as const)('%s: answered with the key\'s limit, counted like any request', async (_name, kind, status, code) => {
    const org = await createTestOrganization(t.db);
    const res = await refused(org.owner.apiKey, kind);
    expectProblem(res, status, code);
    expect(res.headers['ratelimit-limit']).toBe('3');
    expect(res.headers['ratelimit-remaining']).toBe('2');
    expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);
  });

  it('refusals of the REST adapter before any procedure (unknown path, missing body) carry them too', async () => {
    const org = await createTestOrganization(t.db);
    const unknown = await t.app.inject({ method: 'GET', url: '/v1/no-such-thing', headers: bearer(org.owner.apiKey) });
    expectProblem(unknown, 404, 'not_found');
    expect(unknown.headers['ratelimit-remaining']).toBe('2');
    const noBody = await t.app.inject({ method: 'POST', url: '/v1/expenses/claims', headers: { ...bearer(org.owner.apiKey), 'idempotency-key': randomUUID() } });
    expectProblem(noBody, 400, 'invalid_request');
    expect(noBody.headers['ratelimit-remaining']).toBe('1');
  });

  it('the refused requests count: over the limit the key is refused with 429 and Retry-After first', async () => {
    const org = await createTestOrganization(t.db);
    for (const remaining of ['2', '1', '0']) {
      const res = await refused(org.owner.apiKey, 'malformed');
      expectProblem(res, 400, 'invalid_request');
      expect(res.headers['ratelimit-remaining']).toBe(remaining);
    }
    const over = await refused(org.owner.apiKey, 'malformed');
    expectProblem(over, 429, 'rate_limited');
    expect(over.headers['ratelimit-remaining']).toBe('0');
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('an unknown key is answered 401 with its challenge, as on every route; no key or a session: the refusal alone', async () => {
    const bad = `fk_00000000-0000-4000-8000-000000000000_${'z'.repeat(30)}`;
    const unknown = await refused(bad, 'malformed', `10.97.1.${Math.floor(Math.random() * 250) + 1}`);
    expectProblem(unknown, 401, 'unauthenticated');
    expect(unknown.headers['www-authenticate']).toBe('Bearer');
    expect(unknown.headers['ratelimit-limit']).toBeDefined();

    const anonymous = await refused(undefined, 'malformed');
    expectProblem(anonymous, 400, 'invalid_request');
    expect(anonymous.headers['ratelimit-limit']).toBeUndefined();

    const org = await createTestOrganization(t.db);
    const person = await refused(org.owner.session, 'media');
    expectProblem(person, 415, 'unsupported_media_type');
    expect(person.headers['ratelimit-limit']).toBeUndefined();
  });

  it('an upload refused by the multipart parser (413) after the route guard is counted once', async () => {
    const org = await createTestOrganization(t.db);
    const body = multipartBody({ filename: 'big.pdf', contentType: 'application/pdf', content: Buffer.concat([SAMPLE_PDF, Buffer.alloc(200, 32)]) });
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/documents',
      headers: { ...bearer(org.owner.apiKey), 'idempotency-key': randomUUID(), 'content-type': body.contentType },
      payload: body.payload,
    });
    expectProblem(res, 413, 'payload_too_large');
    expect(res.headers['ratelimit-remaining']).toBe('2');
  });
});
