import { describe, expect, it } from 'vitest';
import { createInProcessClient } from '../../src/client';
import { sql, queryRows } from '../../src/db/client';
import { IDEMPOTENCY_RETENTION_MS, purgeExpiredIdempotencyKeys } from '../../src/services/idempotency/idempotency';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { uploadTestDocument } from '../factories/receivables';
import { onPostgres, useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';
import { multipartBody } from '../helpers/multipart';
import { expectProblem } from '../helpers/problem';
import { claimFileTarget, countIdempotencyKeys, customerCreateTarget, customerRestCreateTarget, invoiceCreateTarget, sendWrite, type SentWrite, type WriteTarget } from '../helpers/writes';

const t = useTestApp();

/**
 * Every write gets idempotency from writeProcedure. These run against each write listed here: the
 * tRPC-only customer create, the REST claim filing and the REST invoice preparation (which needs
 * reference data per organization: WriteTarget.setup). The multipart upload and the attachments
 * write do not fit the JSON-create shape; they have their own blocks below.
 */
const TARGETS: (() => WriteTarget)[] = [() => customerCreateTarget(), () => customerRestCreateTarget(), () => claimFileTarget(), () => invoiceCreateTarget()];

/** A fresh organization with the reference data the target's body refers to. */
async function newOrganization(target: WriteTarget) {
  const org = await createTestOrganization(t.db);
  await target.setup?.(t.db, org.id);
  return org;
}

function expectRefusal(target: WriteTarget, res: SentWrite, status: number, code: string) {
  expect(res.statusCode, res.body).toBe(status);
  const problem = target.problem(res.json());
  expect(problem.code).toBe(code);
  return problem;
}

describe.each(TARGETS.map((make) => [make().name, make] as const))('idempotency of %s', (_name, makeTarget) => {
  it('with an API key, a write without Idempotency-Key is 422 idempotency_key_required and writes nothing', async () => {
    const target = makeTarget();
    const org = await newOrganization(target);
    const res = await sendWrite(t.app, target, { token: org.owner.apiKey });
    const problem = expectRefusal(target, res, 422, 'idempotency_key_required');
    expect(problem.errors).toEqual([{ pointer: '/headers/idempotency-key', detail: expect.any(String) }]);
    expect(await target.countRecords(t.db, org.id)).toBe(0);

    const blank = await sendWrite(t.app, target, { token: org.owner.apiKey, key: '""' });
    expectRefusal(target, blank, 422, 'idempotency_key_required');
  });

  it('a key longer than 255 characters is 422; 255 characters are accepted', async () => {
    const target = makeTarget();
    const org = await newOrganization(target);
    const tooLong = await sendWrite(t.app, target, { token: org.owner.apiKey, key: 'k'.repeat(256) });
    const problem = expectRefusal(target, tooLong, 422, 'idempotency_key_required');
    expect(problem.errors?.[0]?.pointer).toBe('/headers/idempotency-key');
    // Quoting does not count: the key is the string's content.
    const quoted = await sendWrite(t.app, target, { token: org.owner.apiKey, key: `"${'q'.repeat(255)}"` });
    expect(quoted.statusCode, quoted.body).toBe(201);
    expect(await target.countRecords(t.db, org.id)).toBe(1);
  });

  it('a retry replays status, body, ETag and Location with Idempotent-Replayed: true, and writes once', async () => {
    const target = makeTarget();
    const org = await newOrganization(target);
    const first = await sendWrite(t.app, target, { token: org.owner.apiKey, key: 'order-42' });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const record = target.record(first.json());
    expect(first.headers.etag).toBe('"1"');
    expect(first.headers.location).toBe(target.locationOf(record));

    for (let i = 0; i < 2; i++) {
      const again = await sendWrite(t.app, target, { token: org.owner.apiKey, key: 'order-42' });
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toBe(first.body);
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(again.headers.location).toBe(first.headers.location);
    }
    expect(await target.countRecords(t.db, org.id)).toBe(1);
    expect(await countIdempotencyKeys(t.db, org.id)).toBe(1);
  });

  it('a bare key and the same key as an RFC 8941 string are one key', async () => {
    const target = makeTarget();
    const org = await newOrganization(target);
    const bare = await sendWrite(t.app, target, { token: org.owner.apiKey, key: 'a"b\\c' });
    expect(bare.statusCode, bare.body).toBe(201);
    const quoted = await sendWrite(t.app, target, { token: org.owner.apiKey, key: '"a\\"b\\\\c"' });
    expect(quoted.statusCode).toBe(201);
    expect(quoted.headers['idempotent-replayed']).toBe('true');
    expect(quoted.body).toBe(bare.body);
  });

  it('the same key over a different request is 409 idempotency_key_reused and writes nothing', async () => {
    const target = makeTarget();
    const org = await newOrganization(target);
    expect((await sendWrite(t.app, target, { token: org.owner.apiKey, key: 'k1', body: target.body('a') })).statusCode).toBe(201);
    const reused = await sendWrite(t.app, target, { token: org.owner.apiKey, key: 'k1', body: target.body('b') });
    expectRefusal(target, reused, 409, 'idempotency_key_reused');
    expect(await target.countRecords(t.db, org.id, 'b')).toBe(0);
    expect(await target.countRecords(t.db, org.id)).toBe(1);
  });

  it('the fingerprint ignores key order and whitespace of the body (canonical JSON)', async () => {
    const target = makeTarget();
    const org = await newOrganization(target);
    const body = target.body('a');
    const first = await sendWrite(t.app, target, { token: org.owner.apiKey, key: 'k-order', body });
    expect(first.statusCode).toBe(201);
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const again = await sendWrite(t.app, target, { token: org.owner.apiKey, key: 'k-order', body: reordered });
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('keys are scoped to the API key: the same key from another API key is a separate request', async () => {
    const target = makeTarget();
    const org = await newOrganization(target);
    const colleague = await createTestMember(t.db, org.id, { role: 'accountant' });
    const mine = await sendWrite(t.app, target, { token: org.owner.apiKey, key: 'shared', body: target.body('a') });
    const theirs = await sendWrite(t.app, target, { token: colleague.apiKey, key: 'shared', body: target.body('b') });
    expect(mine.statusCode).toBe(201);
    expect(theirs.statusCode, theirs.body).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(target.record(theirs.json()).id).not.toBe(target.record(mine.json()).id);
    expect(await target.countRecords(t.db, org.id)).toBe(2);
  });

  it('the same key and body from an API key of another organization is a separate request there', async () => {
    const target = makeTarget();
    const org = await newOrganization(target);
    const mine = await sendWrite(t.app, target, { token: org.owner.apiKey, key: 'shared-across', body: target.body('a') });
    expect(mine.statusCode, mine.body).toBe(201);

    const other = await newOrganization(target);
    const theirs = await sendWrite(t.app, target, { token: other.owner.apiKey, key: 'shared-across', body: target.body('a') });
    expect(theirs.statusCode, theirs.body).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(target.record(theirs.json()).id).not.toBe(target.record(mine.json()).id);
    expect(await target.countRecords(t.db, org.id)).toBe(1);
    expect(await target.countRecords(t.db, other.id)).toBe(1);
    expect(await countIdempotencyKeys(t.db, org.id)).toBe(1);
    expect(await countIdempotencyKeys(t.db, other.id)).toBe(1);
  });

  it('a key is kept 24 hours: replayed just before, new again after', async () => {
    const target = makeTarget();
    const org = await newOrganization(target);
    const start = new Date();
    t.setNow(start);
    try {
      const first = await sendWrite(t.app, target, { token: org.owner.apiKey, key: 'daily', body: target.body('a') });
      expect(first.statusCode).toBe(201);

      t.setNow(new Date(start.getTime() + IDEMPOTENCY_RETENTION_MS - 1000));
      const before = await sendWrite(t.app, target, { token: org.owner.apiKey, key: 'daily', body: target.body('a') });
      expect(before.headers['idempotent-replayed']).toBe('true');
      expectRefusal(target, await sendWrite(t.app, target, { token: org.owner.apiKey, key: 'daily', body: target.body('b') }), 409, 'idempotency_key_reused');

      t.setNow(new Date(start.getTime() + IDEMPOTENCY_RETENTION_MS + 1000));
      // After 24 hours the key is new: a different request under it runs and is stored.
      const after = await sendWrite(t.app, target, { token: org.owner.apiKey, key: 'daily', body: target.body('b') });
      expect(after.statusCode, after.body).toBe(201);
      expect(after.headers['idempotent-replayed']).toBeUndefined();
      const replay = await sendWrite(t.app, target, { token: org.owner.apiKey, key: 'daily', body: target.body('b') });
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toBe(after.body);
      expect(await target.countRecords(t.db, org.id)).toBe(2);
    } finally {
      t.setNow(undefined);
    }
  });

  it('a write that fails after its insert leaves neither record nor key; the retry succeeds once', async () => {
    const target = makeTarget();
    const org = await newOrganization(target);
    let inserted = -1;
    t.deps.faults = {
      beforeCommit: async ({ db }) => {
        // The record is written in this transaction when the fault strikes.
        inserted = await target.countRecords(db, org.id);
        throw new Error('injected fault before commit');
      },
    };
    let failed: SentWrite;
    try {
      failed = await sendWrite(t.app, target, { token: org.owner.apiKey, key: 'crash-1' });
    } finally {
      t.deps.faults = undefined;
    }
    expect(inserted).toBe(1);
    expectRefusal(target, failed, 500, 'internal');
    expect(await target.countRecords(t.db, org.id)).toBe(0);
    expect(await countIdempotencyKeys(t.db, org.id)).toBe(0);

    const retry = await sendWrite(t.app, target, { token: org.owner.apiKey, key: 'crash-1' });
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    const again = await sendWrite(t.app, target, { token: org.owner.apiKey, key: 'crash-1' });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await target.countRecords(t.db, org.id)).toBe(1);
    expect(await countIdempotencyKeys(t.db, org.id)).toBe(1);
  });

  it('a refused request stores nothing: the corrected request may use the same key', async () => {
    const target = makeTarget();
    const org = await newOrganization(target);
    const bad = await sendWrite(t.app, target, { token: org.owner.apiKey, key: 'fix-me', body: { ...target.body('a'), unknown_field: 1 } });
    expect(bad.statusCode).toBe(400);
    expect(await countIdempotencyKeys(t.db, org.id)).toBe(0);
    const good = await sendWrite(t.app, target, { token: org.owner.apiKey, key: 'fix-me', body: target.body('a') });
    expect(good.statusCode, good.body).toBe(201);
    expect(good.headers['idempotent-replayed']).toBeUndefined();
  });

  it('with a session the key is optional, and honoured when sent, scoped to the member', async () => {
    const target = makeTarget();
    const org = await newOrganization(target);
    const noKey = await sendWrite(t.app, target, { token: org.owner.session, body: target.body('a') });
    expect(noKey.statusCode, noKey.body).toBe(201);

    const keyed = await sendWrite(t.app, target, { token: org.owner.session, key: 's-1', body: target.body('b') });
    expect(keyed.statusCode).toBe(201);
    // Another session of the same person shares the key.
    const { createSession } = await import('../../src/services/access/admin');
    const second = await createSession(t.db, { organizationId: org.id, memberId: org.owner.id, now: new Date() });
    const replay = await sendWrite(t.app, target, { token: second.token, key: 's-1', body: target.body('b') });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(keyed.body);
    // The person's API key is another scope.
    const viaKey = await sendWrite(t.app, target, { token: org.owner.apiKey, key: 's-1', body: target.body('c') });
    expect(viaKey.statusCode).toBe(201);
    expect(viaKey.headers['idempotent-replayed']).toBeUndefined();

    expectRefusal(target, await sendWrite(t.app, target, { token: org.owner.session, key: 'x'.repeat(256), body: target.body('d') }), 422, 'idempotency_key_required');
    expect(await target.countRecords(t.db, org.id)).toBe(3);
  });
});

describe('idempotency for in-process callers (createCaller)', () => {
  it('needs a key with an API key, and replays the same answer across transports', async () => {
    const target = customerCreateTarget();
    const org = await createTestOrganization(t.db);
    const input = target.body('a') as { code: string; legal_name: string };

    const keyless = createInProcessClient(t.deps, { token: org.owner.apiKey });
    const err = await keyless.receivables.customers.create(input).catch((e) => e);
    expect(err.appCode).toBe('idempotency_key_required');

    const viaTrpc = await sendWrite(t.app, target, { token: org.owner.apiKey, key: 'both-ways', body: input });
    expect(viaTrpc.statusCode).toBe(201);
    const caller = createInProcessClient(t.deps, { token: org.owner.apiKey, idempotencyKey: 'both-ways' });
    const replayed = await caller.receivables.customers.create(input);
    expect(replayed).toEqual(target.record(viaTrpc.json()));

    const other = await caller.receivables.customers.create({ ...input, legal_name: 'Another' }).catch((e) => e);
    expect(other.appCode).toBe('idempotency_key_reused');
    expect(await target.countRecords(t.db, org.id)).toBe(1);
  });
});

describe('expired keys are purged', () => {
  it('purgeExpiredIdempotencyKeys deletes keys whose 24 hours are over and keeps the others', async () => {
    const target = customerCreateTarget();
    const org = await createTestOrganization(t.db);
    // Keys first used long ago (so a purge at a past "now" touches no other test's keys).
    const past = new Date('2001-02-03T04:05:06Z');
    t.setNow(past);
    try {
      for (const v of ['a', 'b']) {
        expect((await sendWrite(t.app, target, { token: org.owner.apiKey, key: `old-${v}`, body: target.body(v) })).statusCode).toBe(201);
      }
      t.setNow(new Date(past.getTime() + IDEMPOTENCY_RETENTION_MS / 2));
      expect((await sendWrite(t.app, target, { token: org.owner.apiKey, key: 'young', body: target.body('c') })).statusCode).toBe(201);
    } finally {
      t.setNow(undefined);
    }
    const purged = await purgeExpiredIdempotencyKeys(t.db, new Date(past.getTime() + IDEMPOTENCY_RETENTION_MS + 1000));
    expect(purged).toBeGreaterThanOrEqual(2);
    const left = await queryRows<{ key: string }>(t.db, sql`select key from idempotency_keys where organization_id = ${org.id} order by key`);
    expect(left.map((r) => r.key)).toEqual(['young']);
  });
});

/** Files (uploaded documents) of an organization. */
async function countFiles(organizationId: string) {
  const [row] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from files where organization_id = ${organizationId}`);
  return Number(row?.n ?? 0);
}

describe('idempotency of POST /v1/documents (multipart upload)', () => {
  const pdf = (text: string) => Buffer.from(`%PDF-1.4\n% ${text}\n%%EOF\n`);

  function upload(token: string, file: { filename?: string; content: Buffer }, key?: string) {
    const { payload, contentType } = multipartBody({ filename: file.filename ?? 'receipt.pdf', contentType: 'application/pdf', content: file.content });
    return t.app.inject({
      method: 'POST',
      url: '/v1/documents',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType, ...(key !== undefined ? { 'idempotency-key': key } : {}) },
      payload,
    });
  }

  it('a retry replays status and body with Idempotent-Replayed: true, and stores the file once', async () => {
    const org = await createTestOrganization(t.db);
    const first = await upload(org.owner.apiKey, { content: pdf('one') }, 'up-1');
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    for (let i = 0; i < 2; i++) {
      const again = await upload(org.owner.apiKey, { content: pdf('one') }, 'up-1');
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.headers['content-type']).toMatch(/^application\/json/);
      expect(again.body).toBe(first.body);
    }
    expect(await countFiles(org.id)).toBe(1);
    expect(await countIdempotencyKeys(t.db, org.id)).toBe(1);
  });

  it('the same key over another file, or the same bytes under another name, is 409 idempotency_key_reused and stores nothing', async () => {
    const org = await createTestOrganization(t.db);
    expect((await upload(org.owner.apiKey, { content: pdf('one') }, 'up-2')).statusCode).toBe(201);
    const otherFile = expectProblem(await upload(org.owner.apiKey, { content: pdf('two') }, 'up-2'), 409, 'idempotency_key_reused');
    expect(otherFile.instance).toBe('/v1/documents');
    expectProblem(await upload(org.owner.apiKey, { filename: 'renamed.pdf', content: pdf('one') }, 'up-2'), 409, 'idempotency_key_reused');
    expect(await countFiles(org.id)).toBe(1);
    expect(await countIdempotencyKeys(t.db, org.id)).toBe(1);
  });

  it('with an API key, an upload without Idempotency-Key (or with one over 255 characters) is 422 idempotency_key_required and stores nothing', async () => {
    const org = await createTestOrganization(t.db);
    const missing = expectProblem(await upload(org.owner.apiKey, { content: pdf('one') }), 422, 'idempotency_key_required');
    expect(missing.errors).toEqual([{ pointer: '/headers/idempotency-key', detail: expect.any(String) }]);
    expectProblem(await upload(org.owner.apiKey, { content: pdf('one') }, ''), 422, 'idempotency_key_required');
    const tooLong = expectProblem(await upload(org.owner.apiKey, { content: pdf('one') }, 'k'.repeat(256)), 422, 'idempotency_key_required');
    expect(tooLong.errors?.[0]?.pointer).toBe('/headers/idempotency-key');
    expect(await countFiles(org.id)).toBe(0);
    expect(await countIdempotencyKeys(t.db, org.id)).toBe(0);
  });

  it('with a session the key is optional, and honoured when sent', async () => {
    const org = await createTestOrganization(t.db);
    expect((await upload(org.owner.session, { content: pdf('one') })).statusCode).toBe(201);
    const keyed = await upload(org.owner.session, { content: pdf('two') }, 'up-s');
    expect(keyed.statusCode).toBe(201);
    const replay = await upload(org.owner.session, { content: pdf('two') }, 'up-s');
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(keyed.body);
    expect(await countFiles(org.id)).toBe(2);
  });

  it('an upload that fails before commit leaves neither file nor key; the retry succeeds once', async () => {
    const org = await createTestOrganization(t.db);
    let stored = -1;
    t.deps.faults = {
      beforeCommit: async ({ db }) => {
        const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from files where organization_id = ${org.id}`);
        stored = Number(row?.n ?? 0);
        throw new Error('injected fault before commit');
      },
    };
    let failed;
    try {
      failed = await upload(org.owner.apiKey, { content: pdf('crash') }, 'up-crash');
    } finally {
      t.deps.faults = undefined;
    }
    expect(stored).toBe(1);
    // A 500 carries no detail (nothing internal leaks), so not expectProblem.
    expect(failed.statusCode).toBe(500);
    expect(failed.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(failed.json().code).toBe('internal');
    expect(await countFiles(org.id)).toBe(0);
    expect(await countIdempotencyKeys(t.db, org.id)).toBe(0);
    const retry = await upload(org.owner.apiKey, { content: pdf('crash') }, 'up-crash');
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await countFiles(org.id)).toBe(1);
  });

  it.skipIf(!onPostgres)('20 identical keyed uploads at once store one file; the others replay or are 409 idempotency_in_progress', async () => {
    const org = await createTestOrganization(t.db);
    const answers = await Promise.all(Array.from({ length: 20 }, () => upload(org.owner.apiKey, { content: pdf('burst') }, 'up-burst')));
    const originals = answers.filter((a) => a.statusCode === 201 && a.headers['idempotent-replayed'] === undefined);
    expect(originals).toHaveLength(1);
    for (const a of answers) {
      if (a === originals[0]) continue;
      if (a.statusCode === 201) {
        expect(a.headers['idempotent-replayed']).toBe('true');
        expect(a.body).toBe(originals[0]!.body);
      } else {
        expectProblem(a, 409, 'idempotency_in_progress');
        expect(Number(a.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      }
    }
    expect(await countFiles(org.id)).toBe(1);
    expect(await countIdempotencyKeys(t.db, org.id)).toBe(1);
  });

  it('a key is one request across operations: an upload key reused for a claim is 409 idempotency_key_reused', async () => {
    const org = await createTestOrganization(t.db);
    expect((await upload(org.owner.apiKey, { content: pdf('one') }, 'one-key')).statusCode).toBe(201);
    const claim = claimFileTarget();
    const reused = await sendWrite(t.app, claim, { token: org.owner.apiKey, key: 'one-key' });
    expectRefusal(claim, reused, 409, 'idempotency_key_reused');
    expect(await claim.countRecords(t.db, org.id)).toBe(0);
  });
});

describe('idempotency of POST /v1/receivables/invoices/{id}/attachments', () => {
  const { post } = httpHelpers(t);

  async function draftWithUploads() {
    const target = invoiceCreateTarget();
    const org = await newOrganization(target);
    const created = await post('/v1/receivables/invoices', target.body('a'), org.owner.apiKey);
    expect(created.statusCode, created.body).toBe(201);
    const second = await post('/v1/receivables/invoices', target.body('b'), org.owner.apiKey);
    expect(second.statusCode, second.body).toBe(201);
    const docs = await Promise.all(['a.pdf', 'b.pdf', 'c.pdf'].map((name) => uploadTestDocument(t.db, org.id, org.owner.id, name)));
    return { org, invoice: created.json(), other: second.json(), docs };
  }

  const attach = (token: string, invoiceId: string, ids: string[], key?: string) =>
    post(`/v1/receivables/invoices/${invoiceId}/attachments`, { attachment_ids: ids }, token, { 'idempotency-key': key ?? '' });

  async function attachmentsOf(organizationId: string, recordId: string) {
    const rows = await queryRows<{ file_id: string }>(
      t.db,
      sql`select file_id from file_attachments where organization_id = ${organizationId} and record_id = ${recordId} order by ordinal`,
    );
    return rows.map((r) => r.file_id);
  }

  it('a retry replays status, body and ETag with Idempotent-Replayed: true, and attaches once, even after a later change', async () => {
    const w = await draftWithUploads();
    const [a, b] = w.docs;
    const first = await attach(w.org.owner.apiKey, w.invoice.id, [a!.id], 'att-1');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers.etag).toBe('"2"');
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    const again = await attach(w.org.owner.apiKey, w.invoice.id, [a!.id], 'att-1');
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers.etag).toBe('"2"');
    expect(again.body).toBe(first.body);

    // A later attachment under another key moves the document on; the first key still replays its own answer.
    const later = await attach(w.org.owner.apiKey, w.invoice.id, [b!.id], 'att-2');
    expect(later.statusCode, later.body).toBe(200);
    expect(later.headers.etag).toBe('"3"');
    const old = await attach(w.org.owner.apiKey, w.invoice.id, [a!.id], 'att-1');
    expect(old.headers['idempotent-replayed']).toBe('true');
    expect(old.headers.etag).toBe('"2"');
    expect(old.body).toBe(first.body);

    expect(await attachmentsOf(w.org.id, w.invoice.id)).toEqual([a!.id, b!.id]);
    const [row] = await queryRows<{ revision: number }>(t.db, sql`select revision from receivable_documents where organization_id = ${w.org.id} and id = ${w.invoice.id}`);
    expect(row?.revision).toBe(3);
  });

  it('the same key over other documents, or over another invoice (the path is part of the request), is 409 idempotency_key_reused and attaches nothing', async () => {
    const w = await draftWithUploads();
    const [a, b, c] = w.docs;
    expect((await attach(w.org.owner.apiKey, w.invoice.id, [a!.id], 'att-r')).statusCode).toBe(200);
    const otherDocs = expectProblem(await attach(w.org.owner.apiKey, w.invoice.id, [b!.id], 'att-r'), 409, 'idempotency_key_reused');
    expect(otherDocs.instance).toBe(`/v1/receivables/invoices/${w.invoice.id}/attachments`);
    expectProblem(await attach(w.org.owner.apiKey, w.other.id, [a!.id], 'att-r'), 409, 'idempotency_key_reused');
    expectProblem(await attach(w.org.owner.apiKey, w.other.id, [c!.id], 'att-r'), 409, 'idempotency_key_reused');
    expect(await attachmentsOf(w.org.id, w.invoice.id)).toEqual([a!.id]);
    expect(await attachmentsOf(w.org.id, w.other.id)).toEqual([]);
  });

  it('with an API key, no Idempotency-Key is 422 idempotency_key_required and attaches nothing', async () => {
    const w = await draftWithUploads();
    const p = expectProblem(await attach(w.org.owner.apiKey, w.invoice.id, [w.docs[0]!.id]), 422, 'idempotency_key_required');
    expect(p.errors).toEqual([{ pointer: '/headers/idempotency-key', detail: expect.any(String) }]);
    expect(await attachmentsOf(w.org.id, w.invoice.id)).toEqual([]);
  });

  it('the key identifies the request across transports: a /trpc retry of a /v1 attachment replays it', async () => {
    const w = await draftWithUploads();
    const [a] = w.docs;
    const rest = await attach(w.org.owner.apiKey, w.invoice.id, [a!.id], 'att-x');
    expect(rest.statusCode, rest.body).toBe(200);
    const rpc = await post('/trpc/receivables.invoices.addAttachments', { attachment_ids: [a!.id], id: w.invoice.id }, w.org.owner.apiKey, {
      'idempotency-key': 'att-x',
    });
    expect(rpc.statusCode, rpc.body).toBe(200);
    expect(rpc.headers['idempotent-replayed']).toBe('true');
    expect(rpc.json().result.data).toEqual(rest.json());
    expect(await attachmentsOf(w.org.id, w.invoice.id)).toEqual([a!.id]);
  });
});
