/**
 * MyInvois simulator: Get Submission (pagination, overallStatus, submitter only), Get Document raw
 * (never Invalid) and Get Document Details, under LHDN's visibility rules: the issuer reads every
 * status, the receiver only Valid or Cancelled documents, anybody else nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BUYER, inv, minimalInvoice, OTHER, setup } from './helpers';

let sim: ReturnType<typeof setup>;
afterEach(async () => sim.app.close());

describe('reads', () => {
  it('pages a submission and reports PartiallyValid once validated', async () => {
    sim = setup();
    const bearer = await sim.token();
    const bad = minimalInvoice('INV-3');
    inv(bad).LegalMonetaryTotal[0].PayableAmount[0]._ = 1;
    const res = await sim.submit(bearer, minimalInvoice('INV-1'), minimalInvoice('INV-2'), bad);
    const uid = res.json().submissionUid;
    sim.control.validatePending();
    const page1 = (await sim.get(bearer, `/api/v1.0/documentsubmissions/${uid}?pageNo=1&pageSize=2`)).json();
    expect(page1).toMatchObject({ submissionUid: uid, documentCount: 3, dateTimeReceived: '2026-08-03T02:20:00Z', overallStatus: 'PartiallyValid' });
    expect(page1.documentSummary.map((d: any) => [d.internalId, d.status])).toEqual([['INV-1', 'Valid'], ['INV-2', 'Valid']]);
    const page2 = (await sim.get(bearer, `/api/v1.0/documentsubmissions/${uid}?pageNo=2&pageSize=2`)).json();
    expect(page2.documentSummary.map((d: any) => [d.internalId, d.status, d.longId])).toEqual([['INV-3', 'Invalid', null]]);
    expect(page2.documentSummary[0]).toMatchObject({ issuerTin: 'C1234567890', receiverId: BUYER.tin, typeName: 'Invoice', typeVersionName: '1.0', dateTimeIssued: '2026-08-03T02:15:00Z' });
    const tooBig = await sim.get(bearer, `/api/v1.0/documentsubmissions/${uid}?pageSize=101`);
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().error).toMatchObject({ code: 'BadArgument', target: 'pageSize' });
    const buyer = await sim.token(BUYER);
    expect((await sim.get(buyer, `/api/v1.0/documentsubmissions/${uid}`)).statusCode).toBe(403);
    expect((await sim.get(bearer, '/api/v1.0/documentsubmissions/NOPE')).statusCode).toBe(404);
  });

  it('shows the receiver a document only once Valid; never a third party; raw never an Invalid one', async () => {
    sim = setup();
    const issuer = await sim.token();
    const buyer = await sim.token(BUYER);
    const other = await sim.token(OTHER);
    const bad = minimalInvoice('BAD');
    inv(bad).LegalMonetaryTotal[0].PayableAmount[0]._ = 1;
    const res = (await sim.submit(issuer, minimalInvoice('GOOD'), bad)).json();
    const [good, invalid] = res.acceptedDocuments.map((d: any) => d.uuid);
    expect((await sim.get(issuer, `/api/v1.0/documents/${good}/details`)).statusCode).toBe(200);
    expect((await sim.get(buyer, `/api/v1.0/documents/${good}/details`)).statusCode).toBe(404);
    sim.control.validatePending();
    const raw = await sim.get(buyer, `/api/v1.0/documents/${good}/raw`);
    expect(raw.statusCode).toBe(200);
    expect(JSON.parse(raw.json().document).Invoice[0].ID[0]._).toBe('GOOD');
    expect(raw.json().status).toBe('Valid');
    expect((await sim.get(buyer, `/api/v1.0/documents/${good}/details`)).json().validationResults.status).toBe('Valid');
    expect((await sim.get(other, `/api/v1.0/documents/${good}/details`)).statusCode).toBe(404);
    expect((await sim.get(other, `/api/v1.0/documents/${good}/raw`)).statusCode).toBe(404);
    expect((await sim.get(buyer, `/api/v1.0/documents/${invalid}/details`)).statusCode).toBe(404);
    expect((await sim.get(issuer, `/api/v1.0/documents/${invalid}/raw`)).statusCode).toBe(404);
    const details = (await sim.get(issuer, `/api/v1.0/documents/${invalid}/details`)).json();
    expect(details.status).toBe('Invalid');
    expect(details.longId).toBeNull();
    expect(details.dateTimeValidated).toBeNull();
    expect(sim.stepErrors(details, 'Core Fields Validator')[0].errorCode).toBe('CF411');
  });
});
