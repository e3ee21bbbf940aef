/**
 * Document totals (`LegalMonetaryTotal`) computed with decimal.js as LHDN's mathematical mappings
 * define them: line extension = Σ line nets; tax exclusive = line extension − allowance + charge;
 * tax inclusive = tax exclusive + Σ tax; payable = tax inclusive − prepaid + rounding. A payable
 * amount of zero is refused (LHDN never accepts it).
 */
import { Dec } from '../../../lib/money';
import type { CheckedLine } from './lines';
import { EinvoiceBuildError, type EinvoiceInput } from './types';
import { amount, checkedAmount, sum } from './values';

export interface DocumentTotals {
  lineExtension: string;
  allowance: string;
  charge: string;
  taxExclusive: string;
  tax: string;
  taxInclusive: string;
  prepaid: string;
  rounding: string;
  payable: string;
}

export function computeTotals(lines: CheckedLine[], input: EinvoiceInput): DocumentTotals {
  const c = input.currency;
  const t = input.totals ?? {};
  const allowance = checkedAmount(t.allowance ?? '0', c, '/totals/allowance');
  const charge = checkedAmount(t.charge ?? '0', c, '/totals/charge');
  const prepaid = checkedAmount(t.prepaid ?? '0', c, '/totals/prepaid');
  const rounding = checkedAmount(t.rounding ?? '0', c, '/totals/rounding');
  const lineExtension = sum(lines.map((l) => l.net));
  const tax = sum(lines.map((l) => l.tax));
  const taxExclusive = new Dec(lineExtension).minus(allowance).plus(charge).toFixed();
  const taxInclusive = new Dec(taxExclusive).plus(tax).toFixed();
  const payable = new Dec(taxInclusive).minus(prepaid).plus(rounding).toFixed();
  if (new Dec(payable).isZero()) throw new EinvoiceBuildError('/totals', 'LHDN refuses a payable amount of zero');
  return { lineExtension, allowance, charge, taxExclusive, tax, taxInclusive, prepaid, rounding, payable };
}

function isZero(value: string): boolean {
  return new Dec(value).isZero();
}

export function legalMonetaryTotal(t: DocumentTotals, currency: string): Array<Record<string, unknown>> {
  return [
    {
      LineExtensionAmount: amount(t.lineExtension, currency, '/totals/lineExtension'),
      TaxExclusiveAmount: amount(t.taxExclusive, currency, '/totals/taxExclusive'),
      TaxInclusiveAmount: amount(t.taxInclusive, currency, '/totals/taxInclusive'),
      ...(isZero(t.allowance) ? {} : { AllowanceTotalAmount: amount(t.allowance, currency, '/totals/allowance') }),
      ...(isZero(t.charge) ? {} : { ChargeTotalAmount: amount(t.charge, currency, '/totals/charge') }),
      ...(isZero(t.rounding) ? {} : { PayableRoundingAmount: amount(t.rounding, currency, '/totals/rounding') }),
      PayableAmount: amount(t.payable, currency, '/totals/payable'),
    },
  ];
}

/** Document-level discount and charge as `AllowanceCharge` entries (only those that are not zero). */
export function documentAllowanceCharges(t: DocumentTotals, currency: string): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  if (!isZero(t.allowance)) {
    out.push({ ChargeIndicator: [{ _: false }], AllowanceChargeReason: [{ _: 'Discount' }], Amount: amount(t.allowance, currency, '/totals/allowance') });
  }
  if (!isZero(t.charge)) {
    out.push({ ChargeIndicator: [{ _: true }], AllowanceChargeReason: [{ _: 'Charge' }], Amount: amount(t.charge, currency, '/totals/charge') });
  }
  return out;
}
