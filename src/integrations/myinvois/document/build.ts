/**
 * `buildDocument`: the UBL 2.1 JSON `Invoice` LHDN MyInvois accepts, for type codes 01 (invoice),
 * 02 (credit note), 03 (debit note) and 04 (refund note), version 1.0 or 1.1 (1.1 is then signed by
 * ../signature.ts). Element order follows LHDN's samples; the object is serialised once by
 * ../serialize.ts and those bytes are what is stored, hashed and submitted.
 */
import { currencyMinorUnits } from '../../../lib/code-lists';
import { Dec, formatRate } from '../../../lib/money';
import { checkLine, documentTaxTotal, invoiceLine } from './lines';
import { buyerParty, buyerTin, supplierParty } from './party';
import { computeTotals, documentAllowanceCharges, legalMonetaryTotal } from './totals';
import { EinvoiceBuildError, GENERAL_TIN, type EinvoiceInput } from './types';
import { exactNumber, issueDateTime, val } from './values';

export const UBL_NAMESPACES = {
  _D: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  _A: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  _B: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
} as const;

export interface UblDocument {
  _D: string;
  _A: string;
  _B: string;
  Invoice: [Record<string, unknown>];
}

function checkHeader(input: EinvoiceInput): void {
  if (!['01', '02', '03', '04'].includes(input.typeCode)) throw new EinvoiceBuildError('/typeCode', 'must be 01, 02, 03 or 04');
  if (input.version !== '1.0' && input.version !== '1.1') throw new EinvoiceBuildError('/version', 'must be 1.0 or 1.1');
  if (!input.number || input.number.length > 50) throw new EinvoiceBuildError('/number', 'one to 50 characters');
  if (currencyMinorUnits(input.currency) === undefined) throw new EinvoiceBuildError('/currency', `unknown currency ${input.currency}`);
  if (input.currency !== 'MYR' && !input.exchangeRate) throw new EinvoiceBuildError('/exchangeRate', `required for ${input.currency}`);
  if (input.lines.length === 0) throw new EinvoiceBuildError('/lines', 'at least one line');
  const refs = input.billingReferences ?? [];
  if (input.typeCode !== '01' && refs.length === 0) {
    throw new EinvoiceBuildError('/billingReferences', 'a credit, debit or refund note names the original document');
  }
  if (input.typeCode === '01' && refs.length > 0) throw new EinvoiceBuildError('/billingReferences', 'only for notes');
  // Consolidated e-invoices (classification 004) go to the general public, and only they do.
  const consolidated = input.lines.map((l) => (Array.isArray(l.classification) ? l.classification : [l.classification]).includes('004'));
  const generalPublic = buyerTin(input.buyer) === GENERAL_TIN.general_public;
  if (consolidated.some((c) => c) && (!consolidated.every((c) => c) || !generalPublic)) {
    throw new EinvoiceBuildError('/lines', 'classification 004 needs every line consolidated and the general-public buyer');
  }
}

export function buildDocument(input: EinvoiceInput): UblDocument {
  checkHeader(input);
  const currency = input.currency;
  const checked = input.lines.map((line, i) => checkLine(line, i, currency));
  const totals = computeTotals(checked, input);
  const { date, time } = issueDateTime(input.issuedAt);
  const allowanceCharges = documentAllowanceCharges(totals, currency);
  const refs = input.billingReferences ?? [];
  const invoice: Record<string, unknown> = {
    ID: val(input.number),
    IssueDate: val(date),
    IssueTime: val(time),
    InvoiceTypeCode: val(input.typeCode, { listVersionID: input.version }),
    DocumentCurrencyCode: val(currency),
    ...(refs.length > 0
      ? { BillingReference: [{ InvoiceDocumentReference: refs.map((r) => ({ ID: val(r.number), UUID: val(r.uuid) })) }] }
      : {}),
    AccountingSupplierParty: supplierParty(input.supplier),
    AccountingCustomerParty: buyerParty(input.buyer),
    ...(input.paymentMeansCode ? { PaymentMeans: [{ PaymentMeansCode: val(input.paymentMeansCode) }] } : {}),
    ...(input.paymentTerms ? { PaymentTerms: [{ Note: val(input.paymentTerms) }] } : {}),
    ...(!new Dec(totals.prepaid).isZero()
      ? { PrepaidPayment: [{ PaidAmount: [{ _: exactNumber(totals.prepaid, '/totals/prepaid'), currencyID: currency }] }] }
      : {}),
    ...(allowanceCharges.length > 0 ? { AllowanceCharge: allowanceCharges } : {}),
    ...(currency !== 'MYR'
      ? {
          TaxExchangeRate: [
            {
              SourceCurrencyCode: val(currency),
              TargetCurrencyCode: val('MYR'),
              CalculationRate: val(exactNumber(formatRate(input.exchangeRate as string), '/exchangeRate')),
            },
          ],
        }
      : {}),
    TaxTotal: documentTaxTotal(checked, currency),
    LegalMonetaryTotal: legalMonetaryTotal(totals, currency),
    InvoiceLine: checked.map((c, i) => invoiceLine(c, i, currency)),
  };
  return { ...UBL_NAMESPACES, Invoice: [invoice] };
}
