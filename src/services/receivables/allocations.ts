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
import { findOrganization } from '../../db/queries/organizations';
import { AppError, validationError } from '../../lib/errors';
import { checkAmountPlaces, Dec, roundAmount } from '../../lib/money';
import type { allocations } from '../../db/schema';
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

/**
 * Receipts and allocations. Recording money and applying it are people's operations, not part of
 * the public interface yet; the demo seed and tests use these. Every write of an allocation
 * refreshes the stored `outstanding` / `outstanding_base` of the documents it touches: the one
 * source of the balance that GET and the list show (document-view.ts).
 */

export async function recordReceipt(
  db: Database,
  input: { organizationId: string; customerId: string; reference: string; currency: string; amount: string; fxRate?: string; receivedOn: string; createdBy: string },
) {
  const org = await findOrganization(db, { organizationId: input.organizationId });
  if (!org) throw new AppError('not_found');
  if (!checkAmountPlaces(input.amount, input.currency) || !new Dec(input.amount).gt(0)) throw validationError('/amount', 'must be a positive amount');
  const baseAmount = roundAmount(new Dec(input.amount).times(input.fxRate ?? '1'), org.baseCurrency);
  const row = await insertReceipt(db, {
    organizationId: input.organizationId,
    customerId: input.customerId,
    reference: input.reference,
    currency: input.currency,
    amount: input.amount,
    baseAmount: baseAmount.toFixed(),
    receivedOn: input.receivedOn,
    createdBy: input.createdBy,
  });
  if (!row) throw new AppError('internal');
  return row;
}

/** Recomputes and stores the balance of a document from its allocations. */
export async function refreshBalance(db: Database, q: { organizationId: string; documentId: string }) {
  const doc = await lockDocument(db, { organizationId: q.organizationId, id: q.documentId });
  if (!doc) return;
  const rows = await findAllocations(db, { organizationId: q.organizationId, documentId: q.documentId });
  const b = balanceOf(doc, rows);
  await updateDocument(db, { organizationId: q.organizationId, id: q.documentId }, { outstanding: b.outstanding.toFixed(), outstandingBase: b.outstandingBase.toFixed() });
}

export interface AllocateInput {
  organizationId: string;
  invoiceId: string;
  amount: string;
  effectiveOn: string;
  createdBy: string;
  now?: Date;
  receiptId?: string;
  creditNoteId?: string;
}

/**
 * Applies part of a receipt or of an issued credit note to an issued invoice or debit note of the
 * same customer and currency, never more than either has left. The base amount is the invoice's
 * share of its own base gross, so settling in full brings `outstanding_base` to exactly zero.
 */
export async function allocate(db: Database, input: AllocateInput) {
  const { organizationId } = input;
  if (Boolean(input.receiptId) === Boolean(input.creditNoteId)) throw validationError('/source', 'name exactly one of a receipt and a credit note');
  const invoice = await lockDocument(db, { organizationId, id: input.invoiceId });
  if (!invoice || invoice.kind === 'customer_credit_note' || !invoice.issuedAt) throw validationError('/invoice_id', 'no issued invoice or debit note with this id');
  if (!checkAmountPlaces(input.amount, invoice.currency) || !new Dec(input.amount).gt(0)) throw validationError('/amount', 'must be a positive amount');
  const amount = new Dec(input.amount);
  const balance = balanceOf(invoice, await findAllocations(db, { organizationId, documentId: invoice.id }));
  if (amount.gt(balance.outstanding)) throw validationError('/amount', 'is more than the invoice has outstanding');

  let sourceLeft: Dec;
  if (input.receiptId) {
    const receipt = await lockReceipt(db, { organizationId, id: input.receiptId });
    if (!receipt || receipt.customerId !== invoice.customerId || receipt.currency !== invoice.currency) throw validationError('/receipt_id', 'no receipt of this customer in this currency');
    sourceLeft = new Dec(receipt.amount).minus(await allocatedFrom(db, { organizationId, receiptId: receipt.id }));
  } else {
    const note = await lockDocument(db, { organizationId, id: input.creditNoteId! });
    if (!note || note.kind !== 'customer_credit_note' || !note.issuedAt || note.customerId !== invoice.customerId || note.currency !== invoice.currency) {
      throw validationError('/credit_note_id', 'no issued credit note of this customer in this currency');
    }
    sourceLeft = new Dec(note.grossAmount).minus(await allocatedFrom(db, { organizationId, creditNoteId: note.id }));
  }
  if (amount.gt(sourceLeft)) throw validationError('/amount', 'is more than the source has left to allocate');

  const org = await findOrganization(db, { organizationId });
  if (!org) throw new AppError('not_found');
  const baseAmount = amount.eq(balance.outstanding) ? balance.outstandingBase : roundAmount(amount.times(invoice.fxRate), org.baseCurrency);
  const row = await insertAllocation(db, {
    organizationId,
    invoiceId: invoice.id,
    sourceKind: input.receiptId ? 'receipt' : 'credit_note',
    receiptId: input.receiptId ?? null,
    creditNoteId: input.creditNoteId ?? null,
    currency: invoice.currency,
    amount: amount.toFixed(),
    baseAmount: baseAmount.toFixed(),
    effectiveOn: input.effectiveOn,
    createdBy: input.createdBy,
    ...(input.now ? { createdAt: input.now } : {}),
  });
  if (!row) throw new AppError('internal');
  await refreshBalance(db, { organizationId, documentId: invoice.id });
  if (input.creditNoteId) await refreshBalance(db, { organizationId, documentId: input.creditNoteId });
  return row;
}

/** Reverses an allocation with an opposite one; both then stop counting toward balances. */
export async function reverseAllocation(db: Database, input: { organizationId: string; allocationId: string; effectiveOn: string; createdBy: string; now?: Date }) {
  const { organizationId } = input;
  const original = await lockAllocation(db, { organizationId, id: input.allocationId });
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
    effectiveOn: input.effectiveOn,
    createdBy: input.createdBy,
    reversesId: original.id,
    ...(input.now ? { createdAt: input.now } : {}),
  });
  if (!row) throw new AppError('internal');
  await markAllocationReversed(db, { organizationId, id: original.id, reversedById: row.id });
  await refreshBalance(db, { organizationId, documentId: original.invoiceId });
  if (original.creditNoteId) await refreshBalance(db, { organizationId, documentId: original.creditNoteId });
  return row;
}
