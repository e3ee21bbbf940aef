/**
 * Reading one receivables document as the contract's section 2.2 describes it: the shared header view
 * with lines, allocations, available transitions and timeline. Read only: it never writes, and never
 * answers a document of another organization (404, as for one that does not exist).
 */
import { findDocumentBundle, type DocumentBundle } from '../../db/queries/receivable-documents';
import { AppError } from '../../lib/errors';
import { formatAmount, formatRate, formatUnitPrice } from '../../lib/money';
import type { DocumentView } from '../../contract/receivables/documents';
import type { ServiceContext } from '../context';
import { availableTransitions } from '../workflow/transitions';
import { cachedActor, cachedWorkflow } from '../org-config-cache';
import { receivableFacts } from './document-facts';
import { documentHeaderView } from './document-view';

export type { DocumentView };

export async function readDocument(ctx: ServiceContext, input: { id: string }): Promise<DocumentView> {
  const { db } = ctx;
  const organizationId = ctx.org.id;
  const id = input.id;
  const bundle = await findDocumentBundle(db, { organizationId, id, today: ctx.today });
  if (!bundle) throw new AppError('not_found', { detail: 'No such receivables document in this organization' });
  return documentView(ctx, bundle);
}

/**
 * The contract's view of a document from its rows: what a read answers, and what a create answers
 * from the rows it has just written (the same rows a read would find, without reading them back).
 */
export async function documentView(ctx: ServiceContext, bundle: DocumentBundle): Promise<DocumentView> {
  const { doc, lines, shares, timeline, attachmentIds } = bundle;
  const allocationRows = bundle.allocations;
  const [def, actor] = [await cachedWorkflow(ctx, 'receivable_document'), await cachedActor(ctx)];
  const base = ctx.org.baseCurrency;
  const cur = doc.currency;

  // The header view is this answer's own object, completed (not copied).
  return Object.assign(documentHeaderView(doc, { def, baseCurrency: base, attachmentIds }), {
    lines: lines.map((l) => ({
      id: l.id,
      line_no: l.lineNo,
      account_id: l.accountId,
      classification_code: l.classificationCode,
      description: l.description,
      unit_code: l.unitCode,
      quantity: formatRate(l.quantity),
      unit_price: formatUnitPrice(l.unitPrice, cur),
      discount_amount: formatAmount(l.discountAmount, cur),
      net_amount: formatAmount(l.netAmount, cur),
      net_base: formatAmount(l.netBase, base),
      tax_amount: formatAmount(l.taxAmount, cur),
      tax_base: formatAmount(l.taxBase, base),
      tax_code: l.taxCode,
      tax_code_id: l.taxCodeId,
      tax_pack_kind: l.taxPackKind,
      tax_rate: formatRate(l.taxRate),
      tax_exemption_reason: l.taxExemptionReason,
      trade_line_id: l.tradeLineId,
      shares: shares
        .filter((s) => s.lineId === l.id)
        .map((s) => ({ analytic_account_id: s.analyticAccountId, percentage: formatRate(s.percentage) })),
    })),
    allocations: allocationRows.map((a) => ({
      id: a.id,
      invoice_id: a.invoiceId,
      created_by: a.createdBy,
      amount: formatAmount(a.amount, a.currency),
      base_amount: formatAmount(a.baseAmount, base),
      currency: a.currency,
      effective_on: a.effectiveOn,
      created_at: a.createdAt.toISOString(),
      source_kind: a.sourceKind,
      receipt_id: a.receiptId,
      credit_note_id: a.creditNoteId,
      reverses_id: a.reversesId,
      reversed_by_id: a.reversedById,
    })),
    available_transitions: availableTransitions(def, await receivableFacts(ctx, doc, def, undefined, { timeline, allocations: allocationRows }), actor),
    timeline: timeline.map((e) => ({
      action_key: e.actionKey,
      actor_member_id: e.actorMemberId,
      decided_at: e.decidedAt.toISOString(),
      from: e.fromState,
      to: e.toState,
      reason: e.reason,
    })),
  });
}
