/**
 * Changing a draft receivables document (PATCH /v1/receivables/invoices/{id}, docs/design.md §12).
 * Any create field but `kind` and `attachment_ids` (the schema refuses those); fields left out stay as
 * they are. It checks with exactly the create rules (prepare-document.ts's checkHeader, checkLine,
 * documentTotals, checkCreditLeft): it never states a rule of its own. It never changes a document
 * that is not a draft (409 conflict), never numbers or issues, and never detaches an attachment.
 *
 * Order: the original invoice (a credit note's) then the document are locked, the revision checked
 * (If-Match), the state checked; then the header and, when they may have changed, the lines are
 * checked and priced again; the units the old lines took from trade lines are released and the new
 * lines take theirs, all in the caller's transaction; the revision moves by one.
 */
import { recordEvent } from '../events/append';
import type Decimal from 'decimal.js';
import {
  deleteLines,
  findDocumentLink,
  findLines,
  findShares,
  lockDocument,
  updateDocument,
} from '../../db/queries/receivable-documents';
import { setTradeLineInvoiced } from '../../db/queries/trade-lines';
import { addDays } from '../../lib/dates';
import { AppError, notFound } from '../../lib/errors';
import { Dec } from '../../lib/money';
import { refusal, Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { checkCustomFields } from '../custom-fields';
import { checkRevision } from '../revision';
import { stateOf } from '../workflow/transitions';
import { loadWorkflow } from '../workflow/workflows';
import {
  checkCreditLeft,
  checkHeader,
  checkLineCount,
  checkLine,
  documentTotals,
  lineReferences,
  totalsColumns,
  writeLines,
  type CheckedLine,
  type PrepareDocumentInput,
  type PrepareLineInput,
} from './prepare-document';
import { readDocument, type DocumentView } from './read-document';

export interface UpdateDraftInput {
  id: string;
  customer_id?: string;
  currency?: string;
  fx_rate?: string;
  customer_reference?: string;
  payment_terms_days?: number;
  reason?: string;
  original_invoice_id?: string;
  custom_fields?: Record<string, string>;
  /** Replaces the lines whole; they are checked and priced again. */
  lines?: PrepareLineInput[];
  /** The revision If-Match named. */
  expected_revision: number;
}


export async function updateDraft(ctx: ServiceContext, input: UpdateDraftInput): Promise<DocumentView> {
  const { db } = ctx;
  const organizationId = ctx.org.id;
  const { id, expected_revision, ...fields } = input;

  // A credit note's invoice is locked before the credit note, as issuing and preparing one do.
  const link = await findDocumentLink(db, { organizationId, id });
  if (!link) throw notFound('receivables document');
  if (link.kind === 'customer_credit_note' && link.originalInvoiceId) await lockDocument(db, { organizationId, id: link.originalInvoiceId });
  const doc = await lockDocument(db, { organizationId, id });
  if (!doc) throw notFound('receivables document');
  checkRevision(doc.revision, expected_revision);
  const def = await loadWorkflow(db, organizationId, 'receivable_document');
  if (stateOf(def, doc.state).semantic !== 'draft') {
    throw new AppError('conflict', { detail: `Only a draft can be changed; this document is ${doc.state}` });
  }

  if (fields.lines) checkLineCount(fields.lines);
  const storedLines = await findLines(db, { organizationId, documentId: id });
  // The lines are priced again when they are replaced or when what prices or binds them changes.
  const reprice = ['lines', 'customer_id', 'currency', 'fx_rate', 'original_invoice_id'].some((k) => fields[k as keyof typeof fields] !== undefined);
  const lines = fields.lines ?? (reprice ? await storedLinesAsInput(ctx, storedLines) : []);
  const merged: PrepareDocumentInput = {
    kind: doc.kind,
    customer_id: fields.customer_id ?? doc.customerId,
    currency: fields.currency ?? doc.currency,
    // A new currency without a rate: the rate is asked for again (or "1" for the base currency).
    fx_rate: fields.fx_rate ?? (fields.currency !== undefined ? undefined : new Dec(doc.fxRate).toFixed()),
    customer_reference: fields.customer_reference ?? doc.customerReference,
    payment_terms_days: fields.payment_terms_days ?? doc.paymentTermsDays,
    reason: fields.reason ?? doc.reason ?? undefined,
    original_invoice_id: fields.original_invoice_id ?? doc.originalInvoiceId ?? undefined,
    custom_fields: fields.custom_fields ?? doc.customFields,
    lines,
  };

  const r = new Refusals();
  const header = await checkHeader(ctx, merged, r);
  let priced: { lines: CheckedLine[]; totals: ReturnType<typeof documentTotals>; tradeInvoiced: Map<string, Decimal> } | undefined;
  if (reprice) {
    // The units the old lines took go back to their trade lines first, so the new lines may take them again.
    const released = new Map<string, Decimal>();
    for (const l of storedLines) {
      if (l.tradeLineId) released.set(l.tradeLineId, (released.get(l.tradeLineId) ?? new Dec(0)).plus(l.quantity));
    }
    const refs = await lineReferences(ctx, lines, header.customer, [...released.keys()]);
    refs.tradeLines = refs.tradeLines.map((t) => ({ ...t, quantityInvoiced: new Dec(t.quantityInvoiced).minus(released.get(t.id) ?? 0).toFixed() }));
    const tradeTaken = new Map<string, Decimal>();
    const checked = lines.map((line, i) => checkLine(r, line, i, { kind: doc.kind, header, refs, tradeTaken, baseCurrency: ctx.org.baseCurrency }));
    r.throwIfAny();
    const checkedLines = checked as CheckedLine[];
    const totals = documentTotals(r, checkedLines);
    r.throwIfAny();
    await checkCreditLeft(ctx, doc.kind, header, totals);
    const tradeInvoiced = new Map<string, Decimal>();
    for (const t of refs.tradeLines) {
      if (released.has(t.id) || tradeTaken.has(t.id)) tradeInvoiced.set(t.id, new Dec(t.quantityInvoiced).plus(tradeTaken.get(t.id) ?? 0));
    }
    priced = { lines: checkedLines, totals, tradeInvoiced };
  }
  r.throwIfAny();
  if (fields.custom_fields !== undefined) {
    const errors = await checkCustomFields(db, { organizationId, recordType: 'receivable_document', values: fields.custom_fields });
    if (errors.length) throw refusal('custom_field_invalid', errors);
  }

  let lineColumns = {};
  if (priced) {
    await deleteLines(db, { organizationId, documentId: id });
    await writeLines(ctx, id, priced.lines);
    for (const [tradeLineId, invoiced] of priced.tradeInvoiced) {
      await setTradeLineInvoiced(db, { organizationId, id: tradeLineId, quantityInvoiced: invoiced.toFixed() });
    }
    lineColumns = totalsColumns(priced.totals, priced.lines);
  }
  await updateDocument(db, { organizationId, id }, {
    customerId: merged.customer_id,
    customerReference: merged.customer_reference ?? '',
    currency: header.currency,
    fxRate: header.fxRate.toFixed(),
    paymentTermsDays: header.paymentTermsDays,
    dueOn: addDays(doc.invoiceDate, header.paymentTermsDays),
    reason: doc.kind === 'sales_invoice' ? null : (merged.reason ?? null),
    originalInvoiceId: doc.kind === 'sales_invoice' ? null : (merged.original_invoice_id ?? null),
    customFields: merged.custom_fields ?? {},
    ...lineColumns,
    revision: doc.revision + 1,
  });
  const view = await readDocument(ctx, { id });
  await recordEvent(ctx, 'receivables.invoice.updated', { type: 'receivable_document', id, revision: view.revision }, { kind: view.kind, state: view.state, semantic: view.semantic });
  return view;
}

/** The stored lines as a create would send them, to be checked and priced again. */
async function storedLinesAsInput(ctx: ServiceContext, rows: Awaited<ReturnType<typeof findLines>>): Promise<PrepareLineInput[]> {
  const organizationId = ctx.org.id;
  const shares = await findShares(ctx.db, { organizationId, lineIds: rows.map((l) => l.id) });
  const plain = (v: string) => new Dec(v).toFixed();
  return rows.map((l) => ({
    account_id: l.accountId,
    classification_code: l.classificationCode,
    description: l.description,
    discount_amount: plain(l.discountAmount),
    quantity: plain(l.quantity),
    unit_price: plain(l.unitPrice),
    ...(l.unitCode !== null ? { unit_code: l.unitCode } : {}),
    tax_code_id: l.taxCodeId,
    ...(l.taxExemptionReason !== null ? { tax_exemption_reason: l.taxExemptionReason } : {}),
    ...(l.tradeLineId !== null ? { trade_line_id: l.tradeLineId } : {}),
    shares: shares.filter((s) => s.lineId === l.id).map((s) => ({ analytic_account_id: s.analyticAccountId, percentage: plain(s.percentage) })),
  }));
}
