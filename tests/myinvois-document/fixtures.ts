/** Inputs for the MyInvois document tests: a Malaysian supplier, buyers, and lines whose arithmetic is known. */
import type { EinvoiceBuyer, EinvoiceInput, EinvoiceLine, EinvoiceSupplier } from '../../src/integrations/myinvois/document';

export const supplier: EinvoiceSupplier = {
  tin: 'C20830570210',
  registration: { scheme: 'BRN', id: '202005123456' },
  sst: 'W10-1808-32000001',
  tourismTax: 'NA',
  msic: { code: '62010', description: 'Computer programming activities' },
  name: 'Contoh Software Sdn. Bhd.',
  address: { lines: ['Lot 66, Bangunan Merdeka', 'Persiaran Jaya'], city: 'Kuala Lumpur', postcode: '50480', state: '14', country: 'MY' },
  phone: '+60123456789',
  email: 'billing@contoh.my',
};

export const buyer: EinvoiceBuyer = {
  tin: 'C9876543210',
  registration: { scheme: 'BRN', id: '201901234567' },
  name: 'Pelanggan Berhad',
  address: { lines: ['No. 1, Jalan Plumbum'], city: 'Shah Alam', postcode: '40000', state: '10', country: 'MY' },
  phone: '+60355551234',
};

export const foreignBuyer: EinvoiceBuyer = {
  registration: { scheme: 'PASSPORT', id: 'K1234567' },
  name: 'Acme Pte. Ltd.',
  address: { lines: ['1 Raffles Place'], city: 'Singapore', postcode: '048616', state: '17', country: 'SG' },
  phone: '+6561234567',
};

/** 2 × 100.00 = 200.00, service tax 8 % = 16.00. */
export const serviceLine: EinvoiceLine = {
  id: '1',
  description: 'Software maintenance, August 2026',
  classification: '022',
  quantity: '2',
  unitCode: 'C62',
  unitPrice: '100.00',
  subtotal: '200.00',
  taxType: '02',
  taxRate: '8',
  taxAmount: '16.00',
};

/** 3 × 33.335 = 100.005 -> 100.01, discount 10.01, net 90.00, sales tax 10 % = 9.00. */
export const discountedGoodsLine: EinvoiceLine = {
  id: '2',
  description: 'Cable, per metre',
  classification: '022',
  quantity: '3',
  unitCode: 'MTR',
  unitPrice: '33.335',
  subtotal: '100.01',
  discount: { amount: '10.01', reason: 'Volume discount' },
  taxType: '01',
  taxRate: '10',
  taxAmount: '9.00',
};

/** 1 × 55.55, exempt (E), 55.55 exempted. */
export const exemptLine: EinvoiceLine = {
  id: '3',
  description: 'Training course',
  classification: '022',
  quantity: '1',
  unitCode: 'C62',
  unitPrice: '55.55',
  subtotal: '55.55',
  taxType: 'E',
  taxAmount: '0.00',
  exemptionReason: 'Exempt under Service Tax (Exemption) Order 2018, item 3',
  exemptedAmount: '55.55',
};

export function invoiceInput(overrides: Partial<EinvoiceInput> = {}): EinvoiceInput {
  return {
    typeCode: '01',
    version: '1.0',
    number: 'INV-2026-0001',
    issuedAt: '2026-08-03T02:15:00.000Z',
    currency: 'MYR',
    supplier,
    buyer,
    lines: [serviceLine],
    paymentTerms: 'Payment due within 30 days',
    ...overrides,
  };
}

export const ORIGINAL = { uuid: 'F9D425P6DS7D8IU9ZBE2ZAWJ10', number: 'INV-2026-0001' };
