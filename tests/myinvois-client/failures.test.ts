/**
 * MyInvois client, failures the job layer retries: 429 with Retry-After (seconds or an HTTP date),
 * 500, no answer within the time limit, a refused connection: each a transient MyInvoisError, sent
 * once (the client has no retry loop). And LHDN's error shapes read from a body.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MyInvoisClient, MyInvoisError } from '../../src/integrations/myinvois/client';
import { parseRetryAfter, readLhdnError } from '../../src/integrations/myinvois/client-errors';
import { BUYER, LOOPBACK_ALLOWED, minimalInvoice, startSimulator, SUPPLIER, toSubmit } from './helpers';

let sim: Awaited<ReturnType<typeof startSimulator>> | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const failure = (promise: Promise<unknown>) => promise.then(() => { throw new Error('expected a MyInvoisError'); }, (e: unknown) => {
  expect(e).toBeInstanceOf(MyInvoisError);
  return e as MyInvoisError;
});

describe('MyInvois client failures', () => {
  it("answers LHDN's 429 as transient with Retry-After in seconds, after one request", async () => {
    sim = await startSimulator({ rateLimits: { details: 1 } });
    const client = sim.client();
    const answer = await client.submitDocuments([toSubmit(minimalInvoice('INV-1'))]);
    const uuid = answer.acceptedDocuments[0]!.uuid;
    await client.getDocumentDetails(uuid);
    sim.control.advance(15_000);
    const throttled = await failure(client.getDocumentDetails(uuid));
    expect(throttled).toMatchObject({ status: 429, code: 'TooManyRequests', transient: true, retryAfterSeconds: 45, operation: `GET /api/v1.0/documents/${uuid}/details` });
    expect(sim.control.requestCount('details')).toBe(2);
  });

  it('answers a 500 as transient with LHDN code', async () => {
    sim = await startSimulator();
    const client = sim.client();
    const answer = await client.submitDocuments([toSubmit(minimalInvoice('INV-1'))]);
    sim.control.fail('error', ['submission']);
    const failed = await failure(client.getSubmission(answer.submissionUid!));
    expect(failed).toMatchObject({ status: 500, code: 'InternalServerError', transient: true, retryAfterSeconds: null });
    expect(sim.control.requestCount('submission')).toBe(1);
    sim.control.recover();
    expect((await client.getSubmission(answer.submissionUid!)).documentCount).toBe(1);
  });

  it('gives up on a request that does not answer within timeoutMs: transient, no status', async () => {
    sim = await startSimulator();
    const client = sim.client(SUPPLIER, { timeoutMs: 200 });
    await client.validateTin(BUYER.tin, 'BRN', '201901234567');
    sim.control.fail('hang', ['submit']);
    const started = Date.now();
    const hung = await failure(client.submitDocuments([toSubmit(minimalInvoice('INV-1'))]));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(hung).toMatchObject({ status: null, code: null, transient: true, operation: 'POST /api/v1.0/documentsubmissions' });
    expect(hung.message).toMatch(/did not answer within 200 ms/);
    expect(sim.control.requestCount('submit')).toBe(1);
  });

  it('answers a refused connection as transient', async () => {
    const client = new MyInvoisClient({ tenant: 'org-a', apiBaseUrl: 'http://127.0.0.1:9', clientId: 'x', clientSecret: 'y', timeoutMs: 2_000, outbound: LOOPBACK_ALLOWED });
    const error = await failure(client.validateTin('C1', 'BRN', '1'));
    expect(error).toMatchObject({ status: null, transient: true, operation: 'POST /connect/token' });
    expect(error.message).toMatch(/could not be reached/);
  });

  it('reads an HTTP-date Retry-After and a 503 from a gateway without LHDN body', async () => {
    const now = new Date('2026-08-03T02:20:00Z');
    const gateway: typeof fetch = async (input) => {
      if (String(input).endsWith('/connect/token')) return Response.json({ access_token: 't', token_type: 'Bearer', expires_in: 3600 });
      return new Response('<html>Service Unavailable</html>', { status: 503, headers: { 'retry-after': 'Mon, 03 Aug 2026 02:22:00 GMT' } });
    };
    const client = new MyInvoisClient({ tenant: 'org-a', apiBaseUrl: 'https://lhdn.example', clientId: 'x', clientSecret: 'y', fetch: gateway, now: () => now });
    const error = await failure(client.getDocumentDetails('ABC'));
    // The gateway's own page is not LHDN's error: neither kept nor shown.
    expect(error).toMatchObject({ status: 503, code: null, transient: true, retryAfterSeconds: 120, details: null });
    expect(error.message).not.toContain('html');
  });
});

describe('reading LHDN errors', () => {
  it('reads the API shape, the validation shape, OAuth and problem details', () => {
    const api = { error: { code: 'BadStructure', message: null, target: 'documents', details: [{ code: 'BadStructure', message: 'Invalid structured submission', target: 'documents' }] } };
    expect(readLhdnError(api)).toEqual({ code: 'BadStructure', message: 'Invalid structured submission', details: api.error });
    const validation = { propertyName: 'ID', propertyPath: 'Invoice.ID', errorCode: 'CF301', error: 'Invoice number is mandatory', errorMS: 'MS', innerError: null };
    expect(readLhdnError(validation)).toEqual({ code: 'CF301', message: 'Invoice number is mandatory', details: validation });
    const nested = { error: { ...validation, errorCode: 'DS302', error: null, innerError: [{ ...validation, error: 'Duplicate' }] } };
    expect(readLhdnError(nested)).toMatchObject({ code: 'DS302', message: 'Duplicate' });
    const oauth = { error: 'invalid_client', error_description: 'The client id or secret is not valid' };
    expect(readLhdnError(oauth)).toEqual({ code: 'invalid_client', message: 'The client id or secret is not valid', details: oauth });
    expect(readLhdnError({ title: 'One or more validation errors occurred.', status: 400, errors: { pageSize: ['bad'] } })).toMatchObject({ code: null, message: 'One or more validation errors occurred.' });
    expect(readLhdnError(null)).toEqual({ code: null, message: null, details: null });
  });

  it('reads Retry-After as seconds or an HTTP date, never negative', () => {
    const now = new Date('2026-08-03T02:20:00Z');
    expect(parseRetryAfter('30', now)).toBe(30);
    expect(parseRetryAfter('Mon, 03 Aug 2026 02:20:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('Mon, 03 Aug 2026 02:19:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});
