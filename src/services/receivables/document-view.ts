/**
 * The one view of a receivables document header (contract 2.2), shared by GET and the list, so the
 * two cannot disagree. Pure formatting of a stored row: it never reads, and never computes a balance.
 */
import type { DocumentRow } from '../../db/queries/receivable-documents';
import { formatAmount, formatRate } from '../../lib/money';
import type { DocumentListItem } from '../../contract/receivables/document-list';
import { stateOf } from '../workflow/transitions';
import type { WorkflowDefinition } from '../workflow/types';

/** A document header as the queries read it: the stored row, its project and the group flag as at today. */
export type DocumentHeaderRow = DocumentRow & { projectCode: string | null; projectName: string | null; isGroupTransaction: boolean };

/**
 * Every field of a document but lines, allocations, timeline and available transitions. The balance
 * has one source, the stored `outstanding` / `outstanding_base` columns, which every allocation write
 * keeps current (services/receivables/allocations.ts).
 */
export function documentHeaderView(doc: DocumentHeaderRow, ctx: { def: WorkflowDefinition; baseCurrency: string; attachmentIds: string[] }): DocumentListItem {
  const cur = doc.currency;
  const base = ctx.baseCurrency;
  return {
    id: doc.id,
    kind: doc.kind,
    state: doc.state,
    semantic: stateOf(ctx.def, doc.state).semantic,
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
    updated_at: doc.updatedAt.toISOString(),
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
    outstanding: formatAmount(doc.outstanding, cur),
    outstanding_base: formatAmount(doc.outstandingBase, base),
    buyer: doc.buyer ?? null,
    seller: doc.seller ?? null,
    attachment_ids: ctx.attachmentIds,
  };
}
