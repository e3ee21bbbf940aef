import { describe, expect, it } from 'vitest';
import type { SellerIdentity } from '../../src/db/schema';
import { COMPLETE_SELLER } from '../helpers/einvoicing';
import { customerPreflight, preflight, PREFLIGHT_CODES, sellerPreflight, type PreflightCustomer, type PreflightDraft, type PreflightLine } from '../../src/services/einvoicing/preflight';

/** The e-invoicing preflight: a clean draft passes; each rule is shown by a draft that breaks exactly it. */

// The complete seller identity of the e-invoicing tests, without an e-mail (it is optional).
const { email: _email, ...SELLER }: SellerIdentity = COMPLETE_SELLER;
const CUSTOMER: PreflightCustomer = {
  country_code: 'MY',
  tin: 'C9876543210',
  registration_type: 'brn',
  registration_no: '201901234567',
  phone: '+60355551234',
  address: { line1: 'No. 1, Jalan Plumbum', city: 'Shah Alam', state: '10' },
};
const DRAFT: PreflightDraft = {
  kind: 'sales_invoice',
  currency: 'MYR',
  base_currency: 'MYR',
  fx_rate: '1',
  gross_amount: '216.00',
  lines: [{ classification_code: '022', tax_type: '02', tax_exemption_reason: null }],
};
const GENERAL_PUBLIC: PreflightCustomer = { country_code: 'MY', tin: 'EI00000000010', registration_type: null, registration_no: null, phone: null, address: {} };

type Case = [name: string, draft: PreflightDraft, customer: PreflightCustomer, seller: SellerIdentity, code: string, pointer: string];
const d = (over: Partial<PreflightDraft>): PreflightDraft => ({ ...DRAFT, ...over });
const c = (over: Partial<PreflightCustomer>): PreflightCustomer => ({ ...CUSTOMER, ...over });
const s = (over: Partial<SellerIdentity>): SellerIdentity => ({ ...SELLER, ...over });
const LINE: PreflightLine = { classification_code: '022', tax_type: '02', tax_exemption_reason: null };
const line = (over: Partial<PreflightLine>): PreflightLine[] => [{ ...LINE, ...over }];

const CASES: Case[] = [
  ['seller without TIN', DRAFT, CUSTOMER, s({ tin: null }), 'seller_tin_missing', '/seller/tin'],
  ['seller without BRN', DRAFT, CUSTOMER, s({ registration_no: ' ' }), 'seller_registration_missing', '/seller/registration_no'],
  ['seller without MSIC', DRAFT, CUSTOMER, s({ msic: null }), 'msic_missing', '/seller/msic'],
  ['seller MSIC without activity', DRAFT, CUSTOMER, s({ business_activity: '' }), 'msic_missing', '/seller/business_activity'],
  ['seller phone not E.164', DRAFT, CUSTOMER, s({ phone: '03-2345 6789' }), 'phone_not_e164', '/seller/phone'],
  ['seller phone missing', DRAFT, CUSTOMER, s({ phone: null }), 'phone_not_e164', '/seller/phone'],
  ['seller address without line', DRAFT, CUSTOMER, s({ address: { ...SELLER.address, line1: null } }), 'address_line_missing', '/seller/address/line1'],
  ['seller address without city', DRAFT, CUSTOMER, s({ address: { ...SELLER.address, city: '' } }), 'address_city_missing', '/seller/address/city'],
  ['seller address without state', DRAFT, CUSTOMER, s({ address: { ...SELLER.address, state: null } }), 'address_state_missing', '/seller/address/state'],
  ['seller in Malaysia with state 17', DRAFT, CUSTOMER, s({ address: { ...SELLER.address, state: '17' } }), 'state_not_applicable_in_malaysia', '/seller/address/state'],
  ['Malaysian buyer without TIN', DRAFT, c({ tin: null }), SELLER, 'buyer_tin_missing', '/customer/tin'],
  ['buyer without registration type', DRAFT, c({ registration_type: null }), SELLER, 'buyer_registration_missing', '/customer/registration_no'],
  ['buyer without registration number', DRAFT, c({ registration_no: '' }), SELLER, 'buyer_registration_missing', '/customer/registration_no'],
  ['buyer phone not E.164', DRAFT, c({ phone: '+60 3 5555 1234' }), SELLER, 'phone_not_e164', '/customer/phone'],
  ['buyer address without city', DRAFT, c({ address: { ...CUSTOMER.address, city: undefined } }), SELLER, 'address_city_missing', '/customer/address/city'],
  ['buyer address without state', DRAFT, c({ address: { ...CUSTOMER.address, state: '' } }), SELLER, 'address_state_missing', '/customer/address/state'],
  ['Malaysian buyer with state 17', DRAFT, c({ address: { ...CUSTOMER.address, state: '17' } }), SELLER, 'state_not_applicable_in_malaysia', '/customer/address/state'],
  ['line without tax type', d({ lines: line({ tax_type: '' }) }), CUSTOMER, SELLER, 'line_tax_type_missing', '/lines/0/tax_type'],
  ['exempt line without reason', d({ lines: line({ tax_type: 'E', tax_exemption_reason: null }) }), CUSTOMER, SELLER, 'exemption_reason_missing', '/lines/0/tax_exemption_reason'],
  ['exemption reason with refused characters', d({ lines: line({ tax_type: 'E', tax_exemption_reason: 'Exempt under item 5; schedule A' }) }), CUSTOMER, SELLER, 'exemption_reason_invalid', '/lines/0/tax_exemption_reason'],
  ['exemption reason too long', d({ lines: line({ tax_type: 'E', tax_exemption_reason: 'a'.repeat(301) }) }), CUSTOMER, SELLER, 'exemption_reason_invalid', '/lines/0/tax_exemption_reason'],
  ['classification 004 for a named buyer', d({ lines: line({ classification_code: '004' }) }), CUSTOMER, SELLER, 'consolidated_without_general_public', '/lines/0/classification_code'],
  ['general public buyer without 004', DRAFT, GENERAL_PUBLIC, SELLER, 'general_public_without_consolidated', '/lines/0/classification_code'],
  ['payable amount zero', d({ gross_amount: '0.00' }), CUSTOMER, SELLER, 'payable_zero', '/gross_amount'],
  ['foreign currency without rate', d({ currency: 'USD', fx_rate: null }), CUSTOMER, SELLER, 'exchange_rate_missing', '/fx_rate'],
  ['foreign currency with a zero rate', d({ currency: 'USD', fx_rate: '0' }), CUSTOMER, SELLER, 'exchange_rate_missing', '/fx_rate'],
  ['credit note whose invoice has no LHDN UUID', d({ kind: 'customer_credit_note', original: { reference: 'INV-2026-00001', lhdn_uuid: null } }), CUSTOMER, SELLER, 'original_not_validated', '/original_invoice_id'],
  ['debit note without its original', d({ kind: 'customer_debit_note', original: null }), CUSTOMER, SELLER, 'original_not_validated', '/original_invoice_id'],
];

describe('e-invoicing preflight', () => {
  it('passes a complete draft, a general-public consolidated draft, a foreign buyer without TIN, a validated original, a foreign currency with its rate', () => {
    expect(preflight(DRAFT, CUSTOMER, SELLER)).toEqual([]);
    expect(preflight(d({ lines: line({ classification_code: '004' }) }), GENERAL_PUBLIC, SELLER)).toEqual([]);
    const foreign = c({ country_code: 'SG', tin: null, registration_type: null, registration_no: null, phone: '+6561234567', address: { line1: '1 Raffles Place', city: 'Singapore', state: '17' } });
    expect(preflight(DRAFT, foreign, SELLER)).toEqual([]);
    expect(preflight(d({ kind: 'customer_credit_note', original: { reference: 'INV-1', lhdn_uuid: 'F9D425P6DS7D8IU2QGZAAW3V10' } }), CUSTOMER, SELLER)).toEqual([]);
    expect(preflight(d({ currency: 'USD', fx_rate: '4.470000' }), CUSTOMER, SELLER)).toEqual([]);
    expect(preflight(d({ lines: line({ tax_type: 'E', tax_exemption_reason: 'Exempt under Sales Tax (Exemption) Order 2025, item 5 (a)' }) }), CUSTOMER, SELLER)).toEqual([]);
  });

  it.each(CASES)('%s: exactly its rule', (_name, draft, customer, seller, code, pointer) => {
    const problems = preflight(draft, customer, seller);
    expect(problems.map((p) => [p.code, p.pointer])).toEqual([[code, pointer]]);
    expect(problems[0]!.detail.length).toBeGreaterThan(10);
  });

  it('has a case for every code, and reports every problem at once', () => {
    expect(new Set(CASES.map((x) => x[4]))).toEqual(new Set(PREFLIGHT_CODES));
    const all = preflight(d({ gross_amount: '0', lines: line({ tax_type: null }) }), c({ tin: null, phone: null }), s({ msic: null }));
    expect(all.map((p) => p.code)).toEqual(['msic_missing', 'buyer_tin_missing', 'phone_not_e164', 'line_tax_type_missing', 'payable_zero']);
  });

  it('a base currency other than MYR leaves no rate to MYR', () => {
    expect(preflight(d({ currency: 'USD', base_currency: 'USD', fx_rate: '1' }), CUSTOMER, SELLER).map((p) => p.code)).toEqual(['exchange_rate_missing']);
  });

  it('sellerPreflight of an empty identity lists every seller field', () => {
    expect(sellerPreflight({}).map((p) => p.pointer)).toEqual(['/seller/tin', '/seller/registration_no', '/seller/msic', '/seller/phone', '/seller/address/line1', '/seller/address/city', '/seller/address/state']);
  });
});

describe('customerPreflight', () => {
  it("is exactly the buyer part of a draft's preflight, for every buyer the cases above name", () => {
    const buyers = [CUSTOMER, GENERAL_PUBLIC, ...CASES.map(([, , customer]) => customer)];
    for (const buyer of buyers) {
      const ofDraft = preflight(DRAFT, buyer, SELLER).filter((p) => p.pointer.startsWith('/customer/'));
      expect(customerPreflight(buyer)).toEqual(ofDraft);
    }
    expect(customerPreflight(CUSTOMER)).toEqual([]);
    expect(customerPreflight(c({ tin: null, phone: '012-345 6789' })).map((p) => p.code)).toEqual(['buyer_tin_missing', 'phone_not_e164']);
  });
});
