/**
 * The plain input of the MyInvois document builder (`buildDocument`): everything an e-invoice, credit
 * note, debit note or refund note says, already decided by the caller. Amounts, quantities and rates
 * are decimal strings ("12.50"); countries are ISO 3166-1 alpha-2 (the builder writes alpha-3).
 */

/** 01 invoice, 02 credit note, 03 debit note, 04 refund note. */
export type EinvoiceTypeCode = '01' | '02' | '03' | '04';
/** 1.0 unsigned, 1.1 signed (see ../signature.ts). */
export type EinvoiceVersion = '1.0' | '1.1';

export type RegistrationScheme = 'BRN' | 'NRIC' | 'PASSPORT' | 'ARMY';

export interface EinvoiceAddress {
  /** One to three lines, each at most 150 characters. */
  lines: string[];
  city: string;
  postcode?: string;
  /** LHDN state code 01–16, or 17 (not applicable) outside Malaysia / for consolidated documents. */
  state: string;
  /** ISO 3166-1 alpha-2 (`MY`). */
  country: string;
}

export interface EinvoiceParty {
  /** LHDN TIN. Omit for a buyer without one: the general TIN is used (see GENERAL_TIN). */
  tin?: string;
  /** BRN / NRIC / passport / army number; omitted means `BRN` `NA` (general public, foreign buyer). */
  registration?: { scheme: RegistrationScheme; id: string };
  /** SST registration number(s) (at most two joined by `;`), or `NA`. Defaults to `NA`. */
  sst?: string;
  /** Tourism tax registration number or `NA`. Supplier: defaults to `NA`; buyer: omitted unless given. */
  tourismTax?: string;
  name: string;
  address: EinvoiceAddress;
  /** E.164 (`+60123456789`), or `NA` for the general public. */
  phone: string;
  email?: string;
}

export interface EinvoiceSupplier extends EinvoiceParty {
  tin: string;
  registration: { scheme: RegistrationScheme; id: string };
  /** MSIC 2008 code (5 digits) and its activity description. */
  msic: { code: string; description: string };
}

export interface EinvoiceBuyer extends EinvoiceParty {
  /**
   * Who the buyer is when it has no TIN: `general_public` (EI00000000010, consolidated documents and
   * individuals giving no TIN) or `foreign` (EI00000000020). Derived from the country when omitted.
   */
  generalTin?: 'general_public' | 'foreign';
}

export interface EinvoiceLine {
  /** Line number as the document shows it ("1", "2", …). */
  id: string;
  description: string;
  /** LHDN classification code(s) (`022`, `004` consolidated, …); the first is the main one. */
  classification: string | string[];
  quantity: string;
  /** UN/ECE Recommendation 20 unit code (`C62`); omitted means no unit. */
  unitCode?: string;
  unitPrice: string;
  /** Unit price × quantity, in the document currency. */
  subtotal: string;
  /** Line discount (an allowance); the line's net amount is subtotal − discount. */
  discount?: { amount: string; reason?: string };
  /** LHDN tax type: 01–05, 06 not applicable, E exempt. */
  taxType: string;
  /** Percentage rate ("8"); omitted for 06 / E without a rate. */
  taxRate?: string;
  taxAmount: string;
  /** Tax type E: reason (only `. - , ( )` as special characters) and the amount exempted. */
  exemptionReason?: string;
  exemptedAmount?: string;
}

export interface EinvoiceInput {
  typeCode: EinvoiceTypeCode;
  version: EinvoiceVersion;
  /** The document's own number (≤ 50 characters). */
  number: string;
  /** Issue instant; written as UTC date and `hh:mm:ssZ` time. */
  issuedAt: Date | string;
  /** ISO 4217 document currency. */
  currency: string;
  /** MYR per one unit of `currency`; required when the currency is not MYR. */
  exchangeRate?: string;
  supplier: EinvoiceSupplier;
  buyer: EinvoiceBuyer;
  lines: EinvoiceLine[];
  /** Document-level adjustments (all optional, default 0). */
  totals?: {
    allowance?: string;
    charge?: string;
    prepaid?: string;
    rounding?: string;
  };
  /** Credit, debit and refund notes: the original document(s) (LHDN UUID and internal number). */
  billingReferences?: Array<{ uuid: string; number: string }>;
  /** Free text such as "Payment due within 30 days". */
  paymentTerms?: string;
  /** LHDN payment mode code 01–08. */
  paymentMeansCode?: string;
}

export const GENERAL_TIN = {
  general_public: 'EI00000000010',
  foreign: 'EI00000000020',
} as const;

/** A builder refusal: the input cannot give a document LHDN would accept. */
export class EinvoiceBuildError extends Error {
  constructor(
    readonly pointer: string,
    detail: string,
  ) {
    super(`${pointer}: ${detail}`);
    this.name = 'EinvoiceBuildError';
  }
}
