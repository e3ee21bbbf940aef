/**
 * composeEinvoice: a receivables document's stored rows (as PostgreSQL answers numerics, padded to
 * their scale) mapped to the MyInvois builder's input, with exact strings; the input builds into a
 * document whose arithmetic holds; buyerOf freezes a customer as the issue step does.
 */
import { describe, expect, it } from 'vitest';
import type { DocumentRow, LineRow } from '../../src/db/queries/receivable-documents';
import type { FrozenBuyer } from '../../src/db/schema';
import { arithmeticProblems, buildDocument, EinvoiceBuildError } from '../../src/integrations/myinvois/document';
import { buyerOf, composeEinvoice, paymentTermsText, type ComposeInput } from '../../src/services/einvoicing/compose';
import { COMPLETE_SELLER } from '../helpers/einvoicing';

const ISSUED_AT = new Date('2026-08-03T02:15:00Z');

function docRow(over: Partial<DocumentRow> = {}): DocumentRow {
  return {
    organizationId: '00000000-0000-4000-8000-000000000001',
    id: '00000000-0000-4000-8000-000000000002',
    kind: 'sales_invoice',
    state: 'draft',
    revision: 1,
    reference: null,
    customerId: '00000000-0000-4000-8000-000000000003',
    customerReference: '',
    currency: 'MYR',
    fxRate: '1.0000000000',
    invoiceDate: '2026-08-03',
    dueOn: '2026-09-02',
    paymentTermsDays: 30,
    preparedBy: '00000000-0000-4000-8000-000000000004',
    createdAt: ISSUED_AT,
    updatedAt: ISSUED_AT,
    issuedAt: null,
    reason: null,
    originalInvoiceId: null,
    originalTotal: null,
    legacyReference: null,
    isOpening: false,
    buyer: null,
    seller: null,
    customFields: {},
    netTotal: '351.5000',
    taxTotal: '28.1200',
    grossAmount: '379.6200',
    grossBase: '379.6200',
    outstanding: '379.6200',
    outstandingBase: '379.6200',
    projectId: null,
    multipleProjects: false,
    searchText: '',
    stateChangedAt: null,
    ...over,
  };
}

/** 3 × 120.50 less 10.00 at service tax 8 %: net 351.50, tax 28.12 (the invoice world's line). */
function lineRow(over: Partial<LineRow> = {}): LineRow {
  return {
    organizationId: '00000000-0000-4000-8000-000000000001',
    id: '00000000-0000-4000-8000-000000000010',
    documentId: '00000000-0000-4000-8000-000000000002',
    lineNo: 1,
    accountId: '00000000-0000-4000-8000-000000000011',
    classificationCode: '022',
    description: 'Consulting',
    unitCode: null,
    quantity: '3.0000000000',
    unitPrice: '120.500000',
    discountAmount: '10.0000',
    netAmount: '351.5000',
    netBase: '351.5000',
    taxAmount: '28.1200',
    taxBase: '28.1200',
    taxCodeId: '00000000-0000-4000-8000-000000000012',
    taxCode: 'SV8',
    taxType: '02',
    taxPackKind: 'my_sst',
    taxRate: '8.0000000000',
    taxExemptionReason: null,
    tradeLineId: null,
    ...over,
  };
}

const BUYER: FrozenBuyer = {
  name: 'Pelanggan Berhad',
  address: { line1: 'No. 1, Jalan Plumbum', line2: 'Seksyen 7', city: 'Shah Alam', postcode: '40000', state: '10', country_code: 'MY' },
  email: 'ap@pelanggan.my',
  phone: '+60355551234',
  registration_no: '201901234567',
  registration_type: 'brn',
  sst_no: null,
  tin: 'C9876543210',
};

function input(over: Partial<ComposeInput> = {}): ComposeInput {
  return {
    doc: docRow(),
    lines: [lineRow()],
    buyer: BUYER,
    seller: COMPLETE_SELLER,
    version: '1.0',
    number: 'INV-2026-00001',
    issuedAt: ISSUED_AT,
    baseCurrency: 'MYR',
    ...over,
  };
}

describe('composeEinvoice', () => {
  it('maps an invoice: header, supplier from the seller identity, buyer from the frozen buyer, the line in exact strings', () => {
    expect(composeEinvoice(input())).toEqual({
      typeCode: '01',
      version: '1.0',
      number: 'INV-2026-00001',
      issuedAt: ISSUED_AT,
      currency: 'MYR',
      supplier: {
        tin: 'C1234567890',
        registration: { scheme: 'BRN', id: '202001234567' },
        sst: 'NA',
        tourismTax: 'NA',
        name: 'Contoh Software Sdn. Bhd.',
        address: { lines: ['Lot 66, Bangunan Merdeka'], city: 'Kuala Lumpur', postcode: '50480', state: '14', country: 'MY' },
        phone: '+60123456789',
        email: 'billing@contoh.my',
        msic: { code: '62010', description: 'Computer programming activities' },
      },
      buyer: {
        tin: 'C9876543210',
        registration: { scheme: 'BRN', id: '201901234567' },
        sst: 'NA',
        name: 'Pelanggan Berhad',
        address: { lines: ['No. 1, Jalan Plumbum', 'Seksyen 7'], city: 'Shah Alam', postcode: '40000', state: '10', country: 'MY' },
        phone: '+60355551234',
        email: 'ap@pelanggan.my',
      },
      lines: [
        {
          id: '1',
          description: 'Consulting',
          classification: '022',
          quantity: '3',
          unitPrice: '120.5',
          subtotal: '361.50',
          discount: { amount: '10.00' },
          taxType: '02',
          taxRate: '8',
          taxAmount: '28.12',
        },
      ],
      paymentTerms: 'Payment due within 30 days',
    });
  });

  it('builds into a document whose totals are the stored ones and whose arithmetic holds', () => {
    const doc = buildDocument(composeEinvoice(input()));
    const inv = doc.Invoice[0] as any;
    expect(arithmeticProblems(doc)).toEqual([]);
    expect(inv.LegalMonetaryTotal).toEqual([
      {
        LineExtensionAmount: [{ _: 351.5, currencyID: 'MYR' }],
        TaxExclusiveAmount: [{ _: 351.5, currencyID: 'MYR' }],
        TaxInclusiveAmount: [{ _: 379.62, currencyID: 'MYR' }],
        PayableAmount: [{ _: 379.62, currencyID: 'MYR' }],
      },
    ]);
    expect(inv.InvoiceLine[0].ItemPriceExtension).toEqual([{ Amount: [{ _: 361.5, currencyID: 'MYR' }] }]);
    expect(inv.InvoiceLine[0].AllowanceCharge).toEqual([{ ChargeIndicator: [{ _: false }], AllowanceChargeReason: [{ _: 'Discount' }], Amount: [{ _: 10, currencyID: 'MYR' }] }]);
  });

  it('several lines, a unit code, a six-place unit price rounded half away from zero, an exempt line and a not-applicable line', () => {
    const lines = [
      lineRow(),
      // 7 × 2.055 = 14.385 -> 14.39 (half away from zero); sales tax 10 % = 1.44
      lineRow({ lineNo: 2, description: 'Fuel', unitCode: 'LTR', quantity: '7.0000000000', unitPrice: '2.055000', discountAmount: '0.0000', netAmount: '14.3900', taxAmount: '1.4400', taxType: '01', taxRate: '10.0000000000' }),
      lineRow({ lineNo: 3, description: 'Training', quantity: '1.5000000000', unitPrice: '200.000000', discountAmount: '0.0000', netAmount: '300.0000', taxAmount: '0.0000', taxType: 'E', taxRate: '0.0000000000', taxExemptionReason: 'Exempt under Schedule A (item 5)' }),
      lineRow({ lineNo: 4, description: 'Courier', quantity: '1.0000000000', unitPrice: '15.000000', discountAmount: '0.0000', netAmount: '15.0000', taxAmount: '0.0000', taxType: '06', taxRate: '0.0000000000' }),
    ];
    const composed = composeEinvoice(input({ lines }));
    expect(composed.lines.slice(1)).toEqual([
      { id: '2', description: 'Fuel', classification: '022', quantity: '7', unitCode: 'LTR', unitPrice: '2.055', subtotal: '14.39', taxType: '01', taxRate: '10', taxAmount: '1.44' },
      { id: '3', description: 'Training', classification: '022', quantity: '1.5', unitPrice: '200', subtotal: '300.00', taxType: 'E', taxAmount: '0.00', exemptionReason: 'Exempt under Schedule A (item 5)' },
      { id: '4', description: 'Courier', classification: '022', quantity: '1', unitPrice: '15', subtotal: '15.00', taxType: '06', taxAmount: '0.00' },
    ]);
    const doc = buildDocument(composed);
    expect(arithmeticProblems(doc)).toEqual([]);
    // 351.50 + 14.39 + 300.00 + 15.00 net; 28.12 + 1.44 tax
    expect((doc.Invoice[0] as any).LegalMonetaryTotal[0].PayableAmount).toEqual([{ _: 710.45, currencyID: 'MYR' }]);
  });

  it('a foreign currency carries the document rate to MYR; with a base currency other than MYR there is no rate to MYR to give', () => {
    const usd = composeEinvoice(input({ doc: docRow({ currency: 'USD', fxRate: '4.4712000000' }) }));
    expect(usd.currency).toBe('USD');
    expect(usd.exchangeRate).toBe('4.4712');
    expect((buildDocument(usd).Invoice[0] as any).TaxExchangeRate).toEqual([
      { SourceCurrencyCode: [{ _: 'USD' }], TargetCurrencyCode: [{ _: 'MYR' }], CalculationRate: [{ _: 4.4712 }] },
    ]);
    expect(composeEinvoice(input()).exchangeRate).toBeUndefined();
    const sgdBase = composeEinvoice(input({ baseCurrency: 'SGD', doc: docRow({ currency: 'SGD', fxRate: '1.0000000000' }) }));
    expect(sgdBase.exchangeRate).toBeUndefined();
    expect(() => buildDocument(sgdBase)).toThrow(EinvoiceBuildError);
  });

  it('credit note 02 and debit note 03 name the original e-invoice; a credit note has no payment terms', () => {
    const original = { uuid: 'F9D425P6DS7D8IU8IQ5FDHXWJ0', number: 'INV-2026-00001' };
    const cn = composeEinvoice(input({ doc: docRow({ kind: 'customer_credit_note' }), number: 'CN-2026-00001', original }));
    expect([cn.typeCode, cn.billingReferences, cn.paymentTerms]).toEqual(['02', [original], undefined]);
    const dn = composeEinvoice(input({ doc: docRow({ kind: 'customer_debit_note', paymentTermsDays: 0 }), number: 'DN-2026-00001', original }));
    expect([dn.typeCode, dn.billingReferences, dn.paymentTerms]).toEqual(['03', [original], 'Payment due upon receipt']);
    expect((buildDocument(cn).Invoice[0] as any).BillingReference).toEqual([{ InvoiceDocumentReference: [{ ID: [{ _: 'INV-2026-00001' }], UUID: [{ _: 'F9D425P6DS7D8IU8IQ5FDHXWJ0' }] }] }]);
    expect(composeEinvoice(input()).billingReferences).toBeUndefined();
  });

  it('payment terms text from payment_terms_days', () => {
    expect([paymentTermsText(0), paymentTermsText(1), paymentTermsText(60)]).toEqual(['Payment due upon receipt', 'Payment due within 1 day', 'Payment due within 60 days']);
  });

  it('registration scheme from registration_type; none (or no number) leaves it to the builder (BRN NA)', () => {
    const of = (b: Partial<FrozenBuyer>) => composeEinvoice(input({ buyer: { ...BUYER, ...b } })).buyer.registration;
    expect(of({ registration_type: 'nric', registration_no: '880101015555' })).toEqual({ scheme: 'NRIC', id: '880101015555' });
    expect(of({ registration_type: 'passport', registration_no: 'A12345678' })).toEqual({ scheme: 'PASSPORT', id: 'A12345678' });
    expect(of({ registration_type: 'army', registration_no: '123456' })).toEqual({ scheme: 'ARMY', id: '123456' });
    expect(of({ registration_type: null, registration_no: null })).toBeUndefined();
    expect(of({ registration_type: 'brn', registration_no: null })).toBeUndefined();
    const built = buildDocument(composeEinvoice(input({ buyer: { ...BUYER, registration_type: null, registration_no: null } })));
    expect((built.Invoice[0] as any).AccountingCustomerParty[0].Party[0].PartyIdentification[1]).toEqual({ ID: [{ _: 'NA', schemeID: 'BRN' }] });
  });

  it('a buyer without a TIN gets the general TIN by the builder’s rule: EI00000000010 in Malaysia, EI00000000020 abroad', () => {
    const tinOf = (b: FrozenBuyer) => (buildDocument(composeEinvoice(input({ buyer: b }))).Invoice[0] as any).AccountingCustomerParty[0].Party[0].PartyIdentification[0];
    expect(composeEinvoice(input({ buyer: { ...BUYER, tin: null } })).buyer.tin).toBeUndefined();
    expect(tinOf({ ...BUYER, tin: null })).toEqual({ ID: [{ _: 'EI00000000010', schemeID: 'TIN' }] });
    const foreign: FrozenBuyer = { ...BUYER, tin: '  ', registration_type: null, registration_no: null, address: { line1: '1 Raffles Place', city: 'Singapore', postcode: '048616', state: '17', country_code: 'SG' } };
    expect(tinOf(foreign)).toEqual({ ID: [{ _: 'EI00000000020', schemeID: 'TIN' }] });
  });

  it('the general public (EI00000000010) has NA wherever it has nothing, and state 17', () => {
    const gp: FrozenBuyer = { name: 'General Public', address: { country_code: 'MY' }, email: null, phone: null, registration_no: null, registration_type: null, sst_no: null, tin: 'EI00000000010' };
    expect(composeEinvoice(input({ buyer: gp })).buyer).toEqual({
      tin: 'EI00000000010',
      sst: 'NA',
      name: 'General Public',
      address: { lines: ['NA'], city: 'NA', state: '17', country: 'MY' },
      phone: 'NA',
    });
  });

  it('maps what is missing as missing (the builder or LHDN refuses it, the preflight says so beforehand)', () => {
    const composed = composeEinvoice(input({ seller: { name: 'Bare Sdn Bhd' }, buyer: { ...BUYER, phone: null, address: { country_code: 'MY' } } }));
    expect(composed.supplier).toEqual({
      tin: '',
      registration: { scheme: 'BRN', id: '' },
      sst: 'NA',
      tourismTax: 'NA',
      name: 'Bare Sdn Bhd',
      address: { lines: [], city: '', state: '', country: 'MY' },
      phone: '',
      msic: { code: '', description: '' },
    });
    expect(composed.buyer.address).toEqual({ lines: [], city: '', state: '', country: 'MY' });
    expect(composed.buyer.phone).toBe('');
    expect(() => buildDocument(composed)).toThrow(EinvoiceBuildError);
  });

  it('refuses a line whose stored net amount is not round(quantity × unit price) − discount', () => {
    expect(() => composeEinvoice(input({ lines: [lineRow({ netAmount: '351.4900' })] }))).toThrow(
      new EinvoiceBuildError('/lines/0/net_amount', '351.49 is not round(quantity × unit price) − discount (351.50)'),
    );
  });
});

describe('buyerOf', () => {
  it('freezes the customer as the issue step does: address lines that are set, country alpha-2 (an alpha-3 converted)', () => {
    const customer = {
      legalName: 'Pelanggan Berhad',
      address: { line1: 'No. 1, Jalan Plumbum', city: 'Shah Alam', state: '10' },
      countryCode: 'MYS',
      email: null,
      phone: '+60355551234',
      registrationNo: '201901234567',
      registrationType: 'brn' as const,
      sstRegistrationNo: null,
      tin: 'C9876543210',
    };
    expect(buyerOf(customer)).toEqual({
      name: 'Pelanggan Berhad',
      address: { line1: 'No. 1, Jalan Plumbum', city: 'Shah Alam', state: '10', country_code: 'MY' },
      email: null,
      phone: '+60355551234',
      registration_no: '201901234567',
      registration_type: 'brn',
      sst_no: null,
      tin: 'C9876543210',
    });
  });
});
