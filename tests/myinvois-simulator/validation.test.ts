/**
 * MyInvois simulator: asynchronous validation through LHDN's steps (structure, core fields, signature,
 * taxpayer, referenced documents, codes, duplicate within 2 hours, currency) and the arithmetic checks;
 * each with a document that fails it and the error it answers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { vError } from '../../src/integrations/myinvois/simulator/errors';
import { creditNote, inv, minimalInvoice, OTHER, setup, type Doc } from './helpers';

let sim: ReturnType<typeof setup>;
afterEach(async () => sim.app.close());

async function validate(doc: Doc) {
  const bearer = await sim.token();
  return (await sim.submitAndValidate(bearer, doc)).details;
}

function codesOf(details: any, step: string): string[] {
  return sim.stepErrors(details, step).map((e: any) => e.errorCode);
}

describe('validation', () => {
  it("validates the brief's minimal v1.0 invoice: Valid, with longId and dateTimeValidated", async () => {
    sim = setup();
    const details = await validate(minimalInvoice());
    expect(details.status).toBe('Valid');
    expect(details.longId).toMatch(/^[0-9A-Z]{40}$/);
    expect(details.dateTimeValidated).toBe('2026-08-03T02:20:00Z');
    expect(details.totalPayableAmount).toBe(216);
    expect(details.validationResults.validationSteps.map((s: any) => [s.name, s.status])).toEqual([
      ['Step01-Structure Validator', 'Valid'], ['Step02-Core Fields Validator', 'Valid'], ['Step08-Document Signature Validator', 'Valid'],
      ['Step04-Taxpayer Validator', 'Valid'], ['Step05-Referenced Documents Validator', 'Valid'], ['Step06-Code Validator', 'Valid'],
      ['Step03-Duplicated Submission Validator', 'Valid'], ['Step07-Currency Validator', 'Valid'],
    ]);
  });

  it('keeps a document Submitted until the clock moves', async () => {
    sim = setup();
    const bearer = await sim.token();
    const uuid = (await sim.submit(bearer, minimalInvoice())).json().acceptedDocuments[0].uuid;
    expect((await sim.get(bearer, `/api/v1.0/documents/${uuid}/details`)).json().status).toBe('Submitted');
    sim.control.advance(5_000);
    const details = (await sim.get(bearer, `/api/v1.0/documents/${uuid}/details`)).json();
    expect(details.status).toBe('Valid');
    expect(details.dateTimeValidated).toBe('2026-08-03T02:20:05Z');
  });

  it('structure: an element that is not an array makes it Invalid with Error01', async () => {
    sim = setup();
    const doc = minimalInvoice();
    inv(doc).DocumentCurrencyCode = 'MYR';
    const details = await validate(doc);
    expect(details.status).toBe('Invalid');
    const step = details.validationResults.validationSteps[0];
    expect(step).toMatchObject({ name: 'Step01-Structure Validator', status: 'Invalid', error: { errorCode: 'Error01', error: 'Structure Validator' } });
    expect(step.error.innerError[0]).toMatchObject({ errorCode: 'CV301', propertyPath: '$.Invoice[0].DocumentCurrencyCode' });
    expect(details.validationResults.validationSteps).toHaveLength(1);
  });

  it('core fields: a missing supplier name, a bad phone and an exemption without reason', async () => {
    sim = setup();
    const doc = minimalInvoice();
    const supplier = inv(doc).AccountingSupplierParty[0].Party[0];
    delete supplier.PartyLegalEntity;
    supplier.Contact[0].Telephone = [{ _: '012 345 6789' }];
    inv(doc).InvoiceLine[0].TaxTotal[0].TaxSubtotal[0].TaxCategory[0].ID = [{ _: 'E' }];
    const details = await validate(doc);
    expect(details.status).toBe('Invalid');
    const errors = sim.stepErrors(details, 'Core Fields Validator');
    expect(errors.map((e: any) => e.error)).toEqual(expect.arrayContaining([
      'Supplier name is mandatory',
      'Supplier telephone must be 8 to 20 characters, digits with an optional leading +',
      expect.stringMatching(/^Tax exemption reason is mandatory/),
    ]));
    expect(errors[0]).toHaveProperty('errorMS');
  });

  it('core fields: a telephone is 8 to 20 characters with or without its +', async () => {
    sim = setup();
    const phoneErrors = async (phone: string, id: string) => {
      const doc = minimalInvoice(id);
      inv(doc).AccountingCustomerParty[0].Party[0].Contact = [{ Telephone: [{ _: phone }] }];
      return codesOf(await validate(doc), 'Core Fields Validator');
    };
    expect(await phoneErrors('0355551234', 'P1')).toEqual([]);
    expect(await phoneErrors('+6035555', 'P2')).toEqual([]);
    expect(await phoneErrors('35555123', 'P3')).toEqual([]);
    expect(await phoneErrors('3555512', 'P4')).toEqual(['CF324']);
    expect(await phoneErrors('+' + '6'.repeat(19), 'P5')).toEqual([]);
    expect(await phoneErrors('6'.repeat(21), 'P6')).toEqual(['CF324']);
  });

  it('core fields: an identification written empty is missing (supplier BRN "", buyer SST "")', async () => {
    sim = setup();
    const doc = minimalInvoice();
    inv(doc).AccountingSupplierParty[0].Party[0].PartyIdentification[1] = { ID: [{ _: '', schemeID: 'BRN' }] };
    inv(doc).AccountingCustomerParty[0].Party[0].PartyIdentification[2] = { ID: [{ _: ' ', schemeID: 'SST' }] };
    const details = await validate(doc);
    expect(details.status).toBe('Invalid');
    expect(sim.stepErrors(details, 'Core Fields Validator').map((e: any) => [e.errorCode, e.error, e.propertyPath])).toEqual([
      ['CF321', 'Supplier BRN is mandatory', '$.Invoice[0].AccountingSupplierParty.Party.PartyIdentification.ID[BRN]'],
      ['CF321', 'Buyer SST number (NA when not registered) is mandatory', '$.Invoice[0].AccountingCustomerParty.Party.PartyIdentification.ID[SST]'],
    ]);
  });

  it('core fields: an issue date-time more than 72 hours old or in the future', async () => {
    sim = setup();
    const old = minimalInvoice('OLD');
    inv(old).IssueDate = [{ _: '2026-07-31' }];
    expect(codesOf(await validate(old), 'Core Fields Validator')).toEqual(['CF329']);
    const future = minimalInvoice('FUT');
    inv(future).IssueTime = [{ _: '02:25:00Z' }];
    expect(codesOf(await validate(future), 'Core Fields Validator')).toEqual(['CF328']);
  });

  it('core fields: classification 004 without the General Public buyer', async () => {
    sim = setup();
    const doc = minimalInvoice();
    inv(doc).InvoiceLine[0].Item[0].CommodityClassification[0].ItemClassificationCode[0]._ = '004';
    expect(codesOf(await validate(doc), 'Core Fields Validator')).toEqual(['CF330']);
  });

  it('arithmetic: line extension, tax inclusive and payable checked to the sen; payable never zero', async () => {
    sim = setup();
    const doc = minimalInvoice();
    const totals = inv(doc).LegalMonetaryTotal[0];
    totals.LineExtensionAmount[0]._ = 199.99;
    totals.TaxInclusiveAmount[0]._ = 216.01;
    const errors = sim.stepErrors(await validate(doc), 'Core Fields Validator');
    expect(errors.map((e: any) => e.error)).toEqual([
      'Total net amount (Σ line net amounts) must be 200.00 but is 199.99',
      'Total excluding tax (net − allowances + charges) must be 199.99 but is 200.00',
      'Total including tax (excluding tax + tax) must be 216.00 but is 216.01',
      'Payable amount (including tax − prepaid + rounding) must be 216.01 but is 216.00',
    ]);
    const untyped = minimalInvoice('TYPE');
    inv(untyped).TaxTotal[0].TaxSubtotal[0].TaxCategory[0].ID[0]._ = '01';
    expect(codesOf(await validate(untyped), 'Core Fields Validator')).toEqual(['CF413']);
    const exp = minimalInvoice('EXP');
    inv(exp).LegalMonetaryTotal[0].PayableAmount[0]._ = '2.16E2';
    expect(codesOf(await validate(exp), 'Core Fields Validator')).toEqual(['CF410']);
  });

  it('signature: a v1.1 document without its signature parts, and an injected verifier', async () => {
    sim = setup();
    const doc = minimalInvoice();
    inv(doc).InvoiceTypeCode[0].listVersionID = '1.1';
    const details = await validate(doc);
    const step = details.validationResults.validationSteps.find((s: any) => s.name === 'Step08-Document Signature Validator');
    expect(step.status).toBe('Invalid');
    expect(step.error.innerError[0].errorCode).toBe('DS300');
    await sim.app.close();

    sim = setup({ verifySignature: () => ({ error: vError('DS322', 'The document was changed after signing', 'document') }) });
    const other = minimalInvoice('SIGNED');
    inv(other).InvoiceTypeCode[0].listVersionID = '1.1';
    expect(codesOf(await validate(other), 'Document Signature Validator')).toEqual(['DS322']);
  });

  it('taxpayer: an unregistered buyer TIN and a BRN that is not the registered one', async () => {
    sim = setup();
    const doc = minimalInvoice();
    inv(doc).AccountingCustomerParty[0].Party[0].PartyIdentification[0].ID[0]._ = 'C0000000000';
    inv(doc).AccountingSupplierParty[0].Party[0].PartyIdentification[1].ID[0]._ = '209901234567';
    expect(codesOf(await validate(doc), 'Taxpayer Validator')).toEqual(['TP302', 'TP301']);
  });

  it('referenced documents: a credit note must name a Valid invoice by UUID and number', async () => {
    sim = setup();
    const original = await validate(minimalInvoice());
    const good = await validate(creditNote({ uuid: original.uuid, id: 'INV-2026-0001' }));
    expect(good.status).toBe('Valid');
    expect(codesOf(await validate(creditNote({ uuid: original.uuid, id: 'INV-WRONG' }, 'CN-2')), 'Referenced Documents Validator')).toEqual(['RD303']);
    expect(codesOf(await validate(creditNote({ uuid: 'ABCDEFGHJKMNPQRSTVWXYZ0123', id: 'INV-2026-0001' }, 'CN-3')), 'Referenced Documents Validator')).toEqual(['RD301']);
    const foreign = creditNote({ uuid: original.uuid, id: 'INV-2026-0001' }, 'CN-5');
    const ids = inv(foreign).AccountingSupplierParty[0].Party[0].PartyIdentification;
    ids[0].ID[0]._ = OTHER.tin;
    ids[1].ID[0]._ = '201801234567';
    const byOther = await sim.submitAndValidate(await sim.token(OTHER), foreign);
    expect(codesOf(byOther.details, 'Referenced Documents Validator')).toEqual(['RD304']);
    const missing = creditNote({ uuid: original.uuid, id: 'INV-2026-0001' }, 'CN-4');
    delete inv(missing).BillingReference;
    expect(codesOf(await validate(missing), 'Core Fields Validator')).toEqual(['CF333']);
  });

  it('codes: state, country, unit, classification, tax type, MSIC and currency from the code tables', async () => {
    sim = setup();
    const doc = minimalInvoice();
    const root = inv(doc);
    root.AccountingCustomerParty[0].Party[0].PostalAddress[0].CountrySubentityCode[0]._ = '17';
    root.AccountingSupplierParty[0].Party[0].PostalAddress[0].Country[0].IdentificationCode[0]._ = 'MY';
    root.AccountingSupplierParty[0].Party[0].IndustryClassificationCode[0]._ = '99999';
    root.TaxCurrencyCode = [{ _: 'ABC' }];
    const line = root.InvoiceLine[0];
    line.InvoicedQuantity[0].unitCode = 'ZZZZ';
    line.Item[0].CommodityClassification[0].ItemClassificationCode[0]._ = '999';
    line.TaxTotal[0].TaxSubtotal[0].TaxCategory[0].ID[0]._ = '09';
    root.TaxTotal[0].TaxSubtotal[0].TaxCategory[0].ID[0]._ = '09';
    const details = await validate(doc);
    expect(codesOf(details, 'Code Validator').sort()).toEqual(['CV401', 'CV403', 'CV404', 'CV405', 'CV405', 'CV406', 'CV407', 'CV408']);
  });

  it('duplicate: the same document (type, version, issue date-time, number, issuer) within 2 hours is Invalid with DS302', async () => {
    sim = setup();
    const first = await validate(minimalInvoice());
    const again = minimalInvoice();
    inv(again).InvoiceLine[0].Item[0].Description[0]._ = 'Same invoice, other words';
    const details = await validate(again);
    const errors = sim.stepErrors(details, 'Duplicated Submission Validator');
    expect(errors[0]).toMatchObject({ errorCode: 'DS302', error: `Duplicated submitted document with UUID ${details.uuid} where the values of configured attributes match with values for the document with UUID: ${first.uuid}` });
    expect(details.validationResults.validationSteps.find((s: any) => s.name.startsWith('Step03')).error.errorCode).toBe('Error03');
    sim.control.advance(2 * 3600_000 + 60_000);
    const later = minimalInvoice();
    inv(later).InvoiceLine[0].Item[0].Description[0]._ = 'Third time';
    expect((await validate(later)).status).toBe('Valid');
  });

  it('currency: a document in USD needs TaxExchangeRate to MYR', async () => {
    sim = setup();
    const usd = (id: string) => {
      const doc = minimalInvoice(id);
      const json = JSON.stringify(doc).replaceAll('"MYR"', '"USD"');
      return JSON.parse(json) as Doc;
    };
    expect(codesOf(await validate(usd('USD-1')), 'Currency Validator')).toEqual(['CR301']);
    const withRate = usd('USD-2');
    inv(withRate).TaxExchangeRate = [{ SourceCurrencyCode: [{ _: 'USD' }], TargetCurrencyCode: [{ _: 'MYR' }], CalculationRate: [{ _: 4.21 }] }];
    expect((await validate(withRate)).status).toBe('Valid');
  });
});
