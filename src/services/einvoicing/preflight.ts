/**
 * E-invoicing preflight (docs/myinvois.md point 2): a pure function of a draft receivables document, its
 * customer and the organization's seller identity answering every reason LHDN MyInvois would refuse
 * the document, each `{pointer, code, detail}` with a stable code per rule. No I/O: the callers read
 * the rows (services/einvoicing/readiness.ts) and pass plain values.
 */
import type { SellerIdentity } from '../../db/schema/organizations';
import { Dec } from '../../lib/money';

export interface PreflightProblem {
  pointer: string;
  code: PreflightCode;
  detail: string;
}

export const PREFLIGHT_CODES = [
  'seller_tin_missing',
  'seller_registration_missing',
  'msic_missing',
  'phone_not_e164',
  'address_line_missing',
  'address_city_missing',
  'address_state_missing',
  'state_not_applicable_in_malaysia',
  'buyer_tin_missing',
  'buyer_registration_missing',
  'line_tax_type_missing',
  'exemption_reason_missing',
  'exemption_reason_invalid',
  'consolidated_without_general_public',
  'general_public_without_consolidated',
  'payable_zero',
  'exchange_rate_missing',
  'original_not_validated',
] as const;
export type PreflightCode = (typeof PREFLIGHT_CODES)[number];

export const GENERAL_PUBLIC_TIN = 'EI00000000010';
export const FOREIGN_BUYER_TIN = 'EI00000000020';
export const CONSOLIDATED_CLASSIFICATION = '004';

export interface PreflightAddress {
  line1?: string | null;
  city?: string | null;
  state?: string | null;
  /** ISO 3166-1 alpha-2 (alpha-3 accepted). */
  country_code?: string | null;
}

export interface PreflightCustomer {
  country_code: string;
  tin: string | null;
  registration_type: string | null;
  registration_no: string | null;
  phone: string | null;
  address: PreflightAddress;
}

export interface PreflightLine {
  classification_code: string;
  tax_type: string | null;
  tax_exemption_reason: string | null;
}

export interface PreflightDraft {
  kind: 'sales_invoice' | 'customer_credit_note' | 'customer_debit_note';
  currency: string;
  /** The organization's base currency (the rate is to it). */
  base_currency: string;
  fx_rate: string | null;
  gross_amount: string;
  lines: PreflightLine[];
  /** A credit or debit note's original document: its LHDN UUID once LHDN validated it. */
  original?: { reference: string | null; lhdn_uuid: string | null } | null;
}

/** E.164: a leading +, a non-zero country digit, 8 to 15 digits in all (LHDN: 8-20 characters, no spaces). */
export const E164 = /^\+[1-9]\d{7,14}$/;
/** LHDN accepts only letters, digits, spaces and `. - , ( )` in an exemption reason (≤300). */
const EXEMPTION_REASON = /^[A-Za-z0-9 .,()-]{1,300}$/;

const blank = (v: string | null | undefined) => v === null || v === undefined || v.trim() === '';
const isMalaysia = (country: string | null | undefined) => !country || country.toUpperCase() === 'MY' || country.toUpperCase() === 'MYS';

type Push = (pointer: string, code: PreflightCode, detail: string) => void;

function checkPhone(push: Push, pointer: string, phone: string | null | undefined, who: string) {
  if (blank(phone)) push(pointer, 'phone_not_e164', `The ${who}'s phone is missing; MyInvois needs it in E.164 form (e.g. +60123456789)`);
  else if (!E164.test(phone!)) push(pointer, 'phone_not_e164', `The ${who}'s phone ${phone} is not in E.164 form (a leading +, country code, no spaces, e.g. +60123456789)`);
}

function checkAddress(push: Push, base: string, address: PreflightAddress | null | undefined, who: string) {
  const a = address ?? {};
  if (blank(a.line1)) push(`${base}/line1`, 'address_line_missing', `The ${who}'s address has no first line`);
  if (blank(a.city)) push(`${base}/city`, 'address_city_missing', `The ${who}'s address has no city`);
  if (blank(a.state)) push(`${base}/state`, 'address_state_missing', `The ${who}'s address has no state code (01-16 in Malaysia, 17 outside it)`);
  else if (a.state === '17' && isMalaysia(a.country_code)) {
    push(`${base}/state`, 'state_not_applicable_in_malaysia', `State code 17 (Not Applicable) is only for addresses outside Malaysia or consolidated e-invoices; give the ${who}'s state (01-16)`);
  }
}

/** The seller identity's problems (also what enabling e-invoicing requires). Pointers under `/seller`. */
export function sellerPreflight(seller: SellerIdentity | null | undefined): PreflightProblem[] {
  const out: PreflightProblem[] = [];
  const push: Push = (pointer, code, detail) => out.push({ pointer, code, detail });
  const s = seller ?? {};
  if (blank(s.tin)) push('/seller/tin', 'seller_tin_missing', "The organization's TIN is missing (organization.profile)");
  if (blank(s.registration_no)) push('/seller/registration_no', 'seller_registration_missing', "The organization's business registration number (BRN) is missing");
  if (blank(s.msic)) push('/seller/msic', 'msic_missing', "The organization's MSIC code is missing (00000 when not applicable)");
  else if (blank(s.business_activity)) push('/seller/business_activity', 'msic_missing', "The organization's business activity (printed beside the MSIC code) is missing");
  checkPhone(push, '/seller/phone', s.phone, 'organization');
  checkAddress(push, '/seller/address', { ...(s.address ?? {}), country_code: s.address?.country_code || 'MY' }, 'organization');
  return out;
}

function buyerPreflight(push: Push, customer: PreflightCustomer, generalPublic: boolean) {
  if (generalPublic) return; // name "General Public", everything else NA (Specific Guideline §3.6).
  const foreign = !isMalaysia(customer.country_code);
  if (blank(customer.tin) && !foreign) {
    push('/customer/tin', 'buyer_tin_missing', `The customer has no TIN; a Malaysian buyer needs one (${GENERAL_PUBLIC_TIN} only on a consolidated e-invoice, ${FOREIGN_BUYER_TIN} only for a foreign buyer)`);
  }
  if (!foreign && (blank(customer.registration_type) || blank(customer.registration_no))) {
    push('/customer/registration_no', 'buyer_registration_missing', 'The customer has no registration (type brn, nric, passport or army, and its number)');
  }
  checkPhone(push, '/customer/phone', customer.phone, 'customer');
  checkAddress(push, '/customer/address', { ...customer.address, country_code: customer.country_code }, 'customer');
}

function linePreflight(push: Push, lines: PreflightLine[]) {
  lines.forEach((line, i) => {
    const p = `/lines/${i}`;
    if (blank(line.tax_type)) push(`${p}/tax_type`, 'line_tax_type_missing', `Line ${i + 1} has no tax type`);
    else if (line.tax_type === 'E') {
      const reason = line.tax_exemption_reason;
      if (blank(reason)) push(`${p}/tax_exemption_reason`, 'exemption_reason_missing', `Line ${i + 1} is exempt (tax type E) without an exemption reason`);
      else if (!EXEMPTION_REASON.test(reason!)) {
        push(`${p}/tax_exemption_reason`, 'exemption_reason_invalid', `Line ${i + 1}'s exemption reason may hold only letters, digits, spaces and . - , ( ) (at most 300 characters)`);
      }
    }
  });
}

/**
 * A customer's own part of the preflight: what LHDN would refuse in any document to this buyer
 * (TIN, registration, phone, address), the same checks a draft's preflight runs on its customer.
 * Pointers under `/customer`.
 */
export function customerPreflight(customer: PreflightCustomer): PreflightProblem[] {
  const out: PreflightProblem[] = [];
  const push: Push = (pointer, code, detail) => out.push({ pointer, code, detail });
  buyerPreflight(push, customer, customer.tin?.trim().toUpperCase() === GENERAL_PUBLIC_TIN);
  return out;
}

/** Every reason LHDN would refuse this draft, in a stable order (seller, buyer, lines, document). */
export function preflight(draft: PreflightDraft, customer: PreflightCustomer, seller: SellerIdentity | null | undefined): PreflightProblem[] {
  const out = sellerPreflight(seller);
  const push: Push = (pointer, code, detail) => out.push({ pointer, code, detail });
  const generalPublic = customer.tin?.trim().toUpperCase() === GENERAL_PUBLIC_TIN;
  buyerPreflight(push, customer, generalPublic);
  linePreflight(push, draft.lines);

  const consolidated = draft.lines.map((l, i) => [l.classification_code === CONSOLIDATED_CLASSIFICATION, i] as const);
  if (generalPublic) {
    for (const [is, i] of consolidated) {
      if (!is) push(`/lines/${i}/classification_code`, 'general_public_without_consolidated', `The buyer is the general public (${GENERAL_PUBLIC_TIN}): line ${i + 1} must be classified 004 (consolidated e-invoice)`);
    }
  } else {
    for (const [is, i] of consolidated) {
      if (is) push(`/lines/${i}/classification_code`, 'consolidated_without_general_public', `Line ${i + 1} is classified 004 (consolidated e-invoice) but the buyer is not the general public (${GENERAL_PUBLIC_TIN})`);
    }
  }
  if (new Dec(draft.gross_amount).isZero()) push('/gross_amount', 'payable_zero', 'LHDN never accepts a payable amount of zero');
  if (draft.currency.toUpperCase() !== 'MYR') {
    const rate = draft.fx_rate === null || blank(draft.fx_rate) ? undefined : new Dec(draft.fx_rate);
    if (!rate || rate.lte(0) || draft.base_currency.toUpperCase() !== 'MYR') {
      push('/fx_rate', 'exchange_rate_missing', `A document in ${draft.currency} needs its exchange rate to MYR`);
    }
  }
  if (draft.kind !== 'sales_invoice' && (!draft.original || blank(draft.original.lhdn_uuid))) {
    const which = draft.original?.reference ?? 'the original document';
    push('/original_invoice_id', 'original_not_validated', `${which} has no LHDN UUID yet: a ${draft.kind === 'customer_credit_note' ? 'credit' : 'debit'} note can be submitted only once its original is validated`);
  }
  return out;
}
