import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { insertAttachments, insertFile } from '../../src/db/queries/files';
import { files } from '../../src/db/schema';
import { sha256Hex } from '../../src/lib/crypto';
import { purgeUnboundFiles } from '../../src/jobs/purges';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { onPostgres, useTestApp } from '../helpers/app';
import { multipartBody, SAMPLE_PDF, SAMPLE_PNG } from '../helpers/multipart';
import { expectProblem } from '../helpers/problem';

/**
 * Costly actions bounded per member (issue 25): PDF renders and uploads per minute, whatever the
 * credential; the organization's storage quota, reserved atomically before a file is stored; and
 * uploaded files never bound to a record collected after a day.
 */
const PER_MINUTE = 2;
// Room for two SAMPLE_PDFs, not three.
const QUOTA = SAMPLE_PDF.length * 2 + 10;
const t = useTestApp({
  RATE_LIMIT_PDF_RENDERS_PER_MINUTE: String(PER_MINUTE),
  RATE_LIMIT_UPLOADS_PER_MINUTE: String(PER_MINUTE),
  DOCUMENT_STORAGE_QUOTA_BYTES: String(QUOTA),
});

function upload(token: string, content: Buffer = SAMPLE_PDF, contentType = 'application/pdf') {
  const { payload, contentType: ct } = multipartBody({ filename: 'scan', contentType, content });
  return t.app.inject({ method: 'POST', url: '/v1/documents', headers: { authorization: `Bearer ${token}`, 'content-type': ct, 'idempotency-key': randomUUID() }, payload });
}

describe('per-member limits on costly actions', () => {
  it(`uploads: ${PER_MINUTE} a minute per member, with a key or a session alike; the next is 429 with Retry-After; another member is unaffected`, async () => {
    const org = await createTestOrganization(t.db);
    const clerk = await createTestMember(t.db, org.id, { role: 'clerk' });
    expect((await upload(clerk.apiKey, SAMPLE_PNG, 'image/png')).statusCode).toBe(201);
    expect((await upload(clerk.session, SAMPLE_PNG, 'image/png')).statusCode).toBe(201);
    const over = await upload(clerk.apiKey, SAMPLE_PNG, 'image/png');
    const problem = expectProblem(over, 429, 'rate_limited');
    expect(problem.detail).toMatch(/uploads a minute/);
    const retryAfter = Number(over.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await upload(org.owner.apiKey, SAMPLE_PNG, 'image/png')).statusCode).toBe(201);
  });

  it(`PDF renders: ${PER_MINUTE} a minute per member; the next is 429 with Retry-After before anything is rendered`, async () => {
    const org = await createTestOrganization(t.db);
    const pdf = (token: string) => t.app.inject({ method: 'GET', url: `/v1/receivables/invoices/${randomUUID()}/pdf`, headers: { authorization: `Bearer ${token}` } });
    for (let i = 0; i < PER_MINUTE; i++) expectProblem(await pdf(org.owner.session), 404, 'not_found');
    const over = await pdf(org.owner.apiKey);
    const problem = expectProblem(over, 429, 'rate_limited');
    expect(problem.detail).toMatch(/PDF renders a minute/);
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const other = await createTestMember(t.db, org.id, { role: 'accountant' });
    expectProblem(await pdf(other.apiKey), 404, 'not_found');
  });
});

describe('the storage quota per organization', () => {
  it('an upload past the quota is 413 storage_quota_exceeded with a clear detail; nothing is stored; another organization is unaffected', async () => {
    const org = await createTestOrganization(t.db);
    const second = await createTestMember(t.db, org.id, { role: 'clerk' });
    expect((await upload(org.owner.apiKey)).statusCode).toBe(201);
    expect((await upload(org.owner.apiKey)).statusCode).toBe(201);
    const over = await upload(second.apiKey);
    const problem = expectProblem(over, 413, 'storage_quota_exceeded');
    expect(problem.detail).toMatch(/storage quota/);
    expect(problem.errors).toEqual([{ pointer: '/file', detail: 'does not fit in the storage quota' }]);
    expect(await t.db.select({ id: files.id }).from(files).where(eq(files.organizationId, org.id))).toHaveLength(2);
    const other = await createTestOrganization(t.db);
    expect((await upload(other.owner.apiKey)).statusCode).toBe(201);
  });

  it.skipIf(!onPostgres)('10 uploads at once into room for 2: exactly 2 are stored, 8 refused with 413', async () => {
    const org = await createTestOrganization(t.db);
    const members = await Promise.all(Array.from({ length: 10 }, () => createTestMember(t.db, org.id, { role: 'clerk' })));
    const answers = await Promise.all(members.map((m) => upload(m.apiKey)));
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(2);
    expect(answers.filter((a) => a.statusCode === 413)).toHaveLength(8);
    expect(await t.db.select({ id: files.id }).from(files).where(eq(files.organizationId, org.id))).toHaveLength(2);
  });
});

describe('unbound files', () => {
  it('are deleted a day after their upload; a bound file, or a younger one, stays', async () => {
    const org = await createTestOrganization(t.db);
    const now = new Date();
    const file = async (hoursAgo: number) =>
      (await insertFile(t.db, {
        organizationId: org.id,
        filename: 'scan.png',
        contentType: 'image/png',
        size: SAMPLE_PNG.length,
        sha256: sha256Hex(SAMPLE_PNG),
        content: SAMPLE_PNG,
        uploadedBy: org.owner.id,
        createdAt: new Date(now.getTime() - hoursAgo * 3600_000),
      }))!.id;
    const old = await file(25);
    const bound = await file(48);
    const young = await file(23);
    await insertAttachments(t.db, [
      { organizationId: org.id, fileId: bound, recordType: 'receivable_document', recordId: randomUUID(), ordinal: 1, attachedBy: org.owner.id },
    ]);
    await purgeUnboundFiles({ db: t.db, now, job: { kind: 'purge-unbound-files' } } as never);
    const left = await t.db.select({ id: files.id }).from(files).where(and(eq(files.organizationId, org.id), inArray(files.id, [old, bound, young])));
    expect(left.map((r) => r.id).sort()).toEqual([bound, young].sort());
  });
});
