/**
 * GET /v1/documents/{id} (metadata) and GET /v1/documents/{id}/content (the bytes), docs/design.md
 * §12: readable by the uploader and by whoever may read the record a document is bound to; anyone
 * else, another organization, an unknown id: 404 alike.
 */
import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createInProcessClient } from '../../src/client';
import { contentDisposition } from '../../src/routers/documents/content-route';
import { addClaimLine, createClaimReferenceData } from '../factories/claims';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { createInvoiceWorld } from '../factories/receivables';
import { useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';
import { multipartBody, SAMPLE_PDF, SAMPLE_PNG } from '../helpers/multipart';
import { expectProblem } from '../helpers/problem';

const t = useTestApp();
const { post, get } = httpHelpers(t);

function upload(token: string, file: { filename: string; contentType: string; content: Buffer }) {
  const { payload, contentType } = multipartBody(file);
  return t.app.inject({ method: 'POST', url: '/v1/documents', headers: { authorization: `Bearer ${token}`, 'content-type': contentType, 'idempotency-key': randomUUID() }, payload });
}

async function uploaded(token: string, file = { filename: 'scan.pdf', contentType: 'application/pdf', content: SAMPLE_PDF }) {
  const res = await upload(token, file);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; filename: string; content_type: string; size: number; sha256: string; created_at: string };
}

const meta = (id: string, token?: string) => get(`/v1/documents/${id}`, token);
const content = (id: string, token?: string) => get(`/v1/documents/${id}/content`, token);

describe('GET /v1/documents/{id} and /content', () => {
  it('the uploader reads the metadata (as the upload answered it) and the exact bytes with their headers', async () => {
    const org = await createTestOrganization(t.db);
    const doc = await uploaded(org.owner.apiKey, { filename: 'photo.png', contentType: 'image/png', content: SAMPLE_PNG });
    const m = await meta(doc.id, org.owner.apiKey);
    expect(m.statusCode, m.body).toBe(200);
    expect(m.json()).toEqual(doc);
    expect(m.json()).toMatchObject({ filename: 'photo.png', content_type: 'image/png', size: SAMPLE_PNG.length, sha256: createHash('sha256').update(SAMPLE_PNG).digest('hex') });

    const c = await content(doc.id, org.owner.apiKey);
    expect(c.statusCode).toBe(200);
    expect(c.rawPayload.equals(SAMPLE_PNG)).toBe(true);
    expect(c.headers['content-type']).toBe('image/png');
    expect(c.headers['content-length']).toBe(String(SAMPLE_PNG.length));
    expect(c.headers['content-disposition']).toBe(`attachment; filename="photo.png"; filename*=UTF-8''photo.png`);
    expect(c.headers['x-content-type-options']).toBe('nosniff');
    expect(c.headers['x-request-id']).toBeDefined();
    expect(c.headers['ratelimit-limit']).toBeDefined();
    // A session reads them too.
    expect((await content(doc.id, org.owner.session)).rawPayload.equals(SAMPLE_PNG)).toBe(true);
    // And the tRPC procedure answers the same metadata.
    expect(await createInProcessClient(t.deps, { token: org.owner.session }).documents.get({ id: doc.id })).toEqual(doc);
  });

  it('a filename outside ASCII is encoded as RFC 6266 and 5987 say', async () => {
    const org = await createTestOrganization(t.db);
    const doc = await uploaded(org.owner.apiKey, { filename: 'résumé 100%.pdf', contentType: 'application/pdf', content: SAMPLE_PDF });
    const c = await content(doc.id, org.owner.apiKey);
    expect(c.headers['content-disposition']).toBe(`attachment; filename="r_sum_ 100_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20100%25.pdf`);
    expect(contentDisposition('a "quoted" \\ name.pdf')).toBe(`attachment; filename="a _quoted_ _ name.pdf"; filename*=UTF-8''a%20%22quoted%22%20%5C%20name.pdf`);
    expect(contentDisposition("it's (1)*.pdf")).toBe(`attachment; filename="it's (1)*.pdf"; filename*=UTF-8''it%27s%20%281%29%2A.pdf`);
    expect(contentDisposition('收据.pdf')).toBe(`attachment; filename="__.pdf"; filename*=UTF-8''%E6%94%B6%E6%8D%AE.pdf`);
  });

  it('another member reads a document bound to an invoice with receivables.invoice.read; without it, 404', async () => {
    const w = await createInvoiceWorld(t.db);
    const doc = await uploaded(w.org.owner.apiKey);
    const inv = await post('/v1/receivables/invoices', w.body({ attachment_ids: [doc.id] }), w.org.owner.apiKey);
    expect(inv.statusCode, inv.body).toBe(201);
    const viewer = await createTestMember(t.db, w.org.id, { role: 'viewer' });
    const employee = await createTestMember(t.db, w.org.id, { role: 'employee' });
    expect((await meta(doc.id, viewer.apiKey)).json()).toEqual(doc);
    expect((await content(doc.id, viewer.session)).rawPayload.equals(SAMPLE_PDF)).toBe(true);
    expectProblem(await meta(doc.id, employee.apiKey), 404, 'not_found');
    expectProblem(await content(doc.id, employee.apiKey), 404, 'not_found');
  });

  it('an unbound document is the uploader\'s alone, even for the owner', async () => {
    const org = await createTestOrganization(t.db);
    const clerk = await createTestMember(t.db, org.id, { role: 'clerk' });
    const doc = await uploaded(clerk.apiKey);
    expect((await meta(doc.id, clerk.apiKey)).statusCode).toBe(200);
    expectProblem(await meta(doc.id, org.owner.apiKey), 404, 'not_found');
    expectProblem(await content(doc.id, org.owner.apiKey), 404, 'not_found');
  });

  it('a document bound to a claim line: readable by whoever may read the claim', async () => {
    const org = await createTestOrganization(t.db);
    const employee = await createTestMember(t.db, org.id, { role: 'employee' });
    const colleague = await createTestMember(t.db, org.id, { role: 'employee' });
    const accountant = await createTestMember(t.db, org.id, { role: 'accountant' });
    const viewer = await createTestMember(t.db, org.id, { role: 'viewer' });
    const ref = await createClaimReferenceData(t.db, org.id);
    const filed = await createInProcessClient(t.deps, { token: employee.apiKey, idempotencyKey: randomUUID() }).expenses.claims.create({ title: 'Taxi' });
    const doc = await uploaded(employee.apiKey);
    await addClaimLine(t.db, {
      organizationId: org.id,
      claimId: filed.claim.id,
      now: new Date(),
      type: 'receipt',
      expenseDate: '2026-04-08',
      categoryId: ref.travel.id,
      description: 'Taxi to the client',
      amount: '25.00',
      supplierName: 'Teksi',
      documentBasis: 'foreign_supplier',
      supplierCountry: 'SG',
      documentIds: [doc.id],
    });
    expect((await meta(doc.id, employee.apiKey)).statusCode).toBe(200);
    // The accountant approves and pays claims: reads every claim, and so the document.
    expect((await meta(doc.id, accountant.apiKey)).json()).toEqual(doc);
    expect((await content(doc.id, accountant.apiKey)).rawPayload.equals(SAMPLE_PDF)).toBe(true);
    expectProblem(await meta(doc.id, colleague.apiKey), 404, 'not_found');
    // Reading invoices is no licence to read a claim's documents.
    expectProblem(await content(doc.id, viewer.apiKey), 404, 'not_found');
  });

  it("another organization's document is 404, as an unknown one; a malformed id is 400; no credentials 401", async () => {
    const org = await createTestOrganization(t.db);
    const other = await createTestOrganization(t.db);
    const doc = await uploaded(org.owner.apiKey);
    expectProblem(await meta(doc.id, other.owner.apiKey), 404, 'not_found');
    expectProblem(await content(doc.id, other.owner.apiKey), 404, 'not_found');
    expectProblem(await meta(randomUUID(), org.owner.apiKey), 404, 'not_found');
    expectProblem(await content(randomUUID(), org.owner.apiKey), 404, 'not_found');
    expectProblem(await meta('not-a-uuid', org.owner.apiKey), 400, 'invalid_request');
    const bad = expectProblem(await content('not-a-uuid', org.owner.apiKey), 400, 'invalid_request');
    expect(bad.errors).toEqual([{ pointer: '/path/id', detail: 'must be a UUID' }]);
    expectProblem(await meta(doc.id), 401);
    expectProblem(await content(doc.id), 401);
    expectProblem(await content(doc.id, 'fk_not_a_real_key'), 401);
  });

  it('the OpenAPI document describes both operations', async () => {
    const doc = (await get('/v1/openapi.json')).json();
    const m = doc.paths['/documents/{id}'].get;
    expect(m.security).toEqual([{ bearer: [] }]);
    expect(Object.keys(m.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '404']));
    expect(m.responses['200'].headers.ETag).toBeUndefined();
    const c = doc.paths['/documents/{id}/content'].get;
    expect(c.security).toEqual([{ bearer: [] }]);
    expect(Object.keys(c.responses['200'].content)).toContain('application/pdf');
    expect(Object.keys(c.responses['200'].headers)).toEqual(expect.arrayContaining(['Content-Disposition', 'Content-Length', 'X-Content-Type-Options']));
    expect(Object.keys(c.responses).sort()).toEqual(['200', '400', '401', '404', '429', '500', '503']);
  });
});
