/**
 * The simulator recomputes a version 1.1 document's signature with the service's own signature
 * module (issue 12): a document signed by src/integrations/myinvois/signature.ts with a test
 * certificate validates; one byte changed after signing is Invalid at the signature step, with
 * LHDN's document digest error. The certificate is generated here; no key is committed.
 */
import { describe, expect, it } from 'vitest';
import { credentialsFromPem, signDocument } from '../../src/integrations/myinvois/signature';
import { makeTestSigner } from '../myinvois-document/test-certificate';
import { inv, minimalInvoice, setup, SUPPLIER } from './helpers';

function signedInvoice(id: string) {
  const doc = minimalInvoice(id);
  inv(doc).InvoiceTypeCode = [{ _: '01', listVersionID: '1.1' }];
  const signer = makeTestSigner({ tin: SUPPLIER.tin, brn: '202001234567', name: 'Contoh Software Sdn. Bhd.' });
  return signDocument(doc, credentialsFromPem(signer.certificatePem, signer.privateKeyPem), { signingTime: new Date('2026-08-03T02:15:00Z') });
}

describe('signed (1.1) documents', () => {
  it('a document signed by the service validates: the simulator recomputes every digest', async () => {
    const sim = setup();
    const { details } = await sim.submitAndValidate(await sim.token(), signedInvoice('INV-SIGNED-1'));
    expect(details.status).toBe('Valid');
    expect(details.validationResults.validationSteps.find((s: any) => s.name.endsWith('Document Signature Validator')).status).toBe('Valid');
  });

  it('one byte changed after signing is Invalid at the signature step (DS322, the document digest)', async () => {
    const sim = setup();
    const doc: any = signedInvoice('INV-SIGNED-2');
    // The supplier's name gains one letter after the signature was computed.
    const party = inv(doc).AccountingSupplierParty[0].Party[0].PartyLegalEntity[0].RegistrationName[0];
    party._ = `${party._}x`;
    const { details } = await sim.submitAndValidate(await sim.token(), doc);
    expect(details.status).toBe('Invalid');
    const step = details.validationResults.validationSteps.find((s: any) => s.name.endsWith('Document Signature Validator'));
    expect(step.status).toBe('Invalid');
    expect(JSON.stringify(step.error)).toContain('DS322');
  });
});
