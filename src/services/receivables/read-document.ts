import type { Database } from '../../db/client';
import { findAttachmentIds } from '../../db/queries/files';
import { findOrganization } from '../../db/queries/organizations';
import { findAllocations, findDocument, findLines, findShares, findTimeline } from '../../db/queries/receivable-documents';
import type { allocations } from '../../db/schema';
import { todayIn } from '../../lib/dates';
import { AppError } from '../../lib/errors';
import { formatAmount, formatRate } from '../../lib/money';
import type { Principal } from '../access/principal';
import { availableTransitions, stateOf } from '../workflow/transitions';
import { actorOf, loadWorkflow } from '../workflow/workflows';
import { outstanding } from './pricing';

type AllocationRow = typeof allocations.$inferSelect;

/** A reversed allocation and its reversal cancel out; neither counts toward a balance. */
export const countsTowardBalance = (a: Pick<AllocationRow, 'reversesId' | 'reversedById'>) => !a.reversesId && !a.reversedById;

/**
 * What is left of a document: an invoice or debit note less the allocations against it, a credit
 * note less the allocations made from it (DESIGN section 4).
 */
export function balanceOf(
  doc: { id: string; kind: string; grossAmount: string; grossBase: string },
  rows: readonly AllocationRow[],
): { outstanding: ReturnType<typeof outstanding>; outstandingBase: ReturnType<typeof outstanding> } {
  const mine = rows.filter((a) => (doc.kind === 'customer_credit_note' ? a.creditNoteId === doc.id : a.invoiceId === doc.id));
  const reversed = (a: AllocationRow) => !countsTowardBalance(a);
  return {
    outstanding: outstanding(doc.grossAmount, mine.map((a) => ({ amount: a.amount, reversed: reversed(a) }))),
    outstandingBase: outstanding(doc.grossBase, mine.map((a) => ({ amount: a.baseAmount, reversed: reversed(a) }))),
  };
}

/** The document as the contract's section 2.2 describes it, every field derived from stored data. */
export async function readDocument(db: Database, principal: Principal, id: string, now: Date) {
  const organizationId = principal.organizationId;
  const org = await findOrganization(db, { organizationId });
  if (!org) throw new AppError('not_found');
  const today = todayIn(org.timeZone, now);
  const doc = await findDocument(db, { organizationId, id, today });
  if (!doc) throw new AppError('not_found', { detail: 'No such receivables document in this organization' });

  const [lines, allocationRows, timeline, attachmentIds, def, actor] = [
    await findLines(db, { organizationId, documentId: id }),
    await findAllocations(db, { organizationId, documentId: id }),
    await findTimeline(db, { organizationId, documentId: id }),
    await findAttachmentIds(db, { organizationId, recordType: 'receivable_document', recordId: id }),
    await loadWorkflow(db, organizationId, 'receivable_document'),
    await actorOf(db, principal),
  ];
  const shares = await findShares(db, { organizationId, lineIds: lines.map((l) => l.id) });
  const base = org.baseCurrency;
  const cur = doc.currency;
  const balance = balanceOf(doc, allocationRows);

  return {
    id: doc.id,
    kind: doc.kind,
    state: doc.state,
    semantic: stateOf(def, doc.state).semantic,
    revision: doc.revision,
    reference: doc.reference,
    customer_id: doc.customerId,
    customer_reference: doc.customerReference,
    currency: cur,
    fx_rate: formatRate(doc.fxRate),
    invoice_date: doc.invoiceDate,
    due_on: doc.dueOn,
    payment_terms_days: doc.paymentTermsDays,
    created_at: doc.createdAt.toISOString(),
    issued_at: doc.issuedAt ? doc.issuedAt.toISOString() : null,
    prepared_by: doc.preparedBy,
    reason: doc.reason,
    original_invoice_id: doc.originalInvoiceId,
    ...(doc.originalTotal !== null ? { original_total: formatAmount(doc.originalTotal, cur) } : {}),
    legacy_reference: doc.legacyReference,
    is_opening: doc.isOpening,
    is_group_transaction: doc.isGroupTransaction,
    multiple_projects: doc.multipleProjects,
    project: doc.projectId && doc.projectCode !== null && doc.projectName !== null ? { id: doc.projectId, code: doc.projectCode, name: doc.projectName } : null,
    custom_fields: doc.customFields,
    net_total: formatAmount(doc.netTotal, cur),
    tax_total: formatAmount(doc.taxTotal, cur),
    gross_amount: formatAmount(doc.grossAmount, cur),
    gross_base: formatAmount(doc.grossBase, base),
    outstanding: formatAmount(balance.outstanding, cur),
    outstanding_base: formatAmount(balance.outstandingBase, base),
    buyer: doc.buyer ?? null,
    seller: doc.seller ?? null,
    lines: lines.map((l) => ({
      id: l.id,
      line_no: l.lineNo,
      account_id: l.accountId,
      classification_code: l.classificationCode,
      description: l.description,
      unit_code: l.unitCode,
      quantity: formatRate(l.quantity),
      unit_price: formatAmount(l.unitPrice, cur),
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
    attachment_ids: attachmentIds,
    available_transitions: availableTransitions(def, { state: doc.state, reporterMemberId: doc.preparedBy }, actor),
    timeline: timeline.map((e) => ({
      action_key: e.actionKey,
      actor_member_id: e.actorMemberId,
      decided_at: e.decidedAt.toISOString(),
      from: e.fromState,
      to: e.toState,
      reason: e.reason,
    })),
  };
}

export type DocumentView = Awaited<ReturnType<typeof readDocument>>;
