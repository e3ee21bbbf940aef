/**
 * MyInvois simulator: `POST /api/v1.0/documentsubmissions`: the envelope, the limits (100 documents,
 * 5 MB, 300 KB), the hash check, the issuer TIN against the token's, the 202 answer and the identical
 * payload refused for 10 minutes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BUYER, envelopeEntry, inv, minimalInvoice, setup, SUPPLIER } from './helpers';

let sim: ReturnType<typeof setup>;
afterEach(async () => sim.app.close());

describe('POST /api/v1.0/documentsubmissions', () => {
  it('answers 202 with a 26-character submission UID and document UUID; the document starts Submitted', async () => {
    sim = setup();
    const bearer = await sim.token();
    const res = await sim.submit(bearer, minimalInvoice());
    expect(res.statusCode).toBe(202);
    const body = res.json();
    expect(body.submissionUid).toMatch(/^[0-9A-Z]{26}$/);
    expect(body.acceptedDocuments).toEqual([{ uuid: expect.stringMatching(/^[0-9A-Z]{26}$/), invoiceCodeNumber: 'INV-2026-0001' }]);
    expect(body.rejectedDocuments).toEqual([]);
    const sub = await sim.get(bearer, `/api/v1.0/documentsubmissions/${body.submissionUid}`);
    expect(sub.json().overallStatus).toBe('InProgress');
    expect(sub.json().documentSummary[0].status).toBe('Submitted');
    expect(sim.control.submissionCount('INV-2026-0001')).toBe(1);
  });

  it('rejects a document whose hash is not the hex SHA-256 of its bytes', async () => {
    sim = setup();
    const bearer = await sim.token();
    const entry = envelopeEntry(minimalInvoice());
    const res = await sim.submitRaw(bearer, { documents: [{ ...entry, documentHash: Buffer.from(entry.documentHash, 'hex').toString('base64') }] });
    expect(res.statusCode).toBe(202);
    expect(res.json().submissionUid).toBeNull();
    expect(res.json().rejectedDocuments).toEqual([{
      invoiceCodeNumber: 'INV-2026-0001',
      error: { code: 'ValidationError', message: 'Document hash is not valid.', target: 'documentHash', details: [{ code: 'documentHash', message: 'Document hash is not valid.', target: 'documentHash' }] },
    }]);
  });

  it("rejects a document whose issuer TIN is not the token's taxpayer", async () => {
    sim = setup();
    const bearer = await sim.token(BUYER);
    const res = await sim.submit(bearer, minimalInvoice());
    expect(res.json().rejectedDocuments[0].error.details[0].message).toBe('The authenticated TIN and documents TIN is not matching');
    expect(res.json().acceptedDocuments).toEqual([]);
  });

  it("accepts an intermediary's submission for the taxpayer it logged in for", async () => {
    sim = setup();
    sim.control.registerClient({ clientId: 'agent', clientSecret: 'agent-secret', tin: 'C1111111110', onBehalfOf: [SUPPLIER.tin] });
    const bearer = await sim.token({ clientId: 'agent', clientSecret: 'agent-secret' }, { onbehalfof: SUPPLIER.tin });
    const res = await sim.submit(bearer, minimalInvoice());
    expect(res.json().acceptedDocuments).toHaveLength(1);
    const own = await sim.token({ clientId: 'agent', clientSecret: 'agent-secret' });
    expect((await sim.submit(own, minimalInvoice('INV-OWN'))).json().rejectedDocuments).toHaveLength(1);
  });

  it('rejects a document that is not base64 or not JSON, and accepts the others of the submission', async () => {
    sim = setup();
    const bearer = await sim.token();
    const notBase64 = { ...envelopeEntry(minimalInvoice('A')), document: '***' };
    const notJson = envelopeEntry('{"Invoice": [', 'B');
    const res = await sim.submitRaw(bearer, { documents: [notBase64, notJson, envelopeEntry(minimalInvoice('C'))] });
    const body = res.json();
    expect(body.acceptedDocuments.map((d: any) => d.invoiceCodeNumber)).toEqual(['C']);
    expect(body.rejectedDocuments.map((d: any) => [d.invoiceCodeNumber, d.error.message])).toEqual([
      ['A', 'Invalid structured submission: document is not base64'],
      ['B', 'JSON is not valid'],
    ]);
  });

  it('refuses a wrong envelope with 400 BadStructure', async () => {
    sim = setup();
    const bearer = await sim.token();
    for (const body of [{}, { documents: [] }, { documents: [envelopeEntry(minimalInvoice())], extra: 1 }, { documents: [{ format: 'JSON' }] }]) {
      const res = await sim.submitRaw(bearer, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('BadStructure');
    }
  });

  it('refuses more than 100 documents and more than 5 MB with 400 MaximumSizeExceeded; rejects a document over 300 KB', async () => {
    sim = setup();
    const bearer = await sim.token();
    const many = Array.from({ length: 101 }, (_, i) => envelopeEntry(minimalInvoice(`INV-${i}`)));
    const tooMany = await sim.submitRaw(bearer, { documents: many });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.code).toBe('MaximumSizeExceeded');
    expect((await sim.submitRaw(bearer, { documents: many.slice(0, 100) })).statusCode).toBe(202);

    const big = minimalInvoice('BIG');
    inv(big).Note = [{ _: 'x'.repeat(300 * 1024) }];
    const oneBig = await sim.submit(bearer, big);
    expect(oneBig.statusCode).toBe(202);
    expect(oneBig.json().rejectedDocuments[0].error.code).toBe('MaximumSizeExceeded');

    const bigDocs = Array.from({ length: 20 }, (_, i) => {
      const doc = minimalInvoice(`B${i}`);
      inv(doc).Note = [{ _: 'y'.repeat(280 * 1024) }];
      return doc;
    });
    const huge = await sim.submit(bearer, ...bigDocs);
    expect(huge.statusCode).toBe(400);
    expect(huge.json().error.code).toBe('MaximumSizeExceeded');
  });

  it('refuses an identical payload within 10 minutes with 422 and Retry-After, and accepts it after', async () => {
    sim = setup();
    const bearer = await sim.token();
    const body = { documents: [envelopeEntry(minimalInvoice())] };
    expect((await sim.submitRaw(bearer, body)).statusCode).toBe(202);
    sim.control.advance(4 * 60_000);
    const again = await sim.submitRaw(bearer, body);
    expect(again.statusCode).toBe(422);
    expect(again.json().error.code).toBe('DuplicateSubmission');
    expect(again.headers['retry-after']).toBe('360');
    sim.control.advance(6 * 60_000);
    expect((await sim.submitRaw(bearer, body)).statusCode).toBe(202);
    expect(sim.control.submissionCount('INV-2026-0001')).toBe(3);
  });
});
