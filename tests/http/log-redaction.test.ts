import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { sql } from '../../src/db/client';
import { LOG_SAFETY } from '../../src/lib/logging';
import { buildServer } from '../../src/server';
import { bearer, createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { multipartBody, SAMPLE_PDF } from '../helpers/multipart';
import { expectProblem } from '../helpers/problem';

const t = useTestApp();

type Line = Record<string, unknown> & { msg?: string; level?: number };

function capture(level = 'info') {
  const lines: Line[] = [];
  const text: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        text.push(line);
        lines.push(JSON.parse(line) as Line);
      }
      done();
    },
  });
  return { lines, text, logger: pino({ level }, stream) };
}

/** A server on the same deps whose every log line the test reads. */
async function serverWithLog(level = 'info') {
  const { lines, text, logger } = capture(level);
  const app = await buildServer(t.deps, { loggerInstance: logger });
  return { app, lines, text };
}

describe('a database error is logged without its SQL parameters or statement', () => {
  it('a failed query inside a write: the log names the fault (SQLSTATE, stack) and none of the values', async () => {
    const org = await createTestOrganization(t.db);
    const { app, lines, text } = await serverWithLog();
    // Values of the kind a failed statement carries: a person's name and e-mail, a TIN, a token hash.
    const secrets = ['Siti Aminah binti Abdullah', 'siti.aminah@example.my', 'C20880050010', 'f3b1c2d4e5a6978812345678deadbeef0f3b1c2d4e5a6978812345678deadbeef'];
    t.deps.faults = {
      beforeCommit: async ({ db }) => {
        await db.execute(sql`select ${secrets[0]}::text as name, ${secrets[1]}::text as email, ${secrets[2]}::text as tin, ${secrets[3]}::uuid as token_hash`);
      },
    };
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/v1/expenses/claims',
        headers: { ...bearer(org.owner.apiKey), 'content-type': 'application/json', 'idempotency-key': randomUUID(), 'x-request-id': 'req-db-fault' },
        payload: JSON.stringify({ title: 'Client visit' }),
      });
      expectProblem(res, 500, 'internal');
      const faults = lines.filter((l) => l.level === 50);
      expect(faults).toHaveLength(1);
      const all = text.join('\n');
      for (const s of secrets) expect(all).not.toContain(s);
      expect(all).not.toMatch(/select \$1/i);
      // What identifies the fault stays: the SQLSTATE of an invalid uuid, a stack.
      const err = JSON.stringify(faults[0]!.err);
      expect(err).toContain('22P02');
      expect(err).toMatch(/at /);
    } finally {
      t.deps.faults = undefined;
      await app.close();
    }
  });

  it('at warn, a request writes only its failure, and that line still carries its request id', async () => {
    const org = await createTestOrganization(t.db);
    const { app, lines } = await serverWithLog('warn');
    t.deps.faults = {
      beforeCommit: async ({ db }) => {
        await db.execute(sql`select 'x'::uuid`);
      },
    };
    try {
      const ok = await app.inject({ method: 'GET', url: '/v1/receivables/customers', headers: { ...bearer(org.owner.apiKey), 'x-request-id': 'req-warn-ok' } });
      expect(ok.statusCode).toBe(200);
      const res = await app.inject({
        method: 'POST',
        url: '/v1/expenses/claims',
        headers: { ...bearer(org.owner.apiKey), 'content-type': 'application/json', 'idempotency-key': randomUUID(), 'x-request-id': 'req-warn-fault' },
        payload: JSON.stringify({ title: 'Client visit' }),
      });
      expectProblem(res, 500, 'internal');
      expect(lines.filter((l) => (l.level ?? 0) < 40)).toEqual([]);
      expect(lines.some((l) => l.reqId === 'req-warn-ok')).toBe(false);
      const faults = lines.filter((l) => l.level === 50);
      expect(faults).toHaveLength(1);
      expect(faults[0]).toMatchObject({ reqId: 'req-warn-fault', requestId: 'req-warn-fault', msg: 'request failed' });
    } finally {
      t.deps.faults = undefined;
      await app.close();
    }
  });

  it('a unique violation keeps its constraint name and drops the key values PostgreSQL quotes in detail', async () => {
    const { serializeError } = await import('../../src/lib/logging');
    const error = Object.assign(new Error('duplicate key value violates unique constraint "customers_org_code_key"'), {
      name: 'PostgresError',
      severity: 'ERROR',
      code: '23505',
      detail: 'Key (organization_id, code)=(7d8b…, SITI-AMINAH) already exists.',
      constraint_name: 'customers_org_code_key',
      table_name: 'customers',
      query: 'insert into customers (code, legal_name) values ($1, $2)',
      parameters: ['SITI-AMINAH', 'Siti Aminah binti Abdullah'],
    });
    const wrapped = Object.assign(new Error('Failed query: insert into customers (code, legal_name) values ($1, $2)\nparams: SITI-AMINAH,Siti Aminah binti Abdullah'), {
      name: 'DrizzleQueryError',
      query: 'insert into customers (code, legal_name) values ($1, $2)',
      params: ['SITI-AMINAH', 'Siti Aminah binti Abdullah'],
      cause: error,
    });
    const out = JSON.stringify(serializeError(new Error('could not create the customer', { cause: wrapped })));
    expect(out).not.toContain('SITI-AMINAH');
    expect(out).not.toContain('Siti Aminah');
    expect(out).not.toContain('insert into');
    expect(out).toContain('customers_org_code_key');
    expect(out).toContain('23505');
    expect(out).toContain('could not create the customer');
  });
});

describe('credentials never reach the log', () => {
  it('Authorization, Cookie and Idempotency-Key are redacted wherever headers are logged', () => {
    const { text } = capture();
    const { lines, text: safeText, logger } = capture();
    const log = logger.child({}, LOG_SAFETY);
    log.info({ req: { method: 'GET', url: '/v1/x', headers: { authorization: 'Bearer fk_secret', cookie: 'sid=abc', 'idempotency-key': 'idem-key-secret-42' } } }, 'r1');
    log.info({ headers: { authorization: 'Bearer fk_secret', cookie: 'sid=abc', 'idempotency-key': 'idem-key-secret-42', accept: 'application/json' } }, 'r2');
    expect(text).toEqual([]);
    expect(lines).toHaveLength(2);
    const all = safeText.join('\n');
    expect(all).not.toContain('fk_secret');
    expect(all).not.toContain('sid=abc');
    expect(all).not.toContain('idem-key-secret-42');
    expect((lines[1]!.headers as Record<string, string>).accept).toBe('application/json');
  });

  it("a request's lines carry neither its key nor its idempotency key", async () => {
    const org = await createTestOrganization(t.db);
    const { app, text } = await serverWithLog();
    const key = randomUUID();
    try {
      await app.inject({
        method: 'POST',
        url: '/v1/expenses/claims',
        headers: { ...bearer(org.owner.apiKey), 'content-type': 'application/json', 'idempotency-key': key, cookie: 'sid=abc' },
        payload: JSON.stringify({ title: 'Client visit' }),
      });
      await app.inject({ method: 'GET', url: '/v1/receivables/customers', headers: { authorization: `Bearer ${org.owner.apiKey}x` } });
      const all = text.join('\n');
      expect(all).not.toContain(org.owner.apiKey);
      expect(all).not.toContain(key);
      expect(all).not.toContain('sid=abc');
    } finally {
      await app.close();
    }
  });
});

describe('who did what: the request line names the organization, the member and the credential', () => {
  it('an API-key request', async () => {
    const org = await createTestOrganization(t.db);
    const { app, lines } = await serverWithLog();
    try {
      const res = await app.inject({ method: 'GET', url: '/v1/receivables/customers', headers: { ...bearer(org.owner.apiKey), 'x-request-id': 'req-who-1' } });
      expect(res.statusCode).toBe(200);
      const done = lines.find((l) => l.msg === 'request completed' && l.reqId === 'req-who-1');
      expect(done).toMatchObject({
        organizationId: org.id,
        memberId: org.owner.id,
        credentialId: org.owner.apiKeyId,
        credentialKind: 'api_key',
        res: { statusCode: 200 },
      });
    } finally {
      await app.close();
    }
  });

  it('a session over tRPC', async () => {
    const org = await createTestOrganization(t.db);
    const { app, lines } = await serverWithLog();
    try {
      await app.inject({ method: 'GET', url: '/trpc/receivables.customers.list', headers: { ...bearer(org.owner.session), 'x-request-id': 'req-who-2' } });
      expect(lines.find((l) => l.msg === 'request completed' && l.reqId === 'req-who-2')).toMatchObject({
        organizationId: org.id,
        memberId: org.owner.id,
        credentialId: org.owner.sessionId,
        credentialKind: 'session',
      });
    } finally {
      await app.close();
    }
  });

  it('an upload (a fastify route outside the procedures)', async () => {
    const org = await createTestOrganization(t.db);
    const { app, lines } = await serverWithLog();
    try {
      const { payload, contentType } = multipartBody({ filename: 'receipt.pdf', contentType: 'application/pdf', content: SAMPLE_PDF });
      const res = await app.inject({
        method: 'POST',
        url: '/v1/documents',
        headers: { ...bearer(org.owner.apiKey), 'content-type': contentType, 'idempotency-key': randomUUID(), 'x-request-id': 'req-who-5' },
        payload,
      });
      expect(res.statusCode).toBe(201);
      expect(lines.find((l) => l.msg === 'request completed' && l.reqId === 'req-who-5')).toMatchObject({
        organizationId: org.id,
        memberId: org.owner.id,
        credentialId: org.owner.apiKeyId,
        credentialKind: 'api_key',
      });
    } finally {
      await app.close();
    }
  });

  it('an unauthenticated request names nobody', async () => {
    const { app, lines } = await serverWithLog();
    try {
      await app.inject({ method: 'GET', url: '/v1/receivables/customers', headers: { 'x-request-id': 'req-who-4' } });
      const done = lines.find((l) => l.msg === 'request completed' && l.reqId === 'req-who-4');
      expect(done).toMatchObject({ res: { statusCode: 401 } });
      expect(done).not.toHaveProperty('organizationId');
    } finally {
      await app.close();
    }
  });
});

describe('every request has its completion line', () => {
  it('a URL the router refuses (invalid percent-encoding) too', async () => {
    const { app, lines } = await serverWithLog();
    try {
      const res = await app.inject({ method: 'GET', url: '/v1/receivables/customers/%E0%A4%A', headers: { 'x-request-id': 'req-bad-url-log' } });
      expect(res.statusCode).toBe(400);
      expect(lines.find((l) => l.msg === 'request completed' && l.reqId === 'req-bad-url-log')).toMatchObject({ res: { statusCode: 400 } });
    } finally {
      await app.close();
    }
  });
});

describe('request URLs are logged by their route, without search text or tRPC inputs', () => {
  const SEARCH = 'zanzibarquux';
  const secretIn = (text: string[]) => text.filter((l) => l.toLowerCase().includes(SEARCH));

  it('a /v1 list with q=, a /v1 read by id, a tRPC GET with its input: route templates, query values redacted, plain settings kept', async () => {
    const org = await createTestOrganization(t.db);
    const { app, lines, text } = await serverWithLog();
    try {
      const list = await app.inject({ method: 'GET', url: `/v1/receivables/invoices?q=${SEARCH}%20binti&limit=25`, headers: { ...bearer(org.owner.apiKey), 'x-request-id': 'req-q-1' } });
      expect(list.statusCode).toBe(200);
      const input = encodeURIComponent(JSON.stringify({ q: `${SEARCH} Sdn Bhd` }));
      await app.inject({ method: 'GET', url: `/trpc/receivables.customers.list?input=${input}`, headers: { ...bearer(org.owner.session), 'x-request-id': 'req-q-2' } });
      const id = randomUUID();
      await app.inject({ method: 'GET', url: `/v1/receivables/invoices/${id}`, headers: { ...bearer(org.owner.apiKey), 'x-request-id': 'req-q-3' } });
      await app.inject({ method: 'GET', url: `/docs?${SEARCH}=1`, headers: { 'x-request-id': 'req-q-4' } });
      await app.inject({ method: 'GET', url: `/no/such/${SEARCH}?q=${SEARCH}`, headers: { 'x-request-id': 'req-q-5' } });
      expect(secretIn(text)).toEqual([]);
      expect(text.join('\n')).not.toContain(id);
      const urls = (reqId: string) => lines.filter((l) => l.reqId === reqId && l.req).map((l) => (l.req as { url: string }).url);
      expect(urls('req-q-1')).toContain('/v1/receivables/invoices?q=[redacted]&limit=25');
      expect(urls('req-q-2')).toContain('/trpc/receivables.customers.list?input=[redacted]');
      expect(urls('req-q-3').every((u) => !u.includes(id) && u.startsWith('/v1/receivables/invoices/'))).toBe(true);
      expect(urls('req-q-3').length).toBeGreaterThan(0);
    } finally {
      await app.close();
    }
  });

  it('a request that fails (500) logs neither its search text nor its input, in any of its lines', async () => {
    const org = await createTestOrganization(t.db);
    const { app, lines, text } = await serverWithLog();
    t.deps.faults = {
      beforeCommit: async () => {
        throw new Error(`write failed for /v1/expenses/claims?q=${SEARCH}`);
      },
    };
    try {
      // tRPC reads its input from the body on POST; the query travels along (and is in the URL).
      const res = await app.inject({
        method: 'POST',
        url: `/trpc/expenses.claims.create?input=${SEARCH}&note=${SEARCH}`,
        headers: { ...bearer(org.owner.apiKey), 'content-type': 'application/json', 'idempotency-key': randomUUID(), 'x-request-id': 'req-q-fault' },
        payload: JSON.stringify({ title: 'Client visit' }),
      });
      expect(res.statusCode).toBe(500);
      expect(lines.filter((l) => l.level === 50).length).toBeGreaterThan(0);
      expect(secretIn(text)).toEqual([]);
    } finally {
      t.deps.faults = undefined;
      await app.close();
    }
  });
});
