/**
 * LHDN's arithmetic (SDK "Mathematical mappings"), checked to the sen: line subtotal = price × quantity,
 * line net = subtotal − discounts + charges, line tax = Σ its subtotals, document line extension = Σ lines,
 * tax exclusive = line extension − allowances + charges, tax inclusive = exclusive + tax, payable =
 * inclusive − prepaid + rounding, tax per type = Σ line tax of that type; payable never zero.
 */
import { Dec } from '../../../lib/money';
import { vError } from './errors';
import type { ValidationError } from './types';
import { list, node, rawValue, text, type UblNode } from './ubl';

const AMOUNT = /^-?\d+(\.\d+)?$/;

/** An amount as a Decimal; undefined when absent; null when present but not a plain decimal (no exponent). */
export function amount(parent: unknown, ...path: string[]): Dec | undefined | null {
  const value = rawValue(parent, ...path);
  if (value === undefined || value === null || value === '') return undefined;
  const str = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!AMOUNT.test(str)) return null;
  return new Dec(str);
}

function sen(value: Dec): string {
  return value.toDecimalPlaces(2, Dec.ROUND_HALF_UP).toFixed(2);
}

function allowancesAndCharges(parent: UblNode): { discounts: Dec; charges: Dec } {
  let discounts = new Dec(0);
  let charges = new Dec(0);
  for (const entry of list(parent, 'AllowanceCharge')) {
    const value = amount(entry, 'Amount') ?? new Dec(0);
    const isCharge = String(rawValue(entry, 'ChargeIndicator')) === 'true';
    if (isCharge) charges = charges.plus(value);
    else discounts = discounts.plus(value);
  }
  return { discounts, charges };
}

export function arithmeticErrors(invoice: UblNode): ValidationError[] {
  const errors: ValidationError[] = [];
  const mismatch = (path: string, what: string, expected: Dec, actual: Dec | undefined | null) => {
    if (actual === null) errors.push(vError('CF410', `${what} is not a valid amount`, path));
    else if (actual !== undefined && sen(expected) !== sen(actual)) {
      errors.push(vError('CF411', `${what} must be ${sen(expected)} but is ${sen(actual)}`, path));
    }
  };
  let linesTotal = new Dec(0);
  const taxByType = new Map<string, Dec>();
  list(invoice, 'InvoiceLine').forEach((line, i) => {
    const at = `$.Invoice[0].InvoiceLine[${i}]`;
    const price = amount(line, 'Price', 'PriceAmount');
    const quantity = amount(line, 'InvoicedQuantity');
    const subtotal = amount(line, 'ItemPriceExtension', 'Amount');
    if (price && quantity) mismatch(`${at}.ItemPriceExtension.Amount`, 'Line subtotal (price × quantity)', price.times(quantity), subtotal);
    const net = amount(line, 'LineExtensionAmount');
    if (subtotal) {
      const { discounts, charges } = allowancesAndCharges(line);
      mismatch(`${at}.LineExtensionAmount`, 'Line net amount (subtotal − discounts + charges)', subtotal.minus(discounts).plus(charges), net);
    }
    if (net) linesTotal = linesTotal.plus(net);
    const taxTotal = node(line, 'TaxTotal');
    let lineTax = new Dec(0);
    for (const sub of list(taxTotal, 'TaxSubtotal')) {
      const tax = amount(sub, 'TaxAmount') ?? new Dec(0);
      lineTax = lineTax.plus(tax);
      const type = text(sub, 'TaxCategory', 'ID') ?? '';
      taxByType.set(type, (taxByType.get(type) ?? new Dec(0)).plus(tax));
    }
    if (taxTotal && list(taxTotal, 'TaxSubtotal').length > 0) {
      mismatch(`${at}.TaxTotal.TaxAmount`, 'Line tax amount (Σ tax subtotals)', lineTax, amount(taxTotal, 'TaxAmount'));
    }
  });

  const totals = node(invoice, 'LegalMonetaryTotal');
  const lineExtension = amount(totals, 'LineExtensionAmount');
  mismatch('$.Invoice[0].LegalMonetaryTotal.LineExtensionAmount', 'Total net amount (Σ line net amounts)', linesTotal, lineExtension);
  const allowance = amount(totals, 'AllowanceTotalAmount') ?? new Dec(0);
  const charge = amount(totals, 'ChargeTotalAmount') ?? new Dec(0);
  const exclusive = amount(totals, 'TaxExclusiveAmount');
  mismatch('$.Invoice[0].LegalMonetaryTotal.TaxExclusiveAmount', 'Total excluding tax (net − allowances + charges)', (lineExtension ?? linesTotal).minus(allowance ?? 0).plus(charge ?? 0), exclusive);

  const docTax = node(invoice, 'TaxTotal');
  const totalTax = amount(docTax, 'TaxAmount');
  let subtotalTax = new Dec(0);
  list(docTax, 'TaxSubtotal').forEach((sub, i) => {
    const tax = amount(sub, 'TaxAmount') ?? new Dec(0);
    subtotalTax = subtotalTax.plus(tax);
    const type = text(sub, 'TaxCategory', 'ID') ?? '';
    const expected = taxByType.get(type);
    if (expected) mismatch(`$.Invoice[0].TaxTotal.TaxSubtotal[${i}].TaxAmount`, `Tax amount of type ${type} (Σ line tax of that type)`, expected, tax);
  });
  const documentTypes = new Set(list(docTax, 'TaxSubtotal').map((sub) => text(sub, 'TaxCategory', 'ID') ?? ''));
  for (const type of taxByType.keys()) {
    if (!documentTypes.has(type)) errors.push(vError('CF413', `Tax type ${type} of the lines has no tax subtotal in the document's TaxTotal`, '$.Invoice[0].TaxTotal.TaxSubtotal'));
  }
  mismatch('$.Invoice[0].TaxTotal.TaxAmount', 'Total tax amount (Σ tax subtotals)', subtotalTax, totalTax);

  const inclusive = amount(totals, 'TaxInclusiveAmount');
  if (exclusive && totalTax) mismatch('$.Invoice[0].LegalMonetaryTotal.TaxInclusiveAmount', 'Total including tax (excluding tax + tax)', exclusive.plus(totalTax), inclusive);
  const prepaid = amount(invoice, 'PrepaidPayment', 'PaidAmount') ?? new Dec(0);
  const rounding = amount(totals, 'PayableRoundingAmount') ?? new Dec(0);
  const payable = amount(totals, 'PayableAmount');
  if (inclusive) mismatch('$.Invoice[0].LegalMonetaryTotal.PayableAmount', 'Payable amount (including tax − prepaid + rounding)', inclusive.minus(prepaid ?? 0).plus(rounding ?? 0), payable);
  if (payable && payable.isZero()) errors.push(vError('CF412', 'Payable amount cannot be zero', '$.Invoice[0].LegalMonetaryTotal.PayableAmount'));
  return errors;
}
