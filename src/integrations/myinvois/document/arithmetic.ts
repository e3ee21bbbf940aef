/**
 * Reads a built MyInvois document back and lists where LHDN's arithmetic does not hold (exact with
 * decimal.js): line net = subtotal − discounts + charges, line extension = Σ line nets, tax exclusive =
 * line extension − allowance + charge, tax inclusive = tax exclusive + tax, payable = tax inclusive −
 * prepaid + rounding, tax per type = Σ line tax of that type. An empty list means it adds up.
 */
import { Dec } from '../../../lib/money';

type Node = Record<string, unknown>;

function first(node: unknown, key: string): Node | undefined {
  const arr = (node as Node | undefined)?.[key];
  return Array.isArray(arr) ? (arr[0] as Node | undefined) : undefined;
}

function all(node: unknown, key: string): Node[] {
  const arr = (node as Node | undefined)?.[key];
  return Array.isArray(arr) ? (arr as Node[]) : [];
}

function num(node: unknown, key: string): InstanceType<typeof Dec> {
  const v = first(node, key)?._;
  return new Dec(typeof v === 'number' || typeof v === 'string' ? v : 0);
}

function allowances(node: unknown, charge: boolean): InstanceType<typeof Dec> {
  return all(node, 'AllowanceCharge')
    .filter((a) => first(a, 'ChargeIndicator')?._ === charge)
    .reduce((t, a) => t.plus(num(a, 'Amount')), new Dec(0));
}

export function arithmeticProblems(document: unknown): string[] {
  const inv = first(document, 'Invoice');
  if (!inv) return ['no Invoice'];
  const problems: string[] = [];
  const check = (what: string, actual: InstanceType<typeof Dec>, expected: InstanceType<typeof Dec>) => {
    if (!actual.eq(expected)) problems.push(`${what}: ${actual.toFixed()} ≠ ${expected.toFixed()}`);
  };
  let lineTotal = new Dec(0);
  const taxByType = new Map<string, InstanceType<typeof Dec>>();
  all(inv, 'InvoiceLine').forEach((line, i) => {
    const subtotal = num(first(line, 'ItemPriceExtension'), 'Amount');
    const net = num(line, 'LineExtensionAmount');
    check(`InvoiceLine[${i}].LineExtensionAmount`, net, subtotal.minus(allowances(line, false)).plus(allowances(line, true)));
    lineTotal = lineTotal.plus(net);
    for (const sub of all(first(line, 'TaxTotal'), 'TaxSubtotal')) {
      const type = String(first(first(sub, 'TaxCategory'), 'ID')?._);
      taxByType.set(type, (taxByType.get(type) ?? new Dec(0)).plus(num(sub, 'TaxAmount')));
    }
  });
  const totals = first(inv, 'LegalMonetaryTotal');
  const taxTotal = first(inv, 'TaxTotal');
  const tax = num(taxTotal, 'TaxAmount');
  check('LegalMonetaryTotal.LineExtensionAmount', num(totals, 'LineExtensionAmount'), lineTotal);
  check(
    'LegalMonetaryTotal.TaxExclusiveAmount',
    num(totals, 'TaxExclusiveAmount'),
    num(totals, 'LineExtensionAmount').minus(num(totals, 'AllowanceTotalAmount')).plus(num(totals, 'ChargeTotalAmount')),
  );
  check('LegalMonetaryTotal.TaxInclusiveAmount', num(totals, 'TaxInclusiveAmount'), num(totals, 'TaxExclusiveAmount').plus(tax));
  check(
    'LegalMonetaryTotal.PayableAmount',
    num(totals, 'PayableAmount'),
    num(totals, 'TaxInclusiveAmount').minus(num(first(inv, 'PrepaidPayment'), 'PaidAmount')).plus(num(totals, 'PayableRoundingAmount')),
  );
  let perType = new Dec(0);
  for (const sub of all(taxTotal, 'TaxSubtotal')) {
    const type = String(first(first(sub, 'TaxCategory'), 'ID')?._);
    check(`TaxTotal.TaxSubtotal[${type}].TaxAmount`, num(sub, 'TaxAmount'), taxByType.get(type) ?? new Dec(0));
    perType = perType.plus(num(sub, 'TaxAmount'));
  }
  check('TaxTotal.TaxAmount', tax, perType);
  return problems;
}
