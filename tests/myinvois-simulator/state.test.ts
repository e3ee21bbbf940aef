/**
 * MyInvois simulator: `PUT /api/v1.0/documents/state/{uuid}/state`: cancel by the issuer and reject
 * (a request) by the receiver, within 72 hours of validation, with LHDN's error codes for each refusal.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BUYER, creditNote, inv, minimalInvoice, OTHER, setup } from './helpers';

let sim: ReturnType<typeof setup>;
afterEach(async () => sim.app.close());

const HOUR = 3600_000;

describe('cancel and reject', () => {
  it('lets the issuer cancel a Valid document; the receiver sees it Cancelled', async () => {
    sim = setup();
    const issuer = await sim.token();
    const { uuid } = await sim.submitAndValidate(issuer, minimalInvoice());
    sim.control.advance(71 * HOUR);
    // Tokens last one hour: the ERP logs in again.
    const later = await sim.token();
    const res = await sim.setState(later, uuid, 'cancelled', 'Wrong invoice details');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ uuid, status: 'Cancelled' });
    const buyer = await sim.token(BUYER);
    const seen = (await sim.get(buyer, `/api/v1.0/documents/${uuid}/details`)).json();
    expect(seen).toMatchObject({ status: 'Cancelled', documentStatusReason: 'Wrong invoice details', cancelDateTime: '2026-08-06T01:20:00Z' });
    const twice = await sim.setState(later, uuid, 'cancelled');
    expect(twice.statusCode).toBe(400);
    expect(twice.json().error.code).toBe('IncorrectState');
  });

  it('refuses cancelling after 72 hours (OperationPeriodOver), by the receiver (403 Forbidden), an Invalid document (IncorrectState)', async () => {
    sim = setup();
    const issuer = await sim.token();
    const buyer = await sim.token(BUYER);
    const { uuid } = await sim.submitAndValidate(issuer, minimalInvoice());
    const byBuyer = await sim.setState(buyer, uuid, 'cancelled');
    expect(byBuyer.statusCode).toBe(403);
    expect(byBuyer.json().error.code).toBe('Forbidden');
    const bad = minimalInvoice('BAD');
    inv(bad).LegalMonetaryTotal[0].PayableAmount[0]._ = 1;
    const invalid = await sim.submitAndValidate(issuer, bad);
    expect((await sim.setState(issuer, invalid.uuid, 'cancelled')).json().error.code).toBe('IncorrectState');
    sim.control.advance(72 * HOUR + 1_000);
    const late = await sim.setState(await sim.token(), uuid, 'cancelled');
    expect(late.statusCode).toBe(400);
    expect(late.json().error.code).toBe('OperationPeriodOver');
  });

  it('refuses cancelling an invoice a Valid credit note refers to (ActiveReferencingDocuments)', async () => {
    sim = setup();
    const issuer = await sim.token();
    const { uuid } = await sim.submitAndValidate(issuer, minimalInvoice());
    const note = await sim.submitAndValidate(issuer, creditNote({ uuid, id: 'INV-2026-0001' }));
    expect(note.details.status).toBe('Valid');
    const res = await sim.setState(issuer, uuid, 'cancelled');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('ActiveReferencingDocuments');
    expect((await sim.setState(issuer, note.uuid, 'cancelled')).statusCode).toBe(200);
    expect((await sim.setState(issuer, uuid, 'cancelled')).statusCode).toBe(200);
  });

  it('lets the receiver request a rejection once: the document stays Valid and shows it', async () => {
    sim = setup();
    const { uuid } = await sim.submitAndValidate(await sim.token(), minimalInvoice());
    sim.control.advance(HOUR);
    const issuer = await sim.token();
    const buyer = await sim.token(BUYER);
    const res = await sim.setState(buyer, uuid, 'rejected', 'Wrong buyer details');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ uuid, status: 'Requested for Rejection' });
    const seen = (await sim.get(issuer, `/api/v1.0/documents/${uuid}/details`)).json();
    expect(seen).toMatchObject({ status: 'Valid', rejectRequestDateTime: '2026-08-03T03:20:00Z', documentStatusReason: 'Wrong buyer details' });
    const again = await sim.setState(buyer, uuid, 'rejected');
    expect(again.json().error.code).toBe('IncorrectState');
    expect((await sim.setState(issuer, uuid, 'rejected')).json().error.code).toBe('Forbidden');
    expect((await sim.setState(issuer, uuid, 'cancelled')).json()).toEqual({ uuid, status: 'Cancelled' });
  });

  it('refuses a rejection after 72 hours, and by a third party', async () => {
    sim = setup();
    const issuer = await sim.token();
    const { uuid } = await sim.submitAndValidate(issuer, minimalInvoice());
    expect((await sim.setState(await sim.token(OTHER), uuid, 'rejected')).statusCode).toBe(404);
    sim.control.advance(72 * HOUR + 1_000);
    const late = await sim.setState(await sim.token(BUYER), uuid, 'rejected');
    expect(late.statusCode).toBe(400);
    expect(late.json().error.code).toBe('OperationPeriodOver');
  });

  it('lets the buyer, not the supplier, cancel a self-billed invoice the buyer issued', async () => {
    sim = setup();
    const doc = minimalInvoice('SB-1');
    inv(doc).InvoiceTypeCode[0]._ = '11';
    const buyer = await sim.token(BUYER);
    const { uuid, details } = await sim.submitAndValidate(buyer, doc);
    expect(details).toMatchObject({ status: 'Valid', issuerTin: BUYER.tin, receiverId: 'C1234567890', typeName: 'Self-billed Invoice' });
    const supplier = await sim.token();
    expect((await sim.get(supplier, `/api/v1.0/documents/${uuid}/raw`)).statusCode).toBe(200);
    expect((await sim.setState(supplier, uuid, 'cancelled')).statusCode).toBe(403);
    expect((await sim.setState(buyer, uuid, 'cancelled')).json()).toEqual({ uuid, status: 'Cancelled' });
  });

  it('refuses a wrong status or a blank or too long reason with 400 BadArgument', async () => {
    sim = setup();
    const issuer = await sim.token();
    const { uuid } = await sim.submitAndValidate(issuer, minimalInvoice());
    for (const [status, reason, target] of [['void', 'x', 'status'], ['cancelled', ' ', 'reason'], ['cancelled', 'x'.repeat(301), 'reason']] as const) {
      const res = await sim.setState(issuer, uuid, status, reason);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'BadArgument', target });
    }
  });
});
