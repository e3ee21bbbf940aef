/**
 * MyInvois client against the simulator: submit, get submission, raw and details before and after
 * validation; search by internal id; cancel within 72 hours and OperationPeriodOver after; the buyer's
 * rejection request; TIN validation; LHDN's refusals as non-transient MyInvoisErrors with its code.
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { MyInvoisError } from '../../src/integrations/myinvois/client';
import { BUYER, inv, minimalInvoice, startSimulator, SUPPLIER, toSubmit } from './helpers';

let sim: Awaited<ReturnType<typeof startSimulator>>;
afterEach(async () => sim.close());

const HOUR = 3600_000;
const failure = (promise: Promise<unknown>) => promise.then(() => { throw new Error('expected a MyInvoisError'); }, (e: unknown) => {
  expect(e).toBeInstanceOf(MyInvoisError);
  return e as MyInvoisError;
});

describe('MyInvois client documents', () => {
  it('submits, reads the submission in progress, and after validation Valid with its longId, raw and details', async () => {
    sim = await startSimulator();
    const client = sim.client();
    const docs = [toSubmit(minimalInvoice('INV-1')), toSubmit(minimalInvoice('INV-2'))];
    const answer = await client.submitDocuments(docs);
    expect(answer.submissionUid).toMatch(/^[0-9A-Z]{26}$/);
    expect(answer.acceptedDocuments.map((d) => d.invoiceCodeNumber)).toEqual(['INV-1', 'INV-2']);
    expect(answer.rejectedDocuments).toEqual([]);
    const [first] = answer.acceptedDocuments;

    const pending = await client.getSubmission(answer.submissionUid!);
    expect(pending).toMatchObject({ submissionUid: answer.submissionUid, documentCount: 2, overallStatus: 'InProgress' });
    expect(pending.documentSummary.map((d) => d.status)).toEqual(['Submitted', 'Submitted']);

    sim.control.validatePending();
    const settled = await client.getSubmission(answer.submissionUid!);
    expect(settled.overallStatus).toBe('Valid');
    const summary = settled.documentSummary.find((d) => d.uuid === first!.uuid)!;
    expect(summary).toMatchObject({ internalId: 'INV-1', status: 'Valid', issuerTin: SUPPLIER.tin, receiverId: BUYER.tin, totalPayableAmount: 216 });
    expect(summary.longId).toBeTruthy();
    expect(summary.dateTimeValidated).toBe('2026-08-03T02:20:00Z');

    const details = await client.getDocumentDetails(first!.uuid);
    expect(details).toMatchObject({ uuid: first!.uuid, status: 'Valid', longId: summary.longId });
    expect(details.validationResults?.status).toBe('Valid');
    const raw = await client.getDocumentRaw(first!.uuid);
    expect(raw.document).toBe(docs[0]!.bytes.toString('utf8'));
  });

  it("reports an Invalid document's validation steps, and raw of it is a 404", async () => {
    sim = await startSimulator();
    const client = sim.client();
    const bad = minimalInvoice('BAD');
    inv(bad).LegalMonetaryTotal[0].PayableAmount[0]._ = 1;
    const answer = await client.submitDocuments([toSubmit(bad)]);
    sim.control.validatePending();
    const uuid = answer.acceptedDocuments[0]!.uuid;
    expect((await client.getSubmission(answer.submissionUid!)).overallStatus).toBe('Invalid');
    const details = await client.getDocumentDetails(uuid);
    const failed = details.validationResults!.validationSteps.filter((s) => s.status === 'Invalid');
    expect(failed.map((s) => s.name)).toContain('Step02-Core Fields Validator');
    expect(failed[0]!.error?.innerError?.[0]?.errorCode).toBe('CF411');
    const error = await failure(client.getDocumentRaw(uuid));
    expect(error).toMatchObject({ status: 404, code: 'NotFound', transient: false });
  });

  it("answers LHDN's refusals as non-transient errors with its code: a bad hash, too many documents, a duplicate", async () => {
    sim = await startSimulator();
    // The stored bytes changed after hashing: LHDN rejects the document (202, in rejectedDocuments).
    const tamper: typeof fetch = (input, init) => {
      if (typeof init?.body !== 'string' || !init.body.startsWith('{"documents"')) return fetch(input, init);
      const body = JSON.parse(init.body);
      body.documents[0].documentHash = createHash('sha256').update('something else').digest('hex');
      return fetch(input, { ...init, body: JSON.stringify(body) });
    };
    const tampered = await sim.client(SUPPLIER, { fetch: tamper }).submitDocuments([toSubmit(minimalInvoice('INV-HASH'))]);
    expect(tampered.submissionUid).toBeNull();
    expect(tampered.rejectedDocuments).toEqual([{ invoiceCodeNumber: 'INV-HASH', error: expect.objectContaining({ code: 'ValidationError', target: 'documentHash', message: 'Document hash is not valid.' }) }]);

    const client = sim.client();
    const many = Array.from({ length: 101 }, (_, i) => toSubmit(minimalInvoice(`INV-${i}`)));
    const tooMany = await failure(client.submitDocuments(many));
    expect(tooMany).toMatchObject({ status: 400, code: 'MaximumSizeExceeded', transient: false, retryAfterSeconds: null });
    expect(tooMany.details).toMatchObject({ code: 'MaximumSizeExceeded', target: 'documents' });

    const once = [toSubmit(minimalInvoice('INV-ONCE'))];
    await client.submitDocuments(once);
    sim.control.advance(60_000);
    const duplicate = await failure(client.submitDocuments(once));
    expect(duplicate).toMatchObject({ status: 422, code: 'DuplicateSubmission', transient: false, retryAfterSeconds: 540 });
    expect(duplicate.message).toMatch(/422 DuplicateSubmission/);
  });

  it('cancels within 72 hours of validation; after, LHDN refuses with OperationPeriodOver', async () => {
    sim = await startSimulator();
    const client = sim.client();
    const answer = await client.submitDocuments([toSubmit(minimalInvoice('INV-A')), toSubmit(minimalInvoice('INV-B'))]);
    sim.control.validatePending();
    const [a, b] = answer.acceptedDocuments.map((d) => d.uuid);
    sim.control.advance(71 * HOUR);
    expect(await client.cancelDocument(a!, 'Wrong invoice details')).toEqual({ uuid: a, status: 'Cancelled' });
    expect((await client.getDocumentDetails(a!)).status).toBe('Cancelled');
    sim.control.advance(2 * HOUR);
    const late = await failure(client.cancelDocument(b!, 'Wrong invoice details'));
    expect(late).toMatchObject({ status: 400, code: 'OperationPeriodOver', transient: false });
    expect(late.details).toMatchObject({ code: 'OperationPeriodOver', target: b });
  });

  it("lets the buyer request a rejection; the issuer sees the reason on the Valid document", async () => {
    sim = await startSimulator();
    const answer = await sim.client().submitDocuments([toSubmit(minimalInvoice('INV-R'))]);
    sim.control.validatePending();
    const uuid = answer.acceptedDocuments[0]!.uuid;
    expect(await sim.client(BUYER).rejectDocument(uuid, 'Wrong buyer details')).toEqual({ uuid, status: 'Requested for Rejection' });
    const seen = await sim.client().getDocumentDetails(uuid);
    expect(seen).toMatchObject({ status: 'Valid', documentStatusReason: 'Wrong buyer details', rejectRequestDateTime: '2026-08-03T02:20:00Z' });
    const again = await failure(sim.client(BUYER).rejectDocument(uuid, 'Twice'));
    expect(again).toMatchObject({ status: 400, code: 'IncorrectState' });
  });

  it('finds a submitted document by its internal id through every page of a search', async () => {
    sim = await startSimulator();
    const client = sim.client();
    const answer = await client.submitDocuments(['INV-S1', 'INV-S2', 'INV-S3', 'OTHER-1'].map((id) => toSubmit(minimalInvoice(id))));
    const window = { submissionDateFrom: new Date(Date.parse('2026-08-03T00:00:00Z')), submissionDateTo: sim.control.now(), invoiceDirection: 'Sent' as const };
    const found = await client.searchDocuments({ ...window, searchQuery: 'INV-S2' });
    expect(found.map((d) => [d.internalId, d.uuid, d.submissionUid, d.status])).toEqual([['INV-S2', answer.acceptedDocuments[1]!.uuid, answer.submissionUid, 'Submitted']]);
    const paged = await client.searchDocuments({ ...window, searchQuery: 'inv-s', pageSize: 2 });
    expect(paged.map((d) => d.internalId).sort()).toEqual(['INV-S1', 'INV-S2', 'INV-S3']);
    expect(sim.control.requestCount('search')).toBe(3);
    const wide = await failure(client.searchDocuments({ submissionDateFrom: '2026-06-01T00:00:00Z', submissionDateTo: '2026-08-03T00:00:00Z' }));
    expect(wide).toMatchObject({ status: 400, code: 'BadArgument', transient: false });
    // The receiver finds nothing until LHDN validates it.
    expect(await sim.client(BUYER).searchDocuments({ ...window, invoiceDirection: 'Received', searchQuery: 'INV-S2' })).toEqual([]);
  });

  it('validates a TIN with its ID: true, false for a wrong combination, an error for a bad argument', async () => {
    sim = await startSimulator();
    const client = sim.client();
    expect(await client.validateTin(BUYER.tin, 'BRN', '201901234567')).toBe(true);
    expect(await client.validateTin(BUYER.tin, 'BRN', '000000000000')).toBe(false);
    expect(await client.validateTin('C0000000000', 'BRN', '201901234567')).toBe(false);
    const bad = await failure(client.validateTin(BUYER.tin, 'SSM' as 'BRN', '1'));
    expect(bad).toMatchObject({ status: 400, code: 'BadArgument', transient: false });
  });
});
