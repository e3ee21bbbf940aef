/**
 * LHDN's arithmetic (SDK mathematical mappings), exact to the sen: line nets, line extension, tax
 * exclusive / inclusive, payable, tax per type; amounts that a double cannot carry exactly are refused
 * rather than changed.
 */
import { describe, expect, it } from 'vitest';
import { arithmeticProblems, buildDocument } from '../../src/integrations/myinvois/document';
import { discountedGoodsLine, exemptLine, invoiceInput, serviceLine } from './fixtures';

type Node = Record<string, unknown>;
function at(node: unknown, ...keys: string[]): Node {
  return keys.reduce<Node>((n, k) => (n[k] as Node[])[0]!, node as Node);
}

describe('document arithmetic', () => {
  const lines = [serviceLine, discountedGoodsLine, exemptLine];

  it('adds up three lines with a discount, two tax types and an exemption', () => {
    const doc = buildDocument(invoiceInput({ lines }));
    const inv = at(doc, 'Invoice');
    // nets 200.00 + 90.00 + 55.55 = 345.55; tax 16.00 + 9.00 + 0.00 = 25.00
    expect(inv.LegalMonetaryTotal).toEqual([
      {
        LineExtensionAmount: [{ _: 345.55, currencyID: 'MYR' }],
        TaxExclusiveAmount: [{ _: 345.55, currencyID: 'MYR' }],
        TaxInclusiveAmount: [{ _: 370.55, currencyID: 'MYR' }],
        PayableAmount: [{ _: 370.55, currencyID: 'MYR' }],
      },
    ]);
    const subtotals = (at(inv, 'TaxTotal').TaxSubtotal as Node[]).map((s) => [
      at(s, 'TaxCategory', 'ID')._,
      at(s, 'TaxableAmount')._,
      at(s, 'TaxAmount')._,
    ]);
    expect(subtotals).toEqual([
      ['02', 200, 16],
      ['01', 90, 9],
      ['E', 55.55, 0],
    ]);
    expect(at(inv, 'TaxTotal', 'TaxAmount')).toEqual({ _: 25, currencyID: 'MYR' });
    expect(arithmeticProblems(doc)).toEqual([]);
  });

  it('writes the line discount as an allowance and the net after it', () => {
    const line = (at(buildDocument(invoiceInput({ lines })), 'Invoice').InvoiceLine as Node[])[1]!;
    expect(line.AllowanceCharge).toEqual([
      { ChargeIndicator: [{ _: false }], AllowanceChargeReason: [{ _: 'Volume discount' }], Amount: [{ _: 10.01, currencyID: 'MYR' }] },
    ]);
    expect(line.LineExtensionAmount).toEqual([{ _: 90, currencyID: 'MYR' }]);
    expect(line.Price).toEqual([{ PriceAmount: [{ _: 33.335, currencyID: 'MYR' }] }]);
    expect(line.ItemPriceExtension).toEqual([{ Amount: [{ _: 100.01, currencyID: 'MYR' }] }]);
  });

  it('adds document discount, charge, prepayment and rounding as LHDN defines payable', () => {
    const doc = buildDocument(
      invoiceInput({ lines, totals: { allowance: '5.55', charge: '10.00', prepaid: '100.00', rounding: '-0.02' } }),
    );
    const inv = at(doc, 'Invoice');
    // tax exclusive 345.55 - 5.55 + 10.00 = 350.00; inclusive 375.00; payable 375.00 - 100.00 - 0.02 = 274.98
    expect(inv.LegalMonetaryTotal).toEqual([
      {
        LineExtensionAmount: [{ _: 345.55, currencyID: 'MYR' }],
        TaxExclusiveAmount: [{ _: 350, currencyID: 'MYR' }],
        TaxInclusiveAmount: [{ _: 375, currencyID: 'MYR' }],
        AllowanceTotalAmount: [{ _: 5.55, currencyID: 'MYR' }],
        ChargeTotalAmount: [{ _: 10, currencyID: 'MYR' }],
        PayableRoundingAmount: [{ _: -0.02, currencyID: 'MYR' }],
        PayableAmount: [{ _: 274.98, currencyID: 'MYR' }],
      },
    ]);
    expect(inv.PrepaidPayment).toEqual([{ PaidAmount: [{ _: 100, currencyID: 'MYR' }] }]);
    expect(arithmeticProblems(doc)).toEqual([]);
  });

  it('is exact where binary floating point is not (0.1 + 0.2, many small lines)', () => {
    const small = Array.from({ length: 30 }, (_, i) => ({
      ...serviceLine,
      id: String(i + 1),
      quantity: '1',
      unitPrice: i % 2 ? '0.10' : '0.20',
      subtotal: i % 2 ? '0.10' : '0.20',
      taxAmount: i % 2 ? '0.01' : '0.02',
    }));
    const doc = buildDocument(invoiceInput({ lines: small }));
    const totals = at(doc, 'Invoice', 'LegalMonetaryTotal');
    expect(at(totals, 'LineExtensionAmount')._).toBe(4.5);
    expect(at(totals, 'PayableAmount')._).toBe(4.95);
    expect(JSON.stringify(totals)).toContain('"PayableAmount":[{"_":4.95,');
    expect(arithmeticProblems(doc)).toEqual([]);
  });

  it('refuses a subtotal that is not unit price × quantity, and amounts finer than the sen', () => {
    expect(() => buildDocument(invoiceInput({ lines: [{ ...serviceLine, subtotal: '200.01' }] }))).toThrow(/unit price × quantity/);
    expect(() => buildDocument(invoiceInput({ lines: [{ ...serviceLine, taxAmount: '16.001' }] }))).toThrow(/more places/);
  });

  it('refuses a payable amount of zero (LHDN never accepts it)', () => {
    expect(() => buildDocument(invoiceInput({ totals: { prepaid: '216.00' } }))).toThrow(/zero/);
  });

  it('refuses an amount a JSON number cannot carry exactly', () => {
    const huge = { ...serviceLine, quantity: '1', unitPrice: '12345678901234567.89', subtotal: '12345678901234567.89' };
    expect(() => buildDocument(invoiceInput({ lines: [huge] }))).toThrow(/exactly/);
  });

  it('the checker names what does not add up', () => {
    const doc = buildDocument(invoiceInput()) as unknown as Node;
    (at(doc, 'Invoice', 'LegalMonetaryTotal').PayableAmount as Node[])[0]!._ = 216.01;
    expect(arithmeticProblems(doc)).toEqual(['LegalMonetaryTotal.PayableAmount: 216.01 ≠ 216']);
  });
});
