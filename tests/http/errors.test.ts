import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/lib/errors';
import { buildServer } from '../../src/server';
import { bearer, createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { expectProblem } from '../helpers/problem';

const t = useTestApp();

const post = (url: string, token: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { ...bearer(token), 'content-type': 'application/json', 'idempotency-key': randomUUID(), ...headers },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

describe('input of the wrong shape: a missing field is required, a present one of the wrong type says its type', () => {
  it('a missing field is "is required"', async () => {
    const org = await createTestOrganization(t.db);
    const res = await post('/v1/expenses/claims', org.owner.apiKey, {});
    const problem = expectProblem(res, 400, 'invalid_request');
    expect(problem.errors).toEqual([{ pointer: '/title', detail: 'is required' }]);
    expect(problem.detail).toBe('title is required');
  });

  it('a field of the wrong type is "must be of type <type>", not "is required"', async () => {
    const org = await createTestOrganization(t.db);
    const res = await post('/v1/expenses/claims', org.owner.apiKey, { title: 5 });
    const problem = expectProblem(res, 400, 'invalid_request');
    expect(problem.errors).toEqual([{ pointer: '/title', detail: 'must be of type string' }]);
    expect(problem.detail).toBe('title must be of type string');
  });

  it('null for a field that is not nullable is "must be of type <type>, not null"', async () => {
    const org = await createTestOrganization(t.db);
    const res = await post('/v1/expenses/claims', org.owner.apiKey, { title: null });
    const problem = expectProblem(res, 400, 'invalid_request');
    expect(problem.errors).toEqual([{ pointer: '/title', detail: 'must be of type string, not null' }]);
  });

  it('a number sent as a string ("30") is a wrong type; missing, wrong and nested fields are told apart', async () => {
    const org = await createTestOrganization(t.db);
    const res = await post('/v1/receivables/invoices', org.owner.apiKey, {
      kind: 'sales_invoice',
      payment_terms_days: '30',
      lines: [{ quantity: '1', unit_price: '10.00', description: 7 }],
    });
    const problem = expectProblem(res, 400, 'invalid_request');
    expect(problem.errors).toEqual(
      expect.arrayContaining([
        { pointer: '/customer_id', detail: 'is required' },
        { pointer: '/payment_terms_days', detail: 'must be of type number' },
        { pointer: '/lines/0/description', detail: 'must be of type string' },
      ]),
    );
  });

  it('the same over tRPC: missing and wrong type are told apart in error.data.problem', async () => {
    const org = await createTestOrganization(t.db);
    const res = await t.app.inject({
      method: 'POST',
      url: '/trpc/expenses.claims.create',
      headers: { ...bearer(org.owner.apiKey), 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      payload: JSON.stringify({ title: 5 }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.data.problem.errors).toEqual([{ pointer: '/title', detail: 'must be of type string' }]);
  });
});

/** A server on the same deps whose log lines the test can read. */
async function serverWithLog() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const app = await buildServer(t.deps, { loggerInstance: pino({ level: 'info' }, stream) });
  return { app, lines };
}

describe('a fault (500) answers nothing internal, carries the request id, and is logged with its cause', () => {
  it.each([
    ['an AppError of code internal', () => new AppError('internal', { detail: 'organization has no receivable_document workflow' })],
    ['an unexpected exception', () => new Error('organization has no receivable_document workflow')],
  ])('%s', async (_name, makeError) => {
    const org = await createTestOrganization(t.db);
    const { app, lines } = await serverWithLog();
    t.deps.faults = {
      beforeCommit: () => {
        throw makeError();
      },
    };
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/v1/expenses/claims',
        headers: { ...bearer(org.owner.apiKey), 'content-type': 'application/json', 'idempotency-key': randomUUID(), 'x-request-id': 'req-fault-1' },
        payload: JSON.stringify({ title: 'Client visit' }),
      });
      const problem = expectProblem(res, 500, 'internal');
      expect(res.body).not.toContain('workflow');
      expect(problem.detail).toBe('The service could not complete this request; quote the request id when reporting it');
      expect(problem.instance).toBe('urn:request:req-fault-1');
      expect(res.json().request_id).toBe('req-fault-1');
      expect(res.headers['x-request-id']).toBe('req-fault-1');
      // Rate-limit headers of the key still come with the fault.
      expect(res.headers['ratelimit-limit']).toBeDefined();

      const logged = lines.filter((l) => l.level === 50);
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ requestId: 'req-fault-1', status: 500, msg: 'request failed' });
      expect((logged[0]!.err as { message: string }).message).toBe('organization has no receivable_document workflow');
    } finally {
      t.deps.faults = undefined;
      await app.close();
    }
  });

  it('over tRPC the problem in error.data carries no internal detail either', async () => {
    const org = await createTestOrganization(t.db);
    t.deps.faults = {
      beforeCommit: () => {
        throw new AppError('internal', { detail: 'organization has no receivable_document workflow' });
      },
    };
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/trpc/receivables.customers.create',
        headers: { ...bearer(org.owner.apiKey), 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        payload: JSON.stringify({ code: `C-${randomUUID().slice(0, 8)}`, legal_name: 'Kedai' }),
      });
      expect(res.statusCode).toBe(500);
      expect(res.body).not.toContain('workflow');
      expect(res.json().error.data.problem).toMatchObject({ code: 'internal', status: 500 });
    } finally {
      t.deps.faults = undefined;
    }
  });
});
