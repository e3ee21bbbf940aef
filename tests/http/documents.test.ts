import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createTestCustomer } from '../factories/customer';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { createReceivablesSetup, uploadTestDocument } from '../factories/receivables';
import { useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';
import { multipartBody, SAMPLE_PDF, SAMPLE_PNG } from '../helpers/multipart';
import { expectProblem } from '../helpers/problem';

const MAX = 64 * 1024;
const t = useTestApp({ DOCUMENT_MAX_BYTES: String(MAX) });
const { post, get } = httpHelpers(t);

function upload(token: string | undefined, file: { filename: string; contentType: string; content: Buffer; name?: string }) {
  const { payload, contentType } = multipartBody(file);
  return t.app.inject({ method: 'POST', url: '/v1/documents', headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': contentType, 'idempotency-key': randomUUID() }, payload });
}

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(16)]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x10, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(8)]);
const HEIC = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic'), Buffer.alloc(12)]);
const TIFF = Buffer.concat([Buffer.from([0x49, 0x49, 0x2a, 0x00]), Buffer.alloc(12)]);
const XML = Buffer.from('\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>');

describe('POST /v1/documents', () => {
  it('stores a PDF and answers 201 with id, filename, content_type, size, sha256, created_at', async () => {
    const org = await createTestOrganization(t.db);
    const res = await upload(org.owner.apiKey, { filename: 'invoice-scan.pdf', contentType: 'application/pdf', content: SAMPLE_PDF });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({
      id: expect.any(String),
      filename: 'invoice-scan.pdf',
      content_type: 'application/pdf',
      size: SAMPLE_PDF.length,
      sha256: createHash('sha256').update(SAMPLE_PDF).digest('hex'),
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
  });

  it.each([
    ['PNG', 'image/png', SAMPLE_PNG],
    ['JPEG', 'image/jpeg', JPEG],
    ['WebP', 'image/webp', WEBP],
    ['HEIC', 'image/heic', HEIC],
    ['TIFF', 'image/tiff', TIFF],
    ['XML', 'application/xml', XML],
  ] as const)('accepts %s, recognised by its content', async (_n, type, content) => {
    const org = await createTestOrganization(t.db);
    const res = await upload(org.owner.apiKey, { filename: 'f', contentType: 'application/octet-stream', content });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().content_type).toBe(type);
  });

  it('refuses another type (415), content that disagrees with the declared type (415), an empty file (422)', async () => {
    const org = await createTestOrganization(t.db);
    const exe = expectProblem(await upload(org.owner.apiKey, { filename: 'x.pdf', contentType: 'application/pdf', content: Buffer.from('MZ\x90\x00 not a pdf') }), 415, 'unsupported_media_type');
    expect(exe.errors).toEqual([{ pointer: '/file', detail: 'is not an accepted file type' }]);
    const lie = expectProblem(await upload(org.owner.apiKey, { filename: 'x.png', contentType: 'image/png', content: SAMPLE_PDF }), 415, 'unsupported_media_type');
    expect(lie.detail).toContain('image/png');
    expect(lie.detail).toContain('application/pdf');
    const empty = expectProblem(await upload(org.owner.apiKey, { filename: 'x.pdf', contentType: 'application/pdf', content: Buffer.alloc(0) }), 422, 'validation');
    expect(empty.errors).toEqual([{ pointer: '/file', detail: 'is empty' }]);
  });

  it('refuses a file over the configured limit with 413, and accepts one at the limit', async () => {
    const org = await createTestOrganization(t.db);
    const at = Buffer.concat([SAMPLE_PDF, Buffer.alloc(MAX - SAMPLE_PDF.length, 0x20)]);
    expect((await upload(org.owner.apiKey, { filename: 'big.pdf', contentType: 'application/pdf', content: at })).statusCode).toBe(201);
    const over = Buffer.concat([at, Buffer.from(' ')]);
    const p = expectProblem(await upload(org.owner.apiKey, { filename: 'big.pdf', contentType: 'application/pdf', content: over }), 413, 'payload_too_large');
    expect(p.detail).toContain(String(MAX));
  });

  it('defaults to 10 MiB', () => {
    expect(loadConfig({} as NodeJS.ProcessEnv).DOCUMENT_MAX_BYTES).toBe(10 * 1024 * 1024);
  });

  it('refuses JSON (415), a part not named file (400), no credentials (401), no documents.create (403)', async () => {
    const org = await createTestOrganization(t.db);
    expectProblem(await post('/v1/documents', { file: 'x' }, org.owner.apiKey), 415, 'unsupported_media_type');
    const wrong = expectProblem(await upload(org.owner.apiKey, { name: 'attachment', filename: 'x.pdf', contentType: 'application/pdf', content: SAMPLE_PDF }), 400, 'invalid_request');
    expect(wrong.errors).toEqual([{ pointer: '/file', detail: 'is required' }]);
    const anon = expectProblem(await upload(undefined, { filename: 'x.pdf', contentType: 'application/pdf', content: SAMPLE_PDF }), 401, 'unauthenticated');
    expect(anon.instance).toBe('/v1/documents');
    const viewer = await createTestMember(t.db, org.id, { role: 'viewer' });
    expectProblem(await upload(viewer.apiKey, { filename: 'x.pdf', contentType: 'application/pdf', content: SAMPLE_PDF }), 403, 'forbidden');
    const employee = await createTestMember(t.db, org.id, { role: 'employee' });
    expect((await upload(employee.apiKey, { filename: 'x.pdf', contentType: 'application/pdf', content: SAMPLE_PDF })).statusCode).toBe(201);
  });
});

describe('POST /v1/receivables/invoices/{id}/attachments', () => {
  async function draft() {
    const org = await createTestOrganization(t.db);
    const ref = await createReceivablesSetup(t.db, org.id);
    const customer = await createTestCustomer(t.db, org.id);
    const first = await uploadTestDocument(t.db, org.id, org.owner.id, 'first.pdf');
    const res = await post(
      '/v1/receivables/invoices',
      { kind: 'sales_invoice', customer_id: customer.id, attachment_ids: [first.id], lines: [{ account_id: ref.revenue.id, description: 'x', quantity: '1', unit_price: '10.00', tax_code_id: ref.sv8.id }] },
      org.owner.apiKey,
    );
    expect(res.statusCode, res.body).toBe(201);
    return { org, ref, customer, doc: res.json(), first };
  }

  it('attaches after the ones already there, oldest first, and moves the revision', async () => {
    const w = await draft();
    const uploaded = await upload(w.org.owner.apiKey, { filename: 'later.pdf', contentType: 'application/pdf', content: SAMPLE_PDF });
    const later = uploaded.json();
    const res = await post(`/v1/receivables/invoices/${w.doc.id}/attachments`, { attachment_ids: [later.id] }, w.org.owner.apiKey);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers.etag).toBe('"2"');
    expect(res.json().attachment_ids).toEqual([w.first.id, later.id]);
    expect(res.json().revision).toBe(2);
    // Sending one already attached here changes nothing.
    const again = await post(`/v1/receivables/invoices/${w.doc.id}/attachments`, { attachment_ids: [later.id] }, w.org.owner.apiKey);
    expect(again.json()).toMatchObject({ revision: 2, attachment_ids: [w.first.id, later.id] });
    // Readers see them.
    expect((await get(`/v1/receivables/invoices/${w.doc.id}`, w.org.owner.apiKey)).json().attachment_ids).toEqual([w.first.id, later.id]);
  });

  it('refuses a document bound elsewhere (409), not yours (422), unknown (422), an empty list (422), and rolls back', async () => {
    const w = await draft();
    const second = (
      await post(
        '/v1/receivables/invoices',
        { kind: 'sales_invoice', customer_id: w.customer.id, lines: [{ account_id: w.ref.revenue.id, description: 'y', quantity: '1', unit_price: '10.00', tax_code_id: w.ref.sv8.id }] },
        w.org.owner.apiKey,
      )
    ).json();
    const url = `/v1/receivables/invoices/${second.id}/attachments`;
    const fresh = await uploadTestDocument(t.db, w.org.id, w.org.owner.id, 'fresh.pdf');
    const p = expectProblem(await post(url, { attachment_ids: [fresh.id, w.first.id] }, w.org.owner.apiKey), 409, 'document_bound_elsewhere');
    expect(p.errors).toEqual([{ pointer: '/attachment_ids/1', detail: 'is attached to another record' }]);
    // Rolled back: the fresh one is not attached, the revision did not move.
    expect((await get(`/v1/receivables/invoices/${second.id}`, w.org.owner.apiKey)).json()).toMatchObject({ revision: 1, attachment_ids: [] });

    const clerk = await createTestMember(t.db, w.org.id, { role: 'clerk' });
    const theirs = await uploadTestDocument(t.db, w.org.id, clerk.id);
    const n = expectProblem(await post(url, { attachment_ids: [theirs.id] }, w.org.owner.apiKey), 422, 'document_not_yours');
    expect(n.errors).toEqual([{ pointer: '/attachment_ids/0', detail: 'was uploaded by someone else' }]);
    const u = expectProblem(await post(url, { attachment_ids: [randomUUID()] }, w.org.owner.apiKey), 422, 'document_unknown');
    expect(u.errors).toEqual([{ pointer: '/attachment_ids/0', detail: 'no such document' }]);
    const e = expectProblem(await post(url, { attachment_ids: [] }, w.org.owner.apiKey), 422, 'validation');
    expect(e.errors?.[0]?.pointer).toBe('/attachment_ids');
    const viewer = await createTestMember(t.db, w.org.id, { role: 'viewer' });
    expectProblem(await post(url, { attachment_ids: [fresh.id] }, viewer.apiKey), 403, 'forbidden');
    // And the file can still be attached once the refusal is gone.
    const ok = await post(url, { attachment_ids: [fresh.id] }, w.org.owner.apiKey);
    expect(ok.json()).toMatchObject({ revision: 2, attachment_ids: [fresh.id] });
  });
});
