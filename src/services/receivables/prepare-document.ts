import type Decimal from 'decimal.js';
import type { Database } from '../../db/client';
import { findCustomer } from '../../db/queries/customers';
import { findOrganization } from '../../db/queries/organizations';
import { insertDocument, insertLines, insertShares, issuedCreditsAgainst, lockDocument } from '../../db/queries/receivable-documents';
import {
  findAccountsByIds,
  findAnalyticAccountsByIds,
  findTaxCodesByIds,
  lockTradeLines,
  setTradeLineInvoiced,
} from '../../db/queries/reference-data';
import type { DocumentKind } from '../../db/schema';
import { isClassificationCode, isCurrency, isUnitCode } from '../../lib/code-lists';
import { addDays, todayIn } from '../../lib/dates';
import { AppError, pointerLabel, type FieldError } from '../../lib/errors';
import { checkAmountPlaces, checkRatePlaces, Dec, formatAmount, minorUnits } from '../../lib/money';
import type { Principal } from '../access/principal';
import { checkCustomFields } from '../custom-fields';
import { bindDocuments } from '../documents/bind-documents';
import { loadWorkflow } from '../workflow/workflows';
import { priceLine, totalsOf, type PricedLine } from './pricing';
import { readDocument, type DocumentView } from './read-document';

export interface PrepareShareInput {
  analytic_account_id: string;
  percentage: string;
}

export interface PrepareLineInput {
  account_id?: string;
  classification_code?: string;
  description: string;
  discount_amount?: string;
  quantity: string;
  unit_price: string;
  unit_code?: string;
  tax_code_id?: string;
  tax_exemption_reason?: string;
  trade_line_id?: string;
  shares?: PrepareShareInput[];
}

export interface PrepareDocumentInput {
  kind: DocumentKind;
  customer_id: string;
  currency?: string;
  fx_rate?: string;
  customer_reference?: string;
  payment_terms_days?: number;
  reason?: string;
  original_invoice_id?: string;
  attachment_ids?: string[];
  custom_fields?: Record<string, string>;
  lines: PrepareLineInput[];
}

/** Limits the contract leaves open (DESIGN: decided here, documented in the README). */
export const LIMITS = {
  customerReference: 100,
  description: 500,
  reason: 300,
  exemptionReason: 300,
  lines: 500,
  sharesPerLine: 50,
  attachments: 50,
} as const;

/** The trade line kind each document kind may take units from. */
const TRADE_LINE_KIND: Record<DocumentKind, 'delivery' | 'sales_return'> = {
  sales_invoice: 'delivery',
  customer_debit_note: 'delivery',
  customer_credit_note: 'sales_return',
};

const DEFAULT_CLASSIFICATION = '022';

/**
 * What the columns hold (DESIGN section 4: a value out of range is 422): amounts are numeric(20,4),
 * rates, quantities and percentages numeric(24,10). The bounds leave a digit of headroom.
 */
export const RANGE = {
  /** Every amount, given or computed (line amounts, totals, base amounts): |amount| < 10^15. */
  amount: new Dec('1e15'),
  /** Quantities and fx rates: < 10^13. */
  rate: new Dec('1e13'),
} as const;
const AMOUNT_RANGE_TEXT = 'must be less than 1000000000000000 (10^15)';
const RATE_RANGE_TEXT = 'must be less than 10000000000000 (10^13)';
const inAmountRange = (d: Decimal) => d.abs().lt(RANGE.amount);

class Refusals {
  readonly errors: FieldError[] = [];
  add(pointer: string, detail: string) {
    this.errors.push({ pointer, detail });
  }
  get any() {
    return this.errors.length > 0;
  }
  throwIfAny() {
    if (!this.errors.length) return;
    const detail = this.errors.map((e) => `${pointerLabel(e.pointer)}: ${e.detail}`).join('; ');
    throw new AppError('validation', { detail, errors: this.errors });
  }
}

const isBlank = (s: string | undefined) => s === undefined || s.trim() === '';

/**
 * Prepares a sales invoice, customer credit note or customer debit note as an unnumbered draft
 * (contract 4.1). Every rule is checked before anything is written; the rule refusals of the
 * header and lines come together in one 422 `validation`. Runs in the caller's transaction: an
 * attachment refused after the insert rolls the whole record back.
 */
export async function prepareDocument(db: Database, principal: Principal, input: PrepareDocumentInput, now: Date): Promise<DocumentView> {
  const organizationId = principal.organizationId;
  const org = await findOrganization(db, { organizationId });
  if (!org) throw new AppError('not_found');
  const today = todayIn(org.timeZone, now);
  const refusals = new Refusals();

  // Header -------------------------------------------------------------------------------------
  const customer = await findCustomer(db, { organizationId, id: input.customer_id, today });
  if (!customer) refusals.add('/customer_id', 'no such customer in this organization');
  else if (!customer.isActive) refusals.add('/customer_id', 'the customer is inactive');

  const currency = input.currency ?? customer?.currency ?? org.baseCurrency;
  const currencyKnown = isCurrency(currency);
  if (!currencyKnown) refusals.add('/currency', 'is not an ISO 4217 currency code');

  let fxRate: Decimal = new Dec(1);
  if (input.fx_rate !== undefined && !checkRatePlaces(input.fx_rate)) {
    // The places rule holds for every fx_rate, a base-currency document's "1" included.
    refusals.add('/fx_rate', 'must have at most 10 decimal places');
  } else if (currency === org.baseCurrency) {
    if (input.fx_rate !== undefined && !new Dec(input.fx_rate).eq(1)) {
      refusals.add('/fx_rate', `must be 1 for a document in the base currency ${org.baseCurrency}`);
    }
  } else if (input.fx_rate === undefined) {
    if (currencyKnown) refusals.add('/fx_rate', `is required when the currency is not the base currency ${org.baseCurrency}`);
  } else if (!new Dec(input.fx_rate).gt(0)) {
    refusals.add('/fx_rate', 'must be greater than 0');
  } else if (!new Dec(input.fx_rate).lt(RANGE.rate)) {
    refusals.add('/fx_rate', RATE_RANGE_TEXT);
  } else {
    fxRate = new Dec(input.fx_rate);
  }

  const paymentTermsDays = input.payment_terms_days ?? customer?.paymentTermsDays ?? 0;

  if (input.customer_reference !== undefined && input.customer_reference.length > LIMITS.customerReference) {
    refusals.add('/customer_reference', `must be at most ${LIMITS.customerReference} characters`);
  }

  const kind = input.kind;
  if (kind === 'sales_invoice') {
    if (input.reason !== undefined) refusals.add('/reason', 'a sales invoice carries no reason');
    if (input.original_invoice_id !== undefined) refusals.add('/original_invoice_id', 'a sales invoice refers to no original invoice');
  }
  if (kind === 'customer_credit_note') {
    if (isBlank(input.reason)) refusals.add('/reason', 'a credit note needs a reason');
    if (input.original_invoice_id === undefined) refusals.add('/original_invoice_id', 'a credit note needs the issued invoice it credits');
  }
  if (input.reason !== undefined && kind !== 'sales_invoice') {
    if (kind === 'customer_debit_note' && isBlank(input.reason)) refusals.add('/reason', 'must not be blank');
    if (input.reason.length > LIMITS.reason) refusals.add('/reason', `must be at most ${LIMITS.reason} characters`);
  }

  let original: Awaited<ReturnType<typeof lockDocument>>;
  if (input.original_invoice_id !== undefined && kind !== 'sales_invoice') {
    // Locked: two credit notes issued against one invoice must see each other.
    original = await lockDocument(db, { organizationId, id: input.original_invoice_id });
    if (!original || original.kind !== 'sales_invoice' || !original.issuedAt) {
      refusals.add('/original_invoice_id', 'no issued sales invoice with this id in this organization');
      original = undefined;
    } else {
      if (customer && original.customerId !== customer.id) refusals.add('/original_invoice_id', 'the invoice is of another customer');
      if (original.currency !== currency) refusals.add('/original_invoice_id', `the invoice is in ${original.currency}, not ${currency}`);
    }
  }

  if (input.attachment_ids && input.attachment_ids.length > LIMITS.attachments) {
    refusals.add('/attachment_ids', `at most ${LIMITS.attachments} documents`);
  }

  // Lines: reference data in a few queries -----------------------------------------------------
  const lines = input.lines;
  const accountIds = lines.map((l) => l.account_id ?? customer?.defaultRevenueAccountId ?? null).filter((x): x is string => Boolean(x));
  const taxCodeIds = lines.map((l) => l.tax_code_id ?? customer?.defaultTaxCodeId ?? null).filter((x): x is string => Boolean(x));
  const analyticIds = lines.flatMap((l) => (l.shares ?? []).map((s) => s.analytic_account_id));
  const tradeLineIds = [...new Set(lines.map((l) => l.trade_line_id).filter((x): x is string => Boolean(x)))];
  const [accountRows, taxRows, analyticRows, tradeRows] = [
    await findAccountsByIds(db, { organizationId, ids: [...new Set(accountIds)] }),
    await findTaxCodesByIds(db, { organizationId, ids: [...new Set(taxCodeIds)] }),
    await findAnalyticAccountsByIds(db, { organizationId, ids: [...new Set(analyticIds)] }),
    await lockTradeLines(db, { organizationId, ids: tradeLineIds }),
  ];
  const tradeTaken = new Map<string, Decimal>();
  const amountsOk = currencyKnown;
  const mu = amountsOk ? minorUnits(currency) : 0;

  interface Checked {
    accountId: string;
    classificationCode: string;
    tax: (typeof taxRows)[number];
    priced: PricedLine;
    projectIds: string[];
    shares: { analyticAccountId: string; axisId: string; percentage: string }[];
  }
  const checked: (Checked | undefined)[] = [];

  for (const [i, line] of lines.entries()) {
    const at = (field: string) => `/lines/${i}/${field}`;
    let ok = true;
    const fail = (field: string, detail: string) => {
      refusals.add(at(field), detail);
      ok = false;
    };

    const accountId = line.account_id ?? customer?.defaultRevenueAccountId ?? undefined;
    const account = accountRows.find((a) => a.id === accountId);
    if (!accountId) fail('account_id', 'is required (the customer has no default revenue account)');
    else if (!account) fail('account_id', 'no such account in this organization');
    else if (!account.active) fail('account_id', 'the account is inactive');

    const classificationCode = line.classification_code ?? DEFAULT_CLASSIFICATION;
    if (!isClassificationCode(classificationCode)) fail('classification_code', 'is not a MyInvois classification code (001 to 045)');

    if (isBlank(line.description)) fail('description', 'must not be blank');
    else if (line.description.length > LIMITS.description) fail('description', `must be at most ${LIMITS.description} characters`);

    if (line.unit_code !== undefined && !isUnitCode(line.unit_code)) fail('unit_code', 'is not a UN/ECE Recommendation 20 unit code');

    const quantity = new Dec(line.quantity);
    if (!checkRatePlaces(line.quantity)) fail('quantity', 'must have at most 10 decimal places');
    else if (!quantity.gt(0)) fail('quantity', 'must be greater than 0');
    else if (!quantity.lt(RANGE.rate)) fail('quantity', RATE_RANGE_TEXT);

    if (amountsOk && !checkAmountPlaces(line.unit_price, currency)) fail('unit_price', `must have at most ${mu} decimal places for ${currency}`);
    else if (new Dec(line.unit_price).isNegative()) fail('unit_price', 'must not be negative');
    else if (!inAmountRange(new Dec(line.unit_price))) fail('unit_price', AMOUNT_RANGE_TEXT);

    const discount = line.discount_amount ?? '0';
    if (amountsOk && !checkAmountPlaces(discount, currency)) fail('discount_amount', `must have at most ${mu} decimal places for ${currency}`);
    else if (new Dec(discount).isNegative()) fail('discount_amount', 'must not be negative');
    else if (!inAmountRange(new Dec(discount))) fail('discount_amount', AMOUNT_RANGE_TEXT);

    const taxCodeId = line.tax_code_id ?? customer?.defaultTaxCodeId ?? undefined;
    const tax = taxRows.find((t) => t.id === taxCodeId);
    if (!taxCodeId) fail('tax_code_id', 'is required (the customer has no default tax code)');
    else if (!tax) fail('tax_code_id', 'no such tax code in this organization');
    else if (!tax.active) fail('tax_code_id', 'the tax code is inactive');
    else if (tax.taxType === 'E') {
      if (isBlank(line.tax_exemption_reason)) fail('tax_exemption_reason', `is required for the exempt tax code ${tax.code}`);
      else if (line.tax_exemption_reason!.length > LIMITS.exemptionReason) fail('tax_exemption_reason', `must be at most ${LIMITS.exemptionReason} characters`);
    } else if (line.tax_exemption_reason !== undefined) {
      fail('tax_exemption_reason', `is only for an exempt tax code; ${tax.code} is not exempt`);
    }

    if (line.trade_line_id !== undefined) {
      const trade = tradeRows.find((t) => t.id === line.trade_line_id);
      const wanted = TRADE_LINE_KIND[kind];
      if (!trade) fail('trade_line_id', 'no such trade line in this organization');
      else if (customer && trade.customerId !== customer.id) fail('trade_line_id', 'the trade line is of another customer');
      else if (!trade.active) fail('trade_line_id', 'the trade line is inactive');
      else if (trade.kind !== wanted) fail('trade_line_id', `a ${kind.replace(/_/g, ' ')} takes a ${wanted.replace('_', ' ')} line, not a ${trade.kind.replace('_', ' ')} line`);
      else if (quantity.gt(0)) {
        const taken = (tradeTaken.get(trade.id) ?? new Dec(0)).plus(quantity);
        const left = new Dec(trade.quantity).minus(trade.quantityInvoiced);
        if (taken.gt(left)) fail('quantity', `is more than is left on the trade line (${left.toFixed()} base units)`);
        tradeTaken.set(trade.id, taken);
      }
    }

    // Shares: active analytic accounts, no duplicates, each axis summing to exactly 100.
    const shares: Checked['shares'] = [];
    const perAxis = new Map<string, Decimal>();
    const projectIds: string[] = [];
    if ((line.shares ?? []).length > LIMITS.sharesPerLine) fail('shares', `at most ${LIMITS.sharesPerLine} shares per line`);
    for (const [j, share] of (line.shares ?? []).entries()) {
      const sAt = `shares/${j}`;
      const aa = analyticRows.find((a) => a.id === share.analytic_account_id);
      if (!aa) {
        fail(`${sAt}/analytic_account_id`, 'no such analytic account in this organization');
        continue;
      }
      if (!aa.active) fail(`${sAt}/analytic_account_id`, 'the analytic account is inactive');
      if (shares.some((s) => s.analyticAccountId === aa.id)) fail(`${sAt}/analytic_account_id`, 'the analytic account appears twice on the line');
      const pct = new Dec(share.percentage);
      if (!checkRatePlaces(share.percentage)) fail(`${sAt}/percentage`, 'must have at most 10 decimal places');
      else if (!pct.gt(0) || pct.gt(100)) fail(`${sAt}/percentage`, 'must be greater than 0 and at most 100');
      perAxis.set(aa.axisId, (perAxis.get(aa.axisId) ?? new Dec(0)).plus(pct));
      shares.push({ analyticAccountId: aa.id, axisId: aa.axisId, percentage: share.percentage });
      if (aa.isProjectAxis && !projectIds.includes(aa.id)) projectIds.push(aa.id);
    }
    for (const [axisId, sum] of perAxis) {
      if (!sum.eq(100)) fail('shares', `the shares on axis ${axisId} sum to ${sum.toFixed()}, not 100`);
    }

    if (!ok || !tax || !accountId || !amountsOk) {
      checked.push(undefined);
      continue;
    }
    const priced = priceLine(
      { quantity: line.quantity, unit_price: line.unit_price, discount_amount: discount, tax_rate: tax.rate },
      { currency, baseCurrency: org.baseCurrency, fxRate },
    );
    if (!priced.ok) {
      fail('discount_amount', 'is more than quantity × unit_price');
      checked.push(undefined);
      continue;
    }
    // quantity × unit_price (and its base at fx_rate) must fit the amount columns as well.
    const p = priced.line;
    const outOfRange = (['net_amount', 'tax_amount', 'net_base', 'tax_base'] as const).find((k) => !inAmountRange(p[k]));
    if (outOfRange) {
      fail('unit_price', `gives a ${outOfRange} of ${p[outOfRange].toFixed()}, out of range: line amounts ${AMOUNT_RANGE_TEXT}`);
      checked.push(undefined);
      continue;
    }
    checked.push({ accountId, classificationCode, tax, priced: priced.line, projectIds, shares });
  }

  const customFields = input.custom_fields ?? {};
  refusals.throwIfAny();
  const good = checked as Checked[];
  const totals = totalsOf(good.map((c) => c.priced));
  for (const k of ['net_total', 'tax_total', 'gross_amount', 'gross_base'] as const) {
    if (!inAmountRange(totals[k])) refusals.add('/lines', `the lines give a ${k} of ${totals[k].toFixed()}, out of range: document totals ${AMOUNT_RANGE_TEXT}`);
  }
  refusals.throwIfAny();

  // A credit note may not credit more than the invoice's gross less the credit notes issued against it.
  if (kind === 'customer_credit_note' && original) {
    const credited = await issuedCreditsAgainst(db, { organizationId, invoiceId: original.id });
    const left = new Dec(original.grossAmount).minus(credited);
    if (totals.gross_amount.gt(left)) {
      refusals.add(
        '/lines',
        `the credit note's gross ${formatAmount(totals.gross_amount, currency)} is more than is left to credit on invoice ${original.reference} (${formatAmount(left, currency)})`,
      );
      refusals.throwIfAny();
    }
  }

  const customFieldErrors = await checkCustomFields(db, { organizationId, recordType: 'receivable_document', values: customFields });
  if (customFieldErrors.length) {
    throw new AppError('custom_field_invalid', {
      detail: customFieldErrors.map((e) => `${pointerLabel(e.pointer)}: ${e.detail}`).join('; '),
      errors: customFieldErrors,
    });
  }

  // Write ----------------------------------------------------------------------------------------
  const projects = [...new Set(good.flatMap((c) => c.projectIds))];
  const def = await loadWorkflow(db, organizationId, 'receivable_document');
  const invoiceDate = today;
  const inserted = await insertDocument(db, {
    organizationId,
    kind,
    state: def.initial_state,
    customerId: input.customer_id,
    customerReference: input.customer_reference ?? '',
    currency,
    fxRate: fxRate.toFixed(),
    invoiceDate,
    dueOn: addDays(invoiceDate, paymentTermsDays),
    paymentTermsDays,
    preparedBy: principal.memberId,
    createdAt: now,
    reason: kind === 'sales_invoice' ? null : (input.reason ?? null),
    originalInvoiceId: kind === 'sales_invoice' ? null : (input.original_invoice_id ?? null),
    customFields,
    netTotal: totals.net_total.toFixed(),
    taxTotal: totals.tax_total.toFixed(),
    grossAmount: totals.gross_amount.toFixed(),
    grossBase: totals.gross_base.toFixed(),
    outstanding: totals.gross_amount.toFixed(),
    outstandingBase: totals.gross_base.toFixed(),
    projectId: projects.length === 1 ? projects[0]! : null,
    multipleProjects: projects.length > 1,
  });
  if (!inserted) throw new AppError('internal');

  const lineRows = await insertLines(
    db,
    good.map((c, i) => {
      const line = lines[i]!;
      return {
        organizationId,
        documentId: inserted.id,
        lineNo: i + 1,
        accountId: c.accountId,
        classificationCode: c.classificationCode,
        description: line.description,
        unitCode: line.unit_code ?? null,
        quantity: line.quantity,
        unitPrice: line.unit_price,
        discountAmount: line.discount_amount ?? '0',
        netAmount: c.priced.net_amount.toFixed(),
        netBase: c.priced.net_base.toFixed(),
        taxAmount: c.priced.tax_amount.toFixed(),
        taxBase: c.priced.tax_base.toFixed(),
        taxCodeId: c.tax.id,
        taxCode: c.tax.code,
        taxType: c.tax.taxType,
        taxPackKind: c.tax.taxPackKind,
        taxRate: c.tax.rate,
        taxExemptionReason: c.tax.taxType === 'E' ? (line.tax_exemption_reason ?? null) : null,
        tradeLineId: line.trade_line_id ?? null,
      };
    }),
  );
  await insertShares(
    db,
    good.flatMap((c, i) => {
      const lineId = lineRows.find((r) => r.lineNo === i + 1)!.id;
      return c.shares.map((s, position) => ({ organizationId, lineId, position, analyticAccountId: s.analyticAccountId, axisId: s.axisId, percentage: s.percentage }));
    }),
  );
  for (const [tradeLineId, taken] of tradeTaken) {
    const row = tradeRows.find((t) => t.id === tradeLineId)!;
    await setTradeLineInvoiced(db, { organizationId, id: tradeLineId, quantityInvoiced: new Dec(row.quantityInvoiced).plus(taken).toFixed() });
  }
  if (input.attachment_ids?.length) {
    await bindDocuments(db, principal, { recordType: 'receivable_document', recordId: inserted.id, ids: input.attachment_ids, pointer: '/attachment_ids', now });
  }
  return readDocument(db, principal, inserted.id, now);
}
