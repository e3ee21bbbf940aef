/**
 * The journal entries of each event, built from its facts: pure functions, no database. A line's
 * `base` is signed (positive a debit, negative a credit, in the base currency); `amount` is the same
 * line in the source's currency, signed alike. Every builder answers lines that sum to zero; the
 * writer (write-entry.ts) refuses any that does not.
 */
import type { JournalAccountRole, JournalEntryKind, JournalSourceType } from '../../domain/journal';
import { Dec, minorUnits } from '../../lib/money';
import type { PostingAccount } from './accounts';

type Decimal = InstanceType<typeof Dec>;

export interface AccountsOf {
  get(role: JournalAccountRole, key?: string): PostingAccount;
  own(id: string): PostingAccount;
}

export interface DraftLine {
  account: PostingAccount;
  base: Decimal;
  currency: string;
  amount: Decimal;
  analyticAccountId?: string | null;
}

export interface DraftEntry {
  date: string;
  kind: JournalEntryKind;
  source: { type: JournalSourceType; id: string };
  reference: string;
  narration: string;
  lines: DraftLine[];
}

const d = (v: string | Decimal) => new Dec(v);

/** The same lines on the other side: a reversal. */
export function reversedLines(lines: readonly DraftLine[]): DraftLine[] {
  return lines.map((l) => ({ ...l, base: l.base.negated(), amount: l.amount.negated() }));
}

export interface DocumentFacts {
  id: string;
  kind: 'sales_invoice' | 'customer_credit_note' | 'customer_debit_note';
  reference: string;
  invoiceDate: string;
  currency: string;
  grossAmount: string;
  grossBase: string;
  lines: { accountId: string; netAmount: string; netBase: string; taxAmount: string; taxBase: string; taxCodeId: string; taxCode: string }[];
}

/**
 * An invoice or debit note issued: Dr receivables control (gross) / Cr each line's account (net) /
 * Cr SST payable per tax code. A credit note: the same on the other side.
 */
export function documentIssuedLines(doc: DocumentFacts, accounts: AccountsOf): DraftLine[] {
  const sign = doc.kind === 'customer_credit_note' ? -1 : 1;
  const lines: DraftLine[] = [{ account: accounts.get('receivables_control'), base: d(doc.grossBase), currency: doc.currency, amount: d(doc.grossAmount) }];
  for (const l of doc.lines) lines.push({ account: accounts.own(l.accountId), base: d(l.netBase).negated(), currency: doc.currency, amount: d(l.netAmount).negated() });
  const byTaxCode = new Map<string, { base: Decimal; amount: Decimal }>();
  for (const l of doc.lines) {
    const t = byTaxCode.get(l.taxCode) ?? { base: d('0'), amount: d('0') };
    byTaxCode.set(l.taxCode, { base: t.base.plus(l.taxBase), amount: t.amount.plus(l.taxAmount) });
  }
  for (const [, t] of [...byTaxCode].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    lines.push({ account: accounts.get('sst_payable'), base: t.base.negated(), currency: doc.currency, amount: t.amount.negated() });
  }
  return sign === 1 ? lines : reversedLines(lines);
}

export interface ReceiptFacts {
  currency: string;
  amount: string;
  baseAmount: string;
  method: string;
}

/** A receipt: Dr the receipt method's clearing account / Cr customer deposits (unapplied cash). */
export function receiptLines(r: ReceiptFacts, accounts: AccountsOf): DraftLine[] {
  return [
    { account: accounts.get('receipt_clearing', r.method), base: d(r.baseAmount), currency: r.currency, amount: d(r.amount) },
    { account: accounts.get('customer_deposits'), base: d(r.baseAmount).negated(), currency: r.currency, amount: d(r.amount).negated() },
  ];
}

export interface AllocationFacts {
  sourceKind: 'receipt' | 'credit_note';
  currency: string;
  /** Signed as stored: a reversal's are negative. */
  amount: string;
  baseAmount: string;
  exchangeDifference: string;
}

/**
 * An allocation: Dr customer deposits (a receipt) or receivables control (a credit note applied: the
 * credit note's side) at the source's rate / Cr receivables control at the document's rate; the
 * difference to exchange difference (a gain on the credit side). A reversal's negative figures put
 * every line on the other side.
 */
export function allocationLines(a: AllocationFacts, baseCurrency: string, accounts: AccountsOf): DraftLine[] {
  const sourceBase = d(a.baseAmount).plus(a.exchangeDifference);
  const from = a.sourceKind === 'receipt' ? accounts.get('customer_deposits') : accounts.get('receivables_control');
  const lines: DraftLine[] = [
    { account: from, base: sourceBase, currency: a.currency, amount: d(a.amount) },
    { account: accounts.get('receivables_control'), base: d(a.baseAmount).negated(), currency: a.currency, amount: d(a.amount).negated() },
  ];
  const diff = d(a.exchangeDifference);
  if (!diff.isZero()) lines.push({ account: accounts.get('exchange_difference'), base: diff.negated(), currency: baseCurrency, amount: diff.negated() });
  return lines;
}

/**
 * Splits `total` over weights (percentages) by largest remainder in the currency's minor unit: the
 * parts add up to `total` exactly; ties go to the earlier weight.
 */
export function splitByShares(total: string | Decimal, weights: readonly string[], currency: string): Decimal[] {
  const scale = d('10').pow(minorUnits(currency));
  const minor = d(total).times(scale);
  const sum = weights.reduce((s, w) => s.plus(w), d('0'));
  if (sum.isZero()) return weights.map(() => d('0'));
  const exact = weights.map((w) => minor.times(w).div(sum));
  const parts = exact.map((e) => e.toDecimalPlaces(0, Dec.ROUND_DOWN));
  let left = minor.minus(parts.reduce((s, p) => s.plus(p), d('0')));
  const step = left.isNegative() ? -1 : 1;
  const order = exact.map((e, i) => ({ i, rem: e.minus(parts[i]!).abs() })).sort((x, y) => y.rem.comparedTo(x.rem) || x.i - y.i);
  for (let k = 0; !left.isZero() && order.length > 0; k = (k + 1) % order.length) {
    const i = order[k]!.i;
    parts[i] = parts[i]!.plus(step);
    left = left.minus(step);
  }
  return parts.map((p) => p.div(scale));
}

export interface ClaimLineFacts {
  categoryId: string;
  currency: string;
  amount: string;
  /** What the line reimburses in base (its SST borne included). */
  baseAmount: string;
  /** The shares of one axis, in order; none: the line is not split. */
  shares: { analyticAccountId: string; percentage: string }[];
}

/** Dr each line's expense account per analytic share (largest remainder to the sen), Cr claims payable the total. */
export function claimApprovedLines(lines: readonly ClaimLineFacts[], baseCurrency: string, accounts: AccountsOf): DraftLine[] {
  const out: DraftLine[] = [];
  let total = d('0');
  for (const l of lines) {
    const account = accounts.get('claim_expense', l.categoryId);
    total = total.plus(l.baseAmount);
    if (l.shares.length === 0) {
      out.push({ account, base: d(l.baseAmount), currency: l.currency, amount: d(l.amount) });
      continue;
    }
    const weights = l.shares.map((s) => s.percentage);
    const bases = splitByShares(l.baseAmount, weights, baseCurrency);
    const amounts = splitByShares(l.amount, weights, l.currency);
    l.shares.forEach((s, i) => out.push({ account, base: bases[i]!, currency: l.currency, amount: amounts[i]!, analyticAccountId: s.analyticAccountId }));
  }
  out.push({ account: accounts.get('claims_payable'), base: total.negated(), currency: baseCurrency, amount: total.negated() });
  return out;
}

export interface ClaimPaidFacts {
  /** What was approved (Σ active lines' base amounts): what claims payable carries for the claim. */
  approved: string;
  /** What the settlement paid (the bank's figures for bank-charged lines). */
  paid: string;
  channelKey: string;
}

/** Dr claims payable (approved) / Cr the channel's clearing (paid); the difference to bank charges. */
export function claimPaidLines(p: ClaimPaidFacts, baseCurrency: string, accounts: AccountsOf): DraftLine[] {
  const lines: DraftLine[] = [
    { account: accounts.get('claims_payable'), base: d(p.approved), currency: baseCurrency, amount: d(p.approved) },
    { account: accounts.get('payout_clearing', p.channelKey), base: d(p.paid).negated(), currency: baseCurrency, amount: d(p.paid).negated() },
  ];
  const charge = d(p.paid).minus(p.approved);
  if (!charge.isZero()) lines.push({ account: accounts.get('bank_charges'), base: charge, currency: baseCurrency, amount: charge });
  return lines;
}
