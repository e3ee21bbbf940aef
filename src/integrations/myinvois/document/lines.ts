/**
 * Invoice lines of the MyInvois document and the tax subtotals per tax type. Each line's arithmetic is
 * checked with decimal.js before anything is written: subtotal = unit price × quantity (to the currency's
 * minor units), net (`LineExtensionAmount`) = subtotal − discount, exemption only with tax type E.
 */
import { Dec, roundAmount } from '../../../lib/money';
import { EinvoiceBuildError, type EinvoiceLine } from './types';
import { TAX_SCHEME, amount, checkedAmount, exactNumber, sum, val } from './values';

const TAX_TYPES = new Set(['01', '02', '03', '04', '05', '06', 'E']);
const EXEMPTION_REASON = /^[A-Za-z0-9 .,()-]+$/;

/** A line with its amounts checked, as decimal strings. */
export interface CheckedLine {
  line: EinvoiceLine;
  subtotal: string;
  discount: string;
  net: string;
  tax: string;
  /** What the tax subtotal says is taxable: the net amount, or the amount exempted for type E. */
  taxable: string;
}

export function checkLine(line: EinvoiceLine, index: number, currency: string): CheckedLine {
  const at = `/lines/${index}`;
  if (!TAX_TYPES.has(line.taxType)) throw new EinvoiceBuildError(`${at}/taxType`, `unknown tax type ${line.taxType}`);
  const subtotal = checkedAmount(line.subtotal, currency, `${at}/subtotal`);
  const expected = roundAmount(new Dec(line.unitPrice).times(line.quantity), currency);
  if (!expected.eq(subtotal)) {
    throw new EinvoiceBuildError(`${at}/subtotal`, `${subtotal} is not unit price × quantity (${expected.toFixed()})`);
  }
  const discount = checkedAmount(line.discount?.amount ?? '0', currency, `${at}/discount/amount`);
  const tax = checkedAmount(line.taxAmount, currency, `${at}/taxAmount`);
  const net = new Dec(subtotal).minus(discount).toFixed();
  const exempt = line.taxType === 'E';
  if (exempt && !line.exemptionReason) throw new EinvoiceBuildError(`${at}/exemptionReason`, 'required for tax type E');
  if (!exempt && (line.exemptionReason || line.exemptedAmount)) {
    throw new EinvoiceBuildError(`${at}/exemptionReason`, 'only for tax type E');
  }
  if (line.exemptionReason && (!EXEMPTION_REASON.test(line.exemptionReason) || line.exemptionReason.length > 300)) {
    throw new EinvoiceBuildError(`${at}/exemptionReason`, 'at most 300 letters, digits, spaces and . - , ( )');
  }
  const taxable = exempt && line.exemptedAmount ? checkedAmount(line.exemptedAmount, currency, `${at}/exemptedAmount`) : net;
  return { line, subtotal, discount, net, tax, taxable };
}

function taxCategory(taxType: string, exemptionReason: string | undefined): Array<Record<string, unknown>> {
  return [
    {
      ID: val(taxType),
      ...(exemptionReason ? { TaxExemptionReason: val(exemptionReason) } : {}),
      TaxScheme: TAX_SCHEME,
    },
  ];
}

export function invoiceLine(c: CheckedLine, index: number, currency: string): Record<string, unknown> {
  const { line } = c;
  const at = `/lines/${index}`;
  const classes = Array.isArray(line.classification) ? line.classification : [line.classification];
  if (classes.length === 0) throw new EinvoiceBuildError(`${at}/classification`, 'at least one classification code');
  const quantity = exactNumber(line.quantity, `${at}/quantity`);
  return {
    ID: val(line.id),
    InvoicedQuantity: val(quantity, line.unitCode ? { unitCode: line.unitCode } : {}),
    LineExtensionAmount: amount(c.net, currency, `${at}/net`),
    ...(line.discount && !new Dec(c.discount).isZero()
      ? {
          AllowanceCharge: [
            {
              ChargeIndicator: val(false),
              AllowanceChargeReason: val(line.discount.reason ?? 'Discount'),
              Amount: amount(c.discount, currency, `${at}/discount/amount`),
            },
          ],
        }
      : {}),
    TaxTotal: [
      {
        TaxAmount: amount(c.tax, currency, `${at}/taxAmount`),
        TaxSubtotal: [
          {
            TaxableAmount: amount(c.taxable, currency, `${at}/taxable`),
            TaxAmount: amount(c.tax, currency, `${at}/taxAmount`),
            ...(line.taxRate !== undefined ? { Percent: val(exactNumber(line.taxRate, `${at}/taxRate`)) } : {}),
            TaxCategory: taxCategory(line.taxType, line.exemptionReason),
          },
        ],
      },
    ],
    Item: [
      {
        CommodityClassification: classes.map((code) => ({ ItemClassificationCode: val(code, { listID: 'CLASS' }) })),
        Description: val(line.description),
      },
    ],
    Price: [{ PriceAmount: val(exactNumber(new Dec(line.unitPrice).toFixed(), `${at}/unitPrice`), { currencyID: currency }) }],
    ItemPriceExtension: [{ Amount: amount(c.subtotal, currency, `${at}/subtotal`) }],
  };
}

/** Per tax type, in first-seen order: taxable amount and tax (Σ of its lines). */
export function taxSubtotals(lines: CheckedLine[]): Array<{ taxType: string; taxable: string; tax: string }> {
  const byType = new Map<string, CheckedLine[]>();
  for (const c of lines) byType.set(c.line.taxType, [...(byType.get(c.line.taxType) ?? []), c]);
  return [...byType].map(([taxType, group]) => ({
    taxType,
    taxable: sum(group.map((c) => c.taxable)),
    tax: sum(group.map((c) => c.tax)),
  }));
}

export function documentTaxTotal(lines: CheckedLine[], currency: string): Array<Record<string, unknown>> {
  const subtotals = taxSubtotals(lines);
  return [
    {
      TaxAmount: amount(sum(lines.map((c) => c.tax)), currency, '/taxTotal'),
      TaxSubtotal: subtotals.map((s) => ({
        TaxableAmount: amount(s.taxable, currency, `/taxTotal/${s.taxType}/taxable`),
        TaxAmount: amount(s.tax, currency, `/taxTotal/${s.taxType}/tax`),
        TaxCategory: taxCategory(s.taxType, undefined),
      })),
    },
  ];
}
