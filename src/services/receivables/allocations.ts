/**
 * Receipts and allocations (DESIGN section 16). Recording money and applying it are people's
 * operations not yet in the public interface; the demo seed and tests use these. An allocation is
 * never edited or deleted (a reversal undoes it), never spends more than its source or the document
 * has left, and every write of one refreshes the stored `outstanding` / `outstanding_base` of the
 * documents it touches: the one source of the balance GET and the list show (document-view.ts).
 */
import type { Database } from '../../db/client';
import {
  allocatedFrom,
  findAllocations,
  insertAllocation,
  insertReceipt,
  lockAllocation,
  lockDocument,
  lockReceipt,
  markAllocationReversed,
  updateDocument,
} from '../../db/queries/receivable-documents';
import type { allocations } from '../../db/schema';
import { AppError, validationError } from '../../lib/errors';
import { isCurrency } from '../../lib/code-lists';
import { Dec, roundAmount } from '../../lib/money';
import { amountInCurrency, Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
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

export interface RecordReceiptInput {
  customer_id: string;
  reference: string;
  currency: string;
  amount: string;
  /** Base-currency units per one unit of `currency`; 1 when absent. */
  fx_rate?: string;
  received_on: string;
}

/** A positive amount with at most the currency's places, or a 422 naming the field. */
function positiveAmount(value: string, currency: string, pointer: string): void {
  const r = new Refusals();
  amountInCurrency(r, value, currency, pointer, { positive: true });
  r.throwIfAny();
}

/** Records money received from a customer, as the caller. */
export async function recordReceipt(ctx: ServiceContext, input: RecordReceiptInput) {
  const r = new Refusals();
  if (r.check(isCurrency(input.currency), '/currency', 'is not an ISO 4217 currency code')) amountInCurrency(r, input.amount, input.currency, '/amount', { positive: true });
  r.throwIfAny();
  const baseAmount = roundAmount(new Dec(input.amount).times(input.fx_rate ?? '1'), ctx.org.baseCurrency);
  const row = await insertReceipt(ctx.db, {
    organizationId: ctx.principal.organizationId,
    customerId: input.customer_id,
    reference: input.reference,
    currency: input.currency,
    amount: input.amount,
    baseAmount: baseAmount.toFixed(),
    receivedOn: input.received_on,
    createdBy: ctx.principal.memberId,
  });
  if (!row) throw new AppError('internal');
  return row;
}

/** Recomputes and stores the balance of a document from its allocations. */
async function refreshBalance(db: Database, q: { organizationId: string; documentId: string }) {
  const doc = await lockDocument(db, { organizationId: q.organizationId, id: q.documentId });
  if (!doc) return;
  const rows = await findAllocations(db, { organizationId: q.organizationId, documentId: q.documentId });
  const b = balanceOf(doc, rows);
  await updateDocument(db, { organizationId: q.organizationId, id: q.documentId }, { outstanding: b.outstanding.toFixed(), outstandingBase: b.outstandingBase.toFixed() });
}

export interface AllocateInput {
  invoice_id: string;
  amount: string;
  effective_on: string;
  /** Exactly one source: a receipt or an issued credit note. */
  receipt_id?: string;
  credit_note_id?: string;
}

/**
 * Applies part of a receipt or of an issued credit note to an issued invoice or debit note of the
 * same customer and currency, as the caller, never more than either has left. The base amount is the
 * invoice's share of its own base gross, so settling in full brings `outstanding_base` to exactly zero.
 */
export async function allocate(ctx: ServiceContext, input: AllocateInput) {
  const { db } = ctx;
  const organizationId = ctx.principal.organizationId;
  if (Boolean(input.receipt_id) === Boolean(input.credit_note_id)) throw validationError('/source', 'name exactly one of a receipt and a credit note');
  const invoice = await lockDocument(db, { organizationId, id: input.invoice_id });
  if (!invoice || invoice.kind === 'customer_credit_note' || !invoice.issuedAt) throw validationError('/invoice_id', 'no issued invoice or debit note with this id');
  positiveAmount(input.amount, invoice.currency, '/amount');
  const amount = new Dec(input.amount);
  const balance = balanceOf(invoice, await findAllocations(db, { organizationId, documentId: invoice.id }));
  if (amount.gt(balance.outstanding)) throw validationError('/amount', 'is more than the invoice has outstanding');

  let sourceLeft: Dec;
  if (input.receipt_id) {
    const receipt = await lockReceipt(db, { organizationId, id: input.receipt_id });
    if (!receipt || receipt.customerId !== invoice.customerId || receipt.currency !== invoice.currency) throw validationError('/receipt_id', 'no receipt of this customer in this currency');
    sourceLeft = new Dec(receipt.amount).minus(await allocatedFrom(db, { organizationId, receiptId: receipt.id }));
  } else {
    const note = await lockDocument(db, { organizationId, id: input.credit_note_id! });
    if (!note || note.kind !== 'customer_credit_note' || !note.issuedAt || note.customerId !== invoice.customerId || note.currency !== invoice.currency) {
      throw validationError('/credit_note_id', 'no issued credit note of this customer in this currency');
    }
    sourceLeft = new Dec(note.grossAmount).minus(await allocatedFrom(db, { organizationId, creditNoteId: note.id }));
  }
  if (amount.gt(sourceLeft)) throw validationError('/amount', 'is more than the source has left to allocate');

  const baseAmount = amount.eq(balance.outstanding) ? balance.outstandingBase : roundAmount(amount.times(invoice.fxRate), ctx.org.baseCurrency);
  const row = await insertAllocation(db, {
    organizationId,
    invoiceId: invoice.id,
    sourceKind: input.receipt_id ? 'receipt' : 'credit_note',
    receiptId: input.receipt_id ?? null,
    creditNoteId: input.credit_note_id ?? null,
    currency: invoice.currency,
    amount: amount.toFixed(),
    baseAmount: baseAmount.toFixed(),
    effectiveOn: input.effective_on,
    createdBy: ctx.principal.memberId,
    createdAt: ctx.now,
  });
  if (!row) throw new AppError('internal');
  await refreshBalance(db, { organizationId, documentId: invoice.id });
  if (input.credit_note_id) await refreshBalance(db, { organizationId, documentId: input.credit_note_id });
  return row;
}

/** Reverses an allocation with an opposite one, as the caller; both then stop counting toward balances. */
export async function reverseAllocation(ctx: ServiceContext, input: { allocation_id: string; effective_on: string }) {
  const { db } = ctx;
  const organizationId = ctx.principal.organizationId;
  const original = await lockAllocation(db, { organizationId, id: input.allocation_id });
  if (!original) throw new AppError('not_found');
  if (original.reversedById || original.reversesId) throw new AppError('conflict', { detail: 'The allocation is already reversed or is itself a reversal' });
  const row = await insertAllocation(db, {
    organizationId,
    invoiceId: original.invoiceId,
    sourceKind: original.sourceKind,
    receiptId: original.receiptId,
    creditNoteId: original.creditNoteId,
    currency: original.currency,
    amount: new Dec(original.amount).negated().toFixed(),
    baseAmount: new Dec(original.baseAmount).negated().toFixed(),
    effectiveOn: input.effective_on,
    createdBy: ctx.principal.memberId,
    reversesId: original.id,
    createdAt: ctx.now,
  });
  if (!row) throw new AppError('internal');
  await markAllocationReversed(db, { organizationId, id: original.id, reversedById: row.id });
  await refreshBalance(db, { organizationId, documentId: original.invoiceId });
  if (original.creditNoteId) await refreshBalance(db, { organizationId, documentId: original.creditNoteId });
  return row;
}
