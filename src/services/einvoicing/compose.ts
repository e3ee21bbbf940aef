/**
 * `composeEinvoice`: a receivables document (draft or issued) as the MyInvois builder's input
 * (integrations/myinvois/document `EinvoiceInput`). Pure: the caller reads the rows and passes them.
 *
 * It maps, it does not judge: what is missing stays missing (an empty TIN, no address line, no MSIC)
 * so that the builder refuses it or LHDN does; the preflight (preflight.ts) is what tells a person
 * beforehand. The one thing it refuses itself is a line whose stored net amount is not what LHDN's
 * arithmetic gives (round(quantity × unit price) − discount): the e-invoice would then disagree with
 * the document the customer holds.
 */
import type { DocumentRow, LineRow } from '../../db/queries/receivable-documents';
import type { SellerIdentity } from '../../db/schema/organizations';
import type { FrozenBuyer } from '../../db/schema/receivables';
import {
  EinvoiceBuildError,
  type EinvoiceAddress,
  type EinvoiceBuyer,
  type EinvoiceInput,
  type EinvoiceLine,
  type EinvoiceSupplier,
  type EinvoiceTypeCode,
  type RegistrationScheme,
} from '../../integrations/myinvois/document';
import { Dec, formatAmount, formatRate, roundAmount } from '../../lib/money';
import { GENERAL_PUBLIC_TIN } from './preflight';

export { buyerOf } from '../receivables/freeze-parties';

export interface ComposeInput {
  /** The document (draft or issued). */
  doc: DocumentRow;
  /** Its lines, in line order (findLines). */
  lines: LineRow[];
  /** The issued document's frozen buyer, or for a draft `buyerOf(customer)`. */
  buyer: FrozenBuyer;
  /** The organization's complete seller identity (name included). */
  seller: SellerIdentity;
  version: '1.0' | '1.1';
  /** The document's reference (a draft has none: the caller passes one). */
  number: string;
  issuedAt: Date;
  /** The organization's base currency: the document's fx_rate is to it. */
  baseCurrency: string;
  /** A credit or debit note's original e-invoice (its LHDN UUID and number). */
  original?: { uuid: string; number: string } | null;
}

const TYPE_CODES: Record<DocumentRow['kind'], EinvoiceTypeCode> = {
  sales_invoice: '01',
  customer_credit_note: '02',
  customer_debit_note: '03',
};

const SCHEMES: Record<string, RegistrationScheme> = { brn: 'BRN', nric: 'NRIC', passport: 'PASSPORT', army: 'ARMY' };

/** Tax types that carry no rate (06 not applicable, E exempt): no `Percent` unless a rate is set. */
const RATELESS_TAX_TYPES = new Set(['06', 'E']);

const present = (v: string | null | undefined): v is string => typeof v === 'string' && v.trim() !== '';

function supplierOf(s: SellerIdentity): EinvoiceSupplier {
  const a = s.address ?? {};
  return {
    tin: s.tin ?? '',
    registration: { scheme: 'BRN', id: s.registration_no ?? '' },
    sst: present(s.sst_no) ? s.sst_no : 'NA',
    tourismTax: present(s.tourism_tax_no) ? s.tourism_tax_no : 'NA',
    name: s.name ?? '',
    address: {
      lines: [a.line1, a.line2, a.line3].filter(present),
      city: a.city ?? '',
      ...(present(a.postcode) ? { postcode: a.postcode } : {}),
      state: a.state ?? '',
      // Organizations are Malaysian (MyInvois suppliers), as the issue step freezes them.
      country: present(a.country_code) ? a.country_code : 'MY',
    },
    phone: s.phone ?? '',
    ...(present(s.email) ? { email: s.email } : {}),
    msic: { code: s.msic ?? '', description: s.business_activity ?? '' },
  };
}

/**
 * The buyer block. A buyer without a TIN is left without one: the builder gives LHDN's general TIN
 * (EI00000000010 in Malaysia, EI00000000020 abroad). The general public (Specific Guideline §3.6) has
 * `NA` wherever it has nothing, and state 17.
 */
function buyerBlock(b: FrozenBuyer): EinvoiceBuyer {
  const generalPublic = b.tin?.trim().toUpperCase() === GENERAL_PUBLIC_TIN;
  const orNa = (v: string | null | undefined, na: string) => (present(v) ? v : generalPublic ? na : '');
  const a = b.address;
  const lines = [a.line1, a.line2].filter(present);
  const scheme = b.registration_type ? SCHEMES[b.registration_type] : undefined;
  const address: EinvoiceAddress = {
    lines: lines.length === 0 && generalPublic ? ['NA'] : lines,
    city: orNa(a.city, 'NA'),
    ...(present(a.postcode) ? { postcode: a.postcode } : {}),
    state: orNa(a.state, '17'),
    country: present(a.country_code) ? a.country_code : 'MY',
  };
  return {
    ...(present(b.tin) ? { tin: b.tin.trim() } : {}),
    ...(scheme && present(b.registration_no) ? { registration: { scheme, id: b.registration_no } } : {}),
    sst: present(b.sst_no) ? b.sst_no : 'NA',
    name: b.name,
    address,
    phone: orNa(b.phone, 'NA'),
    ...(present(b.email) ? { email: b.email } : {}),
  };
}

function lineOf(l: LineRow, index: number, currency: string): EinvoiceLine {
  const subtotal = roundAmount(new Dec(l.quantity).times(l.unitPrice), currency);
  const discount = new Dec(l.discountAmount);
  if (!subtotal.minus(discount).eq(l.netAmount)) {
    throw new EinvoiceBuildError(
      `/lines/${index}/net_amount`,
      `${formatAmount(l.netAmount, currency)} is not round(quantity × unit price) − discount (${formatAmount(subtotal.minus(discount), currency)})`,
    );
  }
  const rated = !RATELESS_TAX_TYPES.has(l.taxType) || !new Dec(l.taxRate).isZero();
  return {
    id: String(l.lineNo),
    description: l.description,
    classification: l.classificationCode,
    quantity: formatRate(l.quantity),
    ...(l.unitCode ? { unitCode: l.unitCode } : {}),
    unitPrice: formatRate(l.unitPrice),
    subtotal: formatAmount(subtotal, currency),
    ...(discount.isZero() ? {} : { discount: { amount: formatAmount(discount, currency) } }),
    taxType: l.taxType,
    ...(rated ? { taxRate: formatRate(l.taxRate) } : {}),
    taxAmount: formatAmount(l.taxAmount, currency),
    ...(l.taxExemptionReason !== null ? { exemptionReason: l.taxExemptionReason } : {}),
  };
}

/** "Payment due within 30 days"; "Payment due upon receipt" for 0 days. */
export function paymentTermsText(days: number): string {
  if (days === 0) return 'Payment due upon receipt';
  return `Payment due within ${days} day${days === 1 ? '' : 's'}`;
}

export function composeEinvoice(input: ComposeInput): EinvoiceInput {
  const { doc } = input;
  const currency = doc.currency.toUpperCase();
  const typeCode = TYPE_CODES[doc.kind];
  // The stored rate is to the base currency: it is the rate to MYR only when the base is MYR.
  const exchangeRate = currency !== 'MYR' && input.baseCurrency.toUpperCase() === 'MYR' ? formatRate(doc.fxRate) : undefined;
  return {
    typeCode,
    version: input.version,
    number: input.number,
    issuedAt: input.issuedAt,
    currency,
    ...(exchangeRate !== undefined ? { exchangeRate } : {}),
    supplier: supplierOf(input.seller),
    buyer: buyerBlock(input.buyer),
    lines: input.lines.map((l, i) => lineOf(l, i, currency)),
    ...(input.original ? { billingReferences: [{ uuid: input.original.uuid, number: input.original.number }] } : {}),
    // A credit note owes nothing: no payment terms on it.
    ...(typeCode === '02' ? {} : { paymentTerms: paymentTermsText(doc.paymentTermsDays) }),
  };
}
