/**
 * The MyInvois UBL 2.1 JSON document for 01, 02, 03 and 04: every mandatory field of the research
 * brief (section 1.2) at LHDN's path and in LHDN's JSON shape, alpha-3 countries, general TINs,
 * billing references, the exchange rate, and the inputs the builder refuses.
 */
import { describe, expect, it } from 'vitest';
import { buildDocument, EinvoiceBuildError } from '../../src/integrations/myinvois/document';
import { ORIGINAL, buyer, exemptLine, foreignBuyer, invoiceInput, serviceLine, supplier } from './fixtures';

type Node = Record<string, unknown>;
/** `node[k1][0][k2][0]…` */
function at(node: unknown, ...keys: string[]): Node {
  return keys.reduce<Node>((n, k) => (n[k] as Node[])[0]!, node as Node);
}

describe('buildDocument: invoice (01)', () => {
  const doc = buildDocument(invoiceInput());
  const inv = at(doc, 'Invoice');

  it('has the namespaces and header LHDN requires', () => {
    expect(doc._D).toBe('urn:oasis:names:specification:ubl:schema:xsd:Invoice-2');
    expect(doc._A).toBe('urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2');
    expect(doc._B).toBe('urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2');
    expect(inv.ID).toEqual([{ _: 'INV-2026-0001' }]);
    expect(inv.IssueDate).toEqual([{ _: '2026-08-03' }]);
    expect(inv.IssueTime).toEqual([{ _: '02:15:00Z' }]);
    expect(inv.InvoiceTypeCode).toEqual([{ _: '01', listVersionID: '1.0' }]);
    expect(inv.DocumentCurrencyCode).toEqual([{ _: 'MYR' }]);
    expect(inv.BillingReference).toBeUndefined();
    expect(inv.TaxExchangeRate).toBeUndefined();
    expect(inv.PaymentTerms).toEqual([{ Note: [{ _: 'Payment due within 30 days' }] }]);
    expect(inv.UBLExtensions).toBeUndefined();
  });

  it('writes the issue time in UTC whatever offset the input has', () => {
    const d = buildDocument(invoiceInput({ issuedAt: '2026-08-03T07:15:09+08:00' }));
    expect(at(d, 'Invoice').IssueDate).toEqual([{ _: '2026-08-02' }]);
    expect(at(d, 'Invoice').IssueTime).toEqual([{ _: '23:15:09Z' }]);
  });

  it('carries the supplier with TIN, BRN, SST, TTX, MSIC, alpha-3 address and contact', () => {
    const party = at(inv, 'AccountingSupplierParty', 'Party');
    expect(party.IndustryClassificationCode).toEqual([{ _: '62010', name: 'Computer programming activities' }]);
    expect(party.PartyIdentification).toEqual([
      { ID: [{ _: 'C20830570210', schemeID: 'TIN' }] },
      { ID: [{ _: '202005123456', schemeID: 'BRN' }] },
      { ID: [{ _: 'W10-1808-32000001', schemeID: 'SST' }] },
      { ID: [{ _: 'NA', schemeID: 'TTX' }] },
    ]);
    expect(party.PostalAddress).toEqual([
      {
        CityName: [{ _: 'Kuala Lumpur' }],
        PostalZone: [{ _: '50480' }],
        CountrySubentityCode: [{ _: '14' }],
        AddressLine: [{ Line: [{ _: 'Lot 66, Bangunan Merdeka' }] }, { Line: [{ _: 'Persiaran Jaya' }] }],
        Country: [{ IdentificationCode: [{ _: 'MYS', listID: 'ISO3166-1', listAgencyID: '6' }] }],
      },
    ]);
    expect(party.PartyLegalEntity).toEqual([{ RegistrationName: [{ _: 'Contoh Software Sdn. Bhd.' }] }]);
    expect(party.Contact).toEqual([{ Telephone: [{ _: '+60123456789' }], ElectronicMail: [{ _: 'billing@contoh.my' }] }]);
  });

  it('carries the buyer with TIN, BRN, SST NA, no MSIC, no TTX unless given', () => {
    const party = at(inv, 'AccountingCustomerParty', 'Party');
    expect(party.IndustryClassificationCode).toBeUndefined();
    expect(party.PartyIdentification).toEqual([
      { ID: [{ _: 'C9876543210', schemeID: 'TIN' }] },
      { ID: [{ _: '201901234567', schemeID: 'BRN' }] },
      { ID: [{ _: 'NA', schemeID: 'SST' }] },
    ]);
    expect(at(party, 'PostalAddress', 'Country', 'IdentificationCode')._).toBe('MYS');
    expect(party.Contact).toEqual([{ Telephone: [{ _: '+60355551234' }] }]);
  });

  it('writes the line as the brief mandates: classification, description, price, quantity, subtotal, net, tax', () => {
    expect(inv.InvoiceLine).toEqual([
      {
        ID: [{ _: '1' }],
        InvoicedQuantity: [{ _: 2, unitCode: 'C62' }],
        LineExtensionAmount: [{ _: 200, currencyID: 'MYR' }],
        TaxTotal: [
          {
            TaxAmount: [{ _: 16, currencyID: 'MYR' }],
            TaxSubtotal: [
              {
                TaxableAmount: [{ _: 200, currencyID: 'MYR' }],
                TaxAmount: [{ _: 16, currencyID: 'MYR' }],
                Percent: [{ _: 8 }],
                TaxCategory: [{ ID: [{ _: '02' }], TaxScheme: [{ ID: [{ _: 'OTH', schemeID: 'UN/ECE 5153', schemeAgencyID: '6' }] }] }],
              },
            ],
          },
        ],
        Item: [{ CommodityClassification: [{ ItemClassificationCode: [{ _: '022', listID: 'CLASS' }] }], Description: [{ _: 'Software maintenance, August 2026' }] }],
        Price: [{ PriceAmount: [{ _: 100, currencyID: 'MYR' }] }],
        ItemPriceExtension: [{ Amount: [{ _: 200, currencyID: 'MYR' }] }],
      },
    ]);
  });

  it('writes the totals and the tax per type', () => {
    expect(inv.TaxTotal).toEqual([
      {
        TaxAmount: [{ _: 16, currencyID: 'MYR' }],
        TaxSubtotal: [
          {
            TaxableAmount: [{ _: 200, currencyID: 'MYR' }],
            TaxAmount: [{ _: 16, currencyID: 'MYR' }],
            TaxCategory: [{ ID: [{ _: '02' }], TaxScheme: [{ ID: [{ _: 'OTH', schemeID: 'UN/ECE 5153', schemeAgencyID: '6' }] }] }],
          },
        ],
      },
    ]);
    expect(inv.LegalMonetaryTotal).toEqual([
      {
        LineExtensionAmount: [{ _: 200, currencyID: 'MYR' }],
        TaxExclusiveAmount: [{ _: 200, currencyID: 'MYR' }],
        TaxInclusiveAmount: [{ _: 216, currencyID: 'MYR' }],
        PayableAmount: [{ _: 216, currencyID: 'MYR' }],
      },
    ]);
  });

  it('keeps the element order of LHDN samples', () => {
    expect(Object.keys(inv)).toEqual([
      'ID', 'IssueDate', 'IssueTime', 'InvoiceTypeCode', 'DocumentCurrencyCode', 'AccountingSupplierParty',
      'AccountingCustomerParty', 'PaymentTerms', 'TaxTotal', 'LegalMonetaryTotal', 'InvoiceLine',
    ]);
  });
});

describe('buildDocument: notes (02, 03, 04)', () => {
  for (const typeCode of ['02', '03', '04'] as const) {
    it(`type ${typeCode} is an Invoice root with the type code and the original's UUID and number`, () => {
      const doc = buildDocument(invoiceInput({ typeCode, version: '1.1', number: `N${typeCode}-0001`, billingReferences: [ORIGINAL] }));
      const inv = at(doc, 'Invoice');
      expect(Object.keys(doc)).toEqual(['_D', '_A', '_B', 'Invoice']);
      expect(inv.InvoiceTypeCode).toEqual([{ _: typeCode, listVersionID: '1.1' }]);
      expect(inv.BillingReference).toEqual([
        { InvoiceDocumentReference: [{ ID: [{ _: 'INV-2026-0001' }], UUID: [{ _: 'F9D425P6DS7D8IU9ZBE2ZAWJ10' }] }] },
      ]);
      expect(Object.keys(inv).indexOf('BillingReference')).toBe(Object.keys(inv).indexOf('DocumentCurrencyCode') + 1);
      expect(at(inv, 'LegalMonetaryTotal', 'PayableAmount')).toEqual({ _: 216, currencyID: 'MYR' });
    });
  }

  it('lists several originals as repeated InvoiceDocumentReference', () => {
    const second = { uuid: 'A1B2C3D4E5F6G7H8J9K0L1M2N3', number: 'INV-2026-0002' };
    const inv = at(buildDocument(invoiceInput({ typeCode: '02', billingReferences: [ORIGINAL, second] })), 'Invoice');
    expect(at(inv, 'BillingReference').InvoiceDocumentReference).toHaveLength(2);
  });

  it('refuses a note without the original, and an invoice with one', () => {
    expect(() => buildDocument(invoiceInput({ typeCode: '02' }))).toThrow(/billingReferences/);
    expect(() => buildDocument(invoiceInput({ billingReferences: [ORIGINAL] }))).toThrow(/only for notes/);
  });
});

describe('buildDocument: general TINs and special buyers', () => {
  it('a foreign buyer without TIN gets EI00000000020, its passport and an alpha-3 country', () => {
    const party = at(buildDocument(invoiceInput({ buyer: foreignBuyer })), 'Invoice', 'AccountingCustomerParty', 'Party');
    expect(party.PartyIdentification).toEqual([
      { ID: [{ _: 'EI00000000020', schemeID: 'TIN' }] },
      { ID: [{ _: 'K1234567', schemeID: 'PASSPORT' }] },
      { ID: [{ _: 'NA', schemeID: 'SST' }] },
    ]);
    expect(at(party, 'PostalAddress', 'Country', 'IdentificationCode')).toEqual({ _: 'SGP', listID: 'ISO3166-1', listAgencyID: '6' });
    expect(at(party, 'PostalAddress', 'CountrySubentityCode')._).toBe('17');
  });

  it('the general public gets EI00000000010 with BRN NA, and a consolidated invoice (004) is allowed only for it', () => {
    const generalPublic = {
      name: 'General Public',
      address: { lines: ['NA'], city: 'NA', state: '17', country: 'MY' },
      phone: 'NA',
      sst: 'NA',
    };
    const lines = [{ ...serviceLine, classification: '004', description: 'Receipts 0001-0420' }];
    const party = at(buildDocument(invoiceInput({ buyer: generalPublic, lines })), 'Invoice', 'AccountingCustomerParty', 'Party');
    expect(party.PartyIdentification).toEqual([
      { ID: [{ _: 'EI00000000010', schemeID: 'TIN' }] },
      { ID: [{ _: 'NA', schemeID: 'BRN' }] },
      { ID: [{ _: 'NA', schemeID: 'SST' }] },
    ]);
    expect(() => buildDocument(invoiceInput({ lines }))).toThrow(/004/);
  });
});

describe('buildDocument: foreign currency and exemption', () => {
  it('a USD invoice carries the exchange rate to MYR and every amount in USD', () => {
    const inv = at(buildDocument(invoiceInput({ currency: 'USD', exchangeRate: '4.7200', buyer: foreignBuyer })), 'Invoice');
    expect(inv.DocumentCurrencyCode).toEqual([{ _: 'USD' }]);
    expect(inv.TaxExchangeRate).toEqual([
      { SourceCurrencyCode: [{ _: 'USD' }], TargetCurrencyCode: [{ _: 'MYR' }], CalculationRate: [{ _: 4.72 }] },
    ]);
    expect(at(inv, 'LegalMonetaryTotal', 'PayableAmount')).toEqual({ _: 216, currencyID: 'USD' });
    expect(at(inv, 'TaxTotal', 'TaxAmount')).toEqual({ _: 16, currencyID: 'USD' });
  });

  it('refuses a foreign currency without its rate', () => {
    expect(() => buildDocument(invoiceInput({ currency: 'USD' }))).toThrow(EinvoiceBuildError);
  });

  it('an exempt line carries tax type E, the reason and the amount exempted', () => {
    const inv = at(buildDocument(invoiceInput({ lines: [exemptLine] })), 'Invoice');
    const sub = at(inv, 'InvoiceLine', 'TaxTotal', 'TaxSubtotal');
    expect(sub.TaxableAmount).toEqual([{ _: 55.55, currencyID: 'MYR' }]);
    expect(sub.Percent).toBeUndefined();
    expect(at(sub, 'TaxCategory').ID).toEqual([{ _: 'E' }]);
    expect(at(sub, 'TaxCategory').TaxExemptionReason).toEqual([{ _: 'Exempt under Service Tax (Exemption) Order 2018, item 3' }]);
  });

  it('refuses an exemption without reason, a reason with characters LHDN refuses, and a reason on a taxed line', () => {
    expect(() => buildDocument(invoiceInput({ lines: [{ ...exemptLine, exemptionReason: undefined }] }))).toThrow(/exemptionReason/);
    expect(() => buildDocument(invoiceInput({ lines: [{ ...exemptLine, exemptionReason: 'Exempt; order #3' }] }))).toThrow(/exemptionReason/);
    expect(() => buildDocument(invoiceInput({ lines: [{ ...serviceLine, exemptionReason: 'Exempt' }] }))).toThrow(/only for tax type E/);
  });
});

describe('buildDocument: refusals', () => {
  it.each([
    ['an unknown country', { buyer: { ...buyer, address: { ...buyer.address, country: 'XX' } } }, /country/],
    ['a state code outside 01-17', { buyer: { ...buyer, address: { ...buyer.address, state: '00' } } }, /state/],
    ['an MSIC code that is not 5 digits', { supplier: { ...supplier, msic: { code: '6201', description: 'x' } } }, /MSIC/],
    ['a number longer than 50', { number: 'N'.repeat(51) }, /number/],
    ['no lines', { lines: [] }, /lines/],
    ['an unknown tax type', { lines: [{ ...serviceLine, taxType: '07' }] }, /tax type/],
    ['an unknown currency', { currency: 'XXX' }, /currency/],
    ['a bad issue time', { issuedAt: 'yesterday' }, /issuedAt/],
  ])('refuses %s', (_what, overrides, message) => {
    expect(() => buildDocument(invoiceInput(overrides as never))).toThrow(message);
  });
});
