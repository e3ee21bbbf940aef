/**
 * Preparing a sales invoice, customer credit note or customer debit note as an unnumbered draft
 * (contract 4.1). Every rule is checked before anything is written, and the rule refusals of the
 * header and the lines come together in one 422 `validation`. It never numbers, issues or freezes a
 * document (issue-document.ts does), and never opens its own transaction: it runs in the caller's,
 * so an attachment refused after the insert rolls the whole record back.
 *
 * The steps, in order: the header (checkHeader), the reference data the lines name (lineReferences),
 * each line on its own (checkLine, pure), the totals (documentTotals), the credit left on the
 * original invoice and the custom fields, then the write (writeDocument, writeLines). A draft's
 * update (update-draft.ts) calls these same steps, so the two can never price or refuse differently.
 */
import { contextEvent, runSubscribers } from '../events/append';
import { stateOf } from '../workflow/transitions';
import { cachedCustomFieldDefinitions, cachedWorkflow } from '../org-config-cache';
import type Decimal from 'decimal.js';
import { findCustomer, findCustomerWithLineReferences } from '../../db/queries/customers';
import { insertDocumentWithLinesAndEvent, insertLines, insertShares, issuedCreditsAgainst, lockDocument } from '../../db/queries/receivable-documents';
import type { DocumentBundle, LineRow, NewDocumentLine } from '../../db/queries/receivable-documents';
import { findAccountsByIds } from '../../db/queries/accounts';
import { findAnalyticAccountsByIds } from '../../db/queries/analytic-accounts';
import { findTaxCodesByIds } from '../../db/queries/tax-codes';
import { lockTradeLines, setTradeLineInvoiced } from '../../db/queries/trade-lines';
import type { DocumentKind } from '../../db/schema';
import { DOCUMENT_LINES_MAX } from '../../domain/line-limits';
import { isClassificationCode, isCurrency, isUnitCode } from '../../lib/code-lists';
import { addDays } from '../../lib/dates';
import { Dec, formatAmount } from '../../lib/money';
import { AMOUNT_RANGE_TEXT, amountInCurrency, inAmountRange, maxLength, notBlank, positiveQuantity, refusal, Refusals, refuse, unitPriceInRange } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { checkCustomFields } from '../custom-fields';
import { bindDocuments } from '../documents/bind-documents';
import { checkFxRate } from '../rules/fx-rate';
import { checkShares, MAX_SHARES_PER_LINE, type CheckedShare, type ShareInput } from '../rules/shares';
import { priceLine, totalsOf, type DocumentTotals, type PricedLine } from './pricing';
import { documentView, type DocumentView } from './read-document';

export type PrepareShareInput = ShareInput;

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

/** Limits the contract leaves open (decided here, documented in the README). */
export const LIMITS = {
  customerReference: 100,
  description: 500,
  reason: 300,
  exemptionReason: 300,
  lines: DOCUMENT_LINES_MAX,
  sharesPerLine: MAX_SHARES_PER_LINE,
  attachments: 50,
} as const;

/** Refuses more lines than a document may hold (the schema says so at the edge; in-process callers too), before any is read. */
export function checkLineCount(lines: readonly unknown[]): void {
  if (lines.length > LIMITS.lines) refuse('/lines', `at most ${LIMITS.lines} lines per document`);
}

/** The trade line kind each document kind may take units from. */
const TRADE_LINE_KIND: Record<DocumentKind, 'delivery' | 'sales_return'> = {
  sales_invoice: 'delivery',
  customer_debit_note: 'delivery',
  customer_credit_note: 'sales_return',
};

const DEFAULT_CLASSIFICATION = '022';

type Customer = NonNullable<Awaited<ReturnType<typeof findCustomer>>>;
type LockedDocument = NonNullable<Awaited<ReturnType<typeof lockDocument>>>;

/** The header as checked: what the lines and the write need from it. */
export interface Header {
  customer: Customer | undefined;
  currency: string;
  currencyKnown: boolean;
  /** The rate the lines are priced at (1 while the given one is refused: the draft is refused anyway). */
  fxRate: Decimal;
  paymentTermsDays: number;
  /** The issued invoice a credit or debit note refers to, locked. */
  original: LockedDocument | undefined;
}

/** The reference data every line names, read in a few queries for all lines at once. */
export interface LineReferences {
  accounts: Awaited<ReturnType<typeof findAccountsByIds>>;
  taxCodes: Awaited<ReturnType<typeof findTaxCodesByIds>>;
  analyticAccounts: Awaited<ReturnType<typeof findAnalyticAccountsByIds>>;
  /** Locked: two drafts taking units from one trade line must see each other. */
  tradeLines: Awaited<ReturnType<typeof lockTradeLines>>;
}

/** A line that passed every rule, priced. */
export interface CheckedLine {
  input: PrepareLineInput;
  accountId: string;
  classificationCode: string;
  tax: LineReferences['taxCodes'][number];
  priced: PricedLine;
  projectIds: string[];
  shares: CheckedShare[];
}

export async function prepareDocument(ctx: ServiceContext, input: PrepareDocumentInput): Promise<DocumentView> {
  checkLineCount(input.lines);
  const r = new Refusals();
  // The customer and the accounts and tax codes its lines name, in one statement.
  const read = await findCustomerWithLineReferences(ctx.db, {
    organizationId: ctx.org.id,
    id: input.customer_id,
    today: ctx.today,
    accountIds: input.lines.flatMap((l) => (l.account_id ? [l.account_id] : [])),
    taxCodeIds: input.lines.flatMap((l) => (l.tax_code_id ? [l.tax_code_id] : [])),
  });
  const header = await checkHeader(ctx, input, r, read?.customer);
  const refs = await lineReferences(ctx, input.lines, header.customer, [], read);
  // Units taken from each trade line by the lines so far (a trade line may feed several lines).
  const tradeTaken = new Map<string, Decimal>();
  const checked = input.lines.map((line, i) => checkLine(r, line, i, { kind: input.kind, header, refs, tradeTaken, baseCurrency: ctx.org.baseCurrency }));
  r.throwIfAny();
  const lines = checked as CheckedLine[];
  const totals = documentTotals(r, lines);
  r.throwIfAny();
  await checkCreditLeft(ctx, input.kind, header, totals);
  const customFields = input.custom_fields ?? {};
  const customFieldErrors = await checkCustomFields(ctx.db, { organizationId: ctx.org.id, recordType: 'receivable_document', values: customFields, definitions: cachedCustomFieldDefinitions(ctx, 'receivable_document') });
  if (customFieldErrors.length) throw refusal('custom_field_invalid', customFieldErrors);

  // The answer is built from the rows just written (what a read would find), not read back.
  const written = await writeDocument(ctx, { input, header, lines, totals, tradeTaken, refs });
  return documentView(ctx, written);
}

/** The header's rules: customer, currency and fx_rate, texts, what each kind carries, the original invoice. */
export async function checkHeader(ctx: ServiceContext, input: PrepareDocumentInput, r: Refusals, customerRead?: Customer): Promise<Header> {
  const organizationId = ctx.org.id;
  const base = ctx.org.baseCurrency;
  const customer = customerRead ?? (await findCustomer(ctx.db, { organizationId, id: input.customer_id, today: ctx.today }));
  if (!customer) r.add('/customer_id', 'no such customer in this organization');
  else if (!customer.isActive) r.add('/customer_id', 'the customer is inactive');

  const currency = input.currency ?? customer?.currency ?? base;
  const currencyKnown = r.check(isCurrency(currency), '/currency', 'is not an ISO 4217 currency code');
  const fxRate = checkFxRate(r, { fx_rate: input.fx_rate, currency, base_currency: base, currency_known: currencyKnown }) ?? new Dec(1);
  const paymentTermsDays = input.payment_terms_days ?? customer?.paymentTermsDays ?? 0;
  maxLength(r, input.customer_reference, LIMITS.customerReference, '/customer_reference');

  const kind = input.kind;
  if (kind === 'sales_invoice') {
    r.check(input.reason === undefined, '/reason', 'a sales invoice carries no reason');
    r.check(input.original_invoice_id === undefined, '/original_invoice_id', 'a sales invoice refers to no original invoice');
  }
  if (kind === 'customer_credit_note') {
    r.check(input.reason !== undefined && input.reason.trim() !== '', '/reason', 'a credit note needs a reason');
    r.check(input.original_invoice_id !== undefined, '/original_invoice_id', 'a credit note needs the issued invoice it credits');
  }
  if (input.reason !== undefined && kind !== 'sales_invoice') {
    if (kind === 'customer_debit_note') notBlank(r, input.reason, '/reason');
    maxLength(r, input.reason, LIMITS.reason, '/reason');
  }

  let original: LockedDocument | undefined;
  if (input.original_invoice_id !== undefined && kind !== 'sales_invoice') {
    // Locked: two credit notes issued against one invoice must see each other.
    original = await lockDocument(ctx.db, { organizationId, id: input.original_invoice_id });
    if (!original || original.kind !== 'sales_invoice' || !original.issuedAt) {
      r.add('/original_invoice_id', 'no issued sales invoice with this id in this organization');
      original = undefined;
    } else {
      if (customer) r.check(original.customerId === customer.id, '/original_invoice_id', 'the invoice is of another customer');
      r.check(original.currency === currency, '/original_invoice_id', `the invoice is in ${original.currency}, not ${currency}`);
    }
  }

  if (input.attachment_ids) r.check(input.attachment_ids.length <= LIMITS.attachments, '/attachment_ids', `at most ${LIMITS.attachments} documents`);
  return { customer, currency, currencyKnown, fxRate, paymentTermsDays, original };
}

/**
 * Reads (and locks, for trade lines) the reference data the lines name. `alsoTradeLineIds`: trade
 * lines to lock as well (a draft update releases the units its old lines took from them).
 */
export async function lineReferences(
  ctx: ServiceContext,
  lines: PrepareLineInput[],
  customer: Customer | undefined,
  alsoTradeLineIds: string[] = [],
  /** Accounts and tax codes already read with the customer (findCustomerWithLineReferences). */
  read?: Pick<LineReferences, 'accounts' | 'taxCodes'>,
): Promise<LineReferences> {
  const { db } = ctx;
  const organizationId = ctx.org.id;
  const present = (x: string | null | undefined): x is string => Boolean(x);
  const accountIds = lines.map((l) => l.account_id ?? customer?.defaultRevenueAccountId).filter(present);
  const taxCodeIds = lines.map((l) => l.tax_code_id ?? customer?.defaultTaxCodeId).filter(present);
  const analyticIds = lines.flatMap((l) => (l.shares ?? []).map((s) => s.analytic_account_id));
  const tradeLineIds = [...new Set([...lines.map((l) => l.trade_line_id).filter(present), ...alsoTradeLineIds])];
  return {
    accounts: read?.accounts ?? (await findAccountsByIds(db, { organizationId, ids: [...new Set(accountIds)] })),
    taxCodes: read?.taxCodes ?? (await findTaxCodesByIds(db, { organizationId, ids: [...new Set(taxCodeIds)] })),
    analyticAccounts: await findAnalyticAccountsByIds(db, { organizationId, ids: [...new Set(analyticIds)] }),
    tradeLines: await lockTradeLines(db, { organizationId, ids: tradeLineIds }),
  };
}

/**
 * One line's rules, and its price when they all hold. Pure: it reads nothing, adds its refusals at
 * `/lines/<i>/...`, and records the units it takes from a trade line in `tradeTaken` (shared by the
 * lines of one document). Answers undefined for a line refused or left unpriced.
 */
export function checkLine(
  r: Refusals,
  line: PrepareLineInput,
  i: number,
  q: { kind: DocumentKind; header: Header; refs: LineReferences; tradeTaken: Map<string, Decimal>; baseCurrency: string },
): CheckedLine | undefined {
  const { header, refs } = q;
  const { customer, currency } = header;
  const at = (field: string) => `/lines/${i}/${field}`;
  let ok = true;
  const fail = (field: string, detail: string) => {
    r.add(at(field), detail);
    ok = false;
  };
  const holds = (fine: boolean) => {
    if (!fine) ok = false;
  };

  const accountId = line.account_id ?? customer?.defaultRevenueAccountId ?? undefined;
  const account = refs.accounts.find((a) => a.id === accountId);
  if (!accountId) fail('account_id', 'is required (the customer has no default revenue account)');
  else if (!account) fail('account_id', 'no such account in this organization');
  else if (!account.active) fail('account_id', 'the account is inactive');

  const classificationCode = line.classification_code ?? DEFAULT_CLASSIFICATION;
  if (!isClassificationCode(classificationCode)) fail('classification_code', 'is not a MyInvois classification code (001 to 045)');

  holds(notBlank(r, line.description, at('description')) && maxLength(r, line.description, LIMITS.description, at('description')));

  if (line.unit_code !== undefined && !isUnitCode(line.unit_code)) fail('unit_code', 'is not a UN/ECE Recommendation 20 unit code');

  const quantity = new Dec(line.quantity);
  holds(positiveQuantity(r, line.quantity, at('quantity')));
  holds(unitPriceInRange(r, line.unit_price, at('unit_price')));
  const discount = line.discount_amount ?? '0';
  holds(amountInCurrency(r, discount, currency, at('discount_amount')));

  const taxCodeId = line.tax_code_id ?? customer?.defaultTaxCodeId ?? undefined;
  const tax = refs.taxCodes.find((t) => t.id === taxCodeId);
  if (!taxCodeId) fail('tax_code_id', 'is required (the customer has no default tax code)');
  else if (!tax) fail('tax_code_id', 'no such tax code in this organization');
  else if (!tax.active) fail('tax_code_id', 'the tax code is inactive');
  else if (tax.taxType === 'E') {
    const reason = line.tax_exemption_reason;
    if (reason === undefined || reason.trim() === '') fail('tax_exemption_reason', `is required for the exempt tax code ${tax.code}`);
    else holds(maxLength(r, reason, LIMITS.exemptionReason, at('tax_exemption_reason')));
  } else if (line.tax_exemption_reason !== undefined) {
    fail('tax_exemption_reason', `is only for an exempt tax code; ${tax.code} is not exempt`);
  }

  if (line.trade_line_id !== undefined) {
    const trade = refs.tradeLines.find((t) => t.id === line.trade_line_id);
    const wanted = TRADE_LINE_KIND[q.kind];
    if (!trade) fail('trade_line_id', 'no such trade line in this organization');
    else if (customer && trade.customerId !== customer.id) fail('trade_line_id', 'the trade line is of another customer');
    else if (!trade.active) fail('trade_line_id', 'the trade line is inactive');
    else if (trade.kind !== wanted) fail('trade_line_id', `a ${q.kind.replace(/_/g, ' ')} takes a ${wanted.replace('_', ' ')} line, not a ${trade.kind.replace('_', ' ')} line`);
    else if (quantity.gt(0)) {
      const taken = (q.tradeTaken.get(trade.id) ?? new Dec(0)).plus(quantity);
      const left = new Dec(trade.quantity).minus(trade.quantityInvoiced);
      if (taken.gt(left)) fail('quantity', `is more than is left on the trade line (${left.toFixed()} base units)`);
      q.tradeTaken.set(trade.id, taken);
    }
  }

  const shares = checkShares(r, line.shares ?? [], refs.analyticAccounts, at('shares'));
  holds(shares.ok);
  const projectIds = [...new Set(shares.shares.filter((s) => s.isProjectAxis).map((s) => s.analyticAccountId))];

  if (!ok || !tax || !accountId || !header.currencyKnown) return undefined;
  const priced = priceLine(
    { quantity: line.quantity, unit_price: line.unit_price, discount_amount: discount, tax_rate: tax.rate },
    { currency, baseCurrency: q.baseCurrency, fxRate: header.fxRate },
  );
  if (!priced.ok) {
    fail('discount_amount', 'is more than quantity × unit_price');
    return undefined;
  }
  // quantity × unit_price (and its base at fx_rate) must fit the amount columns as well.
  const p = priced.line;
  const outOfRange = (['net_amount', 'tax_amount', 'net_base', 'tax_base'] as const).find((k) => !inAmountRange(p[k]));
  if (outOfRange) {
    fail('unit_price', `gives a ${outOfRange} of ${p[outOfRange].toFixed()}, out of range: line amounts ${AMOUNT_RANGE_TEXT}`);
    return undefined;
  }
  return { input: line, accountId, classificationCode, tax, priced: p, projectIds, shares: shares.shares };
}

/** The document's totals (pricing.ts), each within what the amount columns hold. */
export function documentTotals(r: Refusals, lines: CheckedLine[]): DocumentTotals {
  const totals = totalsOf(lines.map((c) => c.priced));
  for (const k of ['net_total', 'tax_total', 'gross_amount', 'gross_base'] as const) {
    r.check(inAmountRange(totals[k]), '/lines', `the lines give a ${k} of ${totals[k].toFixed()}, out of range: document totals ${AMOUNT_RANGE_TEXT}`);
  }
  return totals;
}

/** A credit note may not credit more than the invoice's gross less the credit notes issued against it. */
export async function checkCreditLeft(ctx: ServiceContext, kind: DocumentKind, header: Header, totals: DocumentTotals): Promise<void> {
  const { original, currency } = header;
  if (kind !== 'customer_credit_note' || !original) return;
  const credited = await issuedCreditsAgainst(ctx.db, { organizationId: ctx.org.id, invoiceId: original.id });
  const left = new Dec(original.grossAmount).minus(credited);
  const r = new Refusals();
  r.check(
    !totals.gross_amount.gt(left),
    '/lines',
    `the credit note's gross ${formatAmount(totals.gross_amount, currency)} is more than is left to credit on invoice ${original.reference} (${formatAmount(left, currency)})`,
  );
  r.throwIfAny();
}

/** Writes the draft, its lines and shares, the units taken from trade lines and the attachments; answers its id. */
async function writeDocument(
  ctx: ServiceContext,
  d: { input: PrepareDocumentInput; header: Header; lines: CheckedLine[]; totals: DocumentTotals; tradeTaken: Map<string, Decimal>; refs: LineReferences },
): Promise<DocumentBundle> {
  const { db } = ctx;
  const organizationId = ctx.org.id;
  const { input, header, lines, totals } = d;
  const kind = input.kind;
  const def = await cachedWorkflow(ctx, 'receivable_document');
  const invoiceDate = ctx.today;
  // The document, its lines and the event telling of it, in one statement.
  const written = await insertDocumentWithLinesAndEvent(db, {
    document: {
      organizationId,
      kind,
      state: def.initial_state,
      customerId: input.customer_id,
      customerReference: input.customer_reference ?? '',
      currency: header.currency,
      fxRate: header.fxRate.toFixed(),
      invoiceDate,
      dueOn: addDays(invoiceDate, header.paymentTermsDays),
      paymentTermsDays: header.paymentTermsDays,
      preparedBy: ctx.principal.memberId,
      createdAt: ctx.now,
      reason: kind === 'sales_invoice' ? null : (input.reason ?? null),
      originalInvoiceId: kind === 'sales_invoice' ? null : (input.original_invoice_id ?? null),
      customFields: input.custom_fields ?? {},
      ...totalsColumns(totals, lines),
    },
    lines: lines.map((c, i) => lineValues(c, i)),
    event: contextEvent(ctx, 'receivables.invoice.created', 'receivable_document', { kind, state: def.initial_state, semantic: stateOf(def, def.initial_state).semantic }),
  });
  const inserted = written.document;
  await runSubscribers(db, written.event);
  const shares = await writeShares(ctx, lines, written.lines);
  for (const [tradeLineId, taken] of d.tradeTaken) {
    const row = d.refs.tradeLines.find((t) => t.id === tradeLineId)!;
    await setTradeLineInvoiced(db, { organizationId, id: tradeLineId, quantityInvoiced: new Dec(row.quantityInvoiced).plus(taken).toFixed() });
  }
  if (input.attachment_ids?.length) {
    await bindDocuments(ctx, { record_type: 'receivable_document', record_id: inserted.id, ids: input.attachment_ids, pointer: '/attachment_ids' });
  }
  const project = inserted.projectId ? d.refs.analyticAccounts.find((a) => a.id === inserted.projectId) : undefined;
  return {
    doc: { ...inserted, projectCode: project?.code ?? null, projectName: project?.name ?? null, isGroupTransaction: Boolean(header.customer?.isGroupCompany) },
    lines: written.lines,
    shares,
    allocations: [],
    timeline: [],
    // A new record: every file given is bound to it, in the order given.
    attachmentIds: input.attachment_ids ?? [],
  };
}

/**
 * A draft's stored totals and project from its priced lines: a draft has no allocations, so what is
 * outstanding is the whole of it; the project is the one project its lines' shares name, if one.
 */
export function totalsColumns(totals: DocumentTotals, lines: CheckedLine[]) {
  const projects = [...new Set(lines.flatMap((c) => c.projectIds))];
  return {
    netTotal: totals.net_total.toFixed(),
    taxTotal: totals.tax_total.toFixed(),
    grossAmount: totals.gross_amount.toFixed(),
    grossBase: totals.gross_base.toFixed(),
    outstanding: totals.gross_amount.toFixed(),
    outstandingBase: totals.gross_base.toFixed(),
    projectId: projects.length === 1 ? projects[0]! : null,
    multipleProjects: projects.length > 1,
  };
}

/** Inserts a document's priced lines (numbered from 1 in the order given) and their shares. */
export async function writeLines(ctx: ServiceContext, documentId: string, lines: CheckedLine[]) {
  const organizationId = ctx.org.id;
  const lineRows = await insertLines(
    ctx.db,
    lines.map((c, i) => ({ organizationId, documentId, ...lineValues(c, i) })),
  );
  return { lines: lineRows, shares: await writeShares(ctx, lines, lineRows) };
}

/** A priced line's stored values, numbered `i + 1` (its document and organization aside). */
function lineValues(c: CheckedLine, i: number): NewDocumentLine {
  return {
    lineNo: i + 1,
    accountId: c.accountId,
    classificationCode: c.classificationCode,
    description: c.input.description,
    unitCode: c.input.unit_code ?? null,
    quantity: c.input.quantity,
    unitPrice: c.input.unit_price,
    discountAmount: c.input.discount_amount ?? '0',
    netAmount: c.priced.net_amount.toFixed(),
    netBase: c.priced.net_base.toFixed(),
    taxAmount: c.priced.tax_amount.toFixed(),
    taxBase: c.priced.tax_base.toFixed(),
    taxCodeId: c.tax.id,
    taxCode: c.tax.code,
    taxType: c.tax.taxType,
    taxPackKind: c.tax.taxPackKind,
    taxRate: c.tax.rate,
    taxExemptionReason: c.tax.taxType === 'E' ? (c.input.tax_exemption_reason ?? null) : null,
    tradeLineId: c.input.trade_line_id ?? null,
  };
}

/** The analytic shares of lines just written (`lineRows`, by line number). */
async function writeShares(ctx: ServiceContext, lines: CheckedLine[], lineRows: LineRow[]) {
  const organizationId = ctx.org.id;
  return insertShares(
    ctx.db,
    lines.flatMap((c, i) => {
      const lineId = lineRows.find((row) => row.lineNo === i + 1)!.id;
      return c.shares.map((s, position) => ({ organizationId, lineId, position, analyticAccountId: s.analyticAccountId, axisId: s.axisId, percentage: s.percentage }));
    }),
  );
}
