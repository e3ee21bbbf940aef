/**
 * Element order against LHDN's own signed sample (JSON keeps the order it is written in, and XML
 * renditions of it must follow UBL order): every element the builder writes appears in the sample, at
 * every level the sample has, in the sample's relative order. TaxExchangeRate, absent from that sample,
 * sits where LHDN's foreign-currency sample puts it (after AllowanceCharge, before TaxTotal).
 * Two deliberate differences: the buyer's party is compared with the sample's supplier party, because
 * the sample writes the buyer's elements out of UBL order (PostalAddress before PartyIdentification,
 * which UBL's Party schema puts first) while its supplier follows it; and BillingReference's
 * InvoiceDocumentReference (ID, then UUID) comes from LHDN's credit-note sample, not this invoice.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildDocument } from '../../src/integrations/myinvois/document';
import { ORIGINAL, discountedGoodsLine, foreignBuyer, invoiceInput, serviceLine } from './fixtures';

type Node = Record<string, unknown>;
const sample = JSON.parse(readFileSync(new URL('./lhdn-sample-ul-invoice-2.1-signed.json', import.meta.url), 'utf8')) as Node;

/** Paths where our keys are not in the sample's relative order, or unknown to it. */
function outOfOrder(ours: unknown, theirs: unknown, path: string, problems: string[]): string[] {
  if (!ours || typeof ours !== 'object' || !theirs || typeof theirs !== 'object') return problems;
  const a = Array.isArray(ours) ? (ours[0] as Node) : (ours as Node);
  const b = Array.isArray(theirs) ? (theirs[0] as Node) : (theirs as Node);
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return problems;
  const theirKeys = Object.keys(b);
  const positions = Object.keys(a)
    .filter((k) => !(path === '/Invoice' && k === 'TaxExchangeRate'))
    .map((k) => [k, theirKeys.indexOf(k)] as const);
  const fromCreditNote = path === '/Invoice/BillingReference' && Object.keys(a).join() === 'InvoiceDocumentReference';
  for (const [k, i] of positions) if (i < 0 && !fromCreditNote) problems.push(`${path}/${k} unknown to the sample`);
  const known = positions.filter(([, i]) => i >= 0);
  for (let j = 1; j < known.length; j++) {
    if (known[j]![1] < known[j - 1]![1]) problems.push(`${path}: ${known[j]![0]} before ${known[j - 1]![0]}`);
  }
  for (const [k] of known) {
    const their = path === '/Invoice' && k === 'AccountingCustomerParty' ? b.AccountingSupplierParty : b[k];
    outOfOrder(a[k], their, `${path}/${k}`, problems);
  }
  return problems;
}

describe('document layout against LHDN samples', () => {
  it('a full credit note in USD with every optional part follows the sample order', () => {
    const doc = buildDocument(
      invoiceInput({
        typeCode: '02',
        version: '1.1',
        currency: 'USD',
        exchangeRate: '4.72',
        buyer: { ...foreignBuyer, email: 'ap@acme.test', tourismTax: 'NA' },
        billingReferences: [ORIGINAL],
        lines: [serviceLine, discountedGoodsLine],
        totals: { allowance: '1.00', charge: '2.00', prepaid: '10.00', rounding: '0.01' },
        paymentMeansCode: '03',
      }),
    );
    expect(outOfOrder(doc, sample, '', [])).toEqual([]);
    const keys = Object.keys((doc.Invoice as Node[])[0]!);
    expect(keys.slice(keys.indexOf('AllowanceCharge'), keys.indexOf('TaxTotal') + 1)).toEqual(['AllowanceCharge', 'TaxExchangeRate', 'TaxTotal']);
  });
});
