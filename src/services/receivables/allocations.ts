/**
 * Allocations (docs/design.md §16): spending a receipt, or applying an issued credit note, on a
 * customer's issued invoices and debit notes, and reversing an allocation. An allocation is never
 * edited or deleted (a reversal undoes it), never spends more than its source or the document has
 * left, and every write of one refreshes, in the same transaction, the stored `outstanding` /
 * `outstanding_base` of the documents it touches and the receipt's `unallocated` (the one source of
 * the balances GET and the lists show), and appends a timeline entry to each document touched.
 *
 * Locks, always in this order so two writes can never wait on each other: the receipt, then the
 * allocated documents (invoices, debit notes) by id, then the credit note (issuing and preparing a
 * credit note lock its invoice before it, too), then the allocation reversed. Balances are read
 * after the locks are held, so concurrent allocations can never spend the same money twice.
 */
import type { Database } from '../../db/client';
import {
  allocatedFrom,
  findAllocations,
  insertAllocation,
  insertTimelineEntry,
  lockAllocation,
  lockDocument,
  lockReceipt,
  markAllocationReversed,
  updateDocument,
  type DocumentRow,
} from '../../db/queries/receivable-documents';
import { findAllocation, sourceBaseAllocated, updateReceiptBalance, type AllocationRow, type ReceiptRow } from '../../db/queries/receipts';
import { AppError } from '../../lib/errors';
import { Dec, formatAmount, roundAmount } from '../../lib/money';
import { amountInCurrency, maxLength, notBlank, Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { stateOf } from '../workflow/transitions';
import { loadWorkflow } from '../workflow/workflows';
import { outstanding } from './pricing';
import { journalAllocation } from '../journal/record-events';

/** A reversed allocation and its reversal cancel out; neither counts toward a balance. */
export const countsTowardBalance = (a: Pick<AllocationRow, 'reversesId' | 'reversedById'>) => !a.reversesId && !a.reversedById;

/**
 * What is left of a document: an invoice or debit note less the allocations against it (base at its
 * own rate: `base_amount`), a credit note less the allocations made from it (base at the credit
 * note's rate: `base_amount + exchange_difference`), docs/design.md §4.
 */
export function balanceOf(
  doc: { id: string; kind: string; grossAmount: string; grossBase: string },
  rows: readonly AllocationRow[],
): { outstanding: ReturnType<typeof outstanding>; outstandingBase: ReturnType<typeof outstanding> } {
  const isNote = doc.kind === 'customer_credit_note';
  const mine = rows.filter((a) => (isNote ? a.creditNoteId === doc.id : a.invoiceId === doc.id));
  const reversed = (a: AllocationRow) => !countsTowardBalance(a);
  return {
    outstanding: outstanding(doc.grossAmount, mine.map((a) => ({ amount: a.amount, reversed: reversed(a) }))),
    outstandingBase: outstanding(
      doc.grossBase,
      mine.map((a) => ({ amount: isNote ? new Dec(a.baseAmount).plus(a.exchangeDifference).toFixed() : a.baseAmount, reversed: reversed(a) })),
    ),
  };
}

/** Recomputes and stores the balance of a (locked) document from its allocations. */
async function refreshBalance(db: Database, q: { organizationId: string; doc: DocumentRow }) {
  const rows = await findAllocations(db, { organizationId: q.organizationId, documentId: q.doc.id });
  const b = balanceOf(q.doc, rows);
  await updateDocument(db, { organizationId: q.organizationId, id: q.doc.id }, { outstanding: b.outstanding.toFixed(), outstandingBase: b.outstandingBase.toFixed() });
}

/** Recomputes and stores what is left of a (locked) receipt; bumps its revision unless it is being created. */
async function refreshReceipt(db: Database, q: { organizationId: string; receipt: ReceiptRow; bump?: boolean }) {
  const left = new Dec(q.receipt.amount).minus(await allocatedFrom(db, { organizationId: q.organizationId, receiptId: q.receipt.id }));
  await updateReceiptBalance(db, { organizationId: q.organizationId, id: q.receipt.id, unallocated: left.toFixed(), bump: q.bump ?? true });
}

/** States a document can be settled in: issued and not ended (not a draft, cancelled, rejected or discarded). */
export const SETTLEABLE = new Set(['accrual', 'dispute', 'acknowledged', 'committed', 'effect', 'custom']);

export interface SpendItem {
  invoice_id: string;
  amount: string;
}

export type AllocationSource = { kind: 'receipt'; receipt: ReceiptRow } | { kind: 'credit_note'; id: string };

export interface SpendOptions {
  effective_on: string;
  /** JSON Pointer of an item's field (`/allocations/0/amount`, or `/amount` for a single one). */
  pointer: (index: number, field: 'invoice_id' | 'amount') => string;
  /** Pointer of the credit note when it cannot be applied (`/credit_note_id`). */
  sourcePointer?: string;
  /** false while the receipt is being created: nobody has seen a revision of it yet. */
  bumpReceipt?: boolean;
}

/**
 * Allocates from a source (a receipt locked by the caller, or a credit note locked here) to documents,
 * in the order given: every item is checked first, against what is left after the items before it,
 * and any fault is one 422 naming each item at fault; nothing is written then.
 */
export async function spend(ctx: ServiceContext, source: AllocationSource, items: readonly SpendItem[], opts: SpendOptions): Promise<AllocationRow[]> {
  const { db } = ctx;
  const organizationId = ctx.org.id;
  const base = ctx.org.baseCurrency;

  // Allocated documents by id, then the credit note.
  const targets = new Map<string, DocumentRow | undefined>();
  for (const id of [...new Set(items.map((i) => i.invoice_id))].sort()) targets.set(id, await lockDocument(db, { organizationId, id }));
  const def = await loadWorkflow(db, organizationId, 'receivable_document');
  const settleable = (d: DocumentRow) => Boolean(d.issuedAt) && SETTLEABLE.has(stateOf(def, d.state).semantic);

  const r = new Refusals();
  let src: { customerId: string; currency: string; fxRate: string; left: Dec; leftBase: Dec; noun: string; note?: DocumentRow };
  if (source.kind === 'receipt') {
    const rc = source.receipt;
    const allocated = await allocatedFrom(db, { organizationId, receiptId: rc.id });
    const allocatedBase = await sourceBaseAllocated(db, { organizationId, receiptId: rc.id });
    src = { customerId: rc.customerId, currency: rc.currency, fxRate: rc.fxRate, left: new Dec(rc.amount).minus(allocated), leftBase: new Dec(rc.baseAmount).minus(allocatedBase), noun: 'the receipt has unallocated' };
  } else {
    const note = await lockDocument(db, { organizationId, id: source.id });
    if (!note || note.kind !== 'customer_credit_note') throw new AppError('not_found', { detail: 'No such credit note in this organization' });
    if (!settleable(note)) throw new AppError('validation', { detail: 'credit_note_id: the credit note is not issued', errors: [{ pointer: opts.sourcePointer ?? '/credit_note_id', detail: 'is not an issued credit note' }] });
    const b = balanceOf(note, await findAllocations(db, { organizationId, documentId: note.id }));
    src = { customerId: note.customerId, currency: note.currency, fxRate: note.fxRate, left: b.outstanding, leftBase: b.outstandingBase, noun: 'the credit note has outstanding', note };
  }

  // What each document has left before this write; `running` as the items before consume it.
  const start = new Map<string, { amount: Dec; base: Dec }>();
  const running = new Map<string, Dec>();
  // Keyed by the stored id: an id given in upper case finds the same document (uuid equality) and is
  // looked up below by `doc.id`.
  for (const doc of new Map([...targets.values()].filter((d) => d !== undefined).map((d) => [d.id, d])).values()) {
    const b = balanceOf(doc, await findAllocations(db, { organizationId, documentId: doc.id }));
    start.set(doc.id, { amount: b.outstanding, base: b.outstandingBase });
    running.set(doc.id, b.outstanding);
  }

  const plan: { doc: DocumentRow; amount: Dec }[] = [];
  let sourceLeft = src.left;
  items.forEach((item, i) => {
    const doc = targets.get(item.invoice_id);
    const at = opts.pointer(i, 'invoice_id');
    if (!doc || doc.kind === 'customer_credit_note') return void r.add(at, 'no invoice or debit note with this id in this organization');
    if (!settleable(doc)) return void r.add(at, `the document is ${doc.state}: only issued invoices and debit notes are settled`);
    if (doc.customerId !== src.customerId) return void r.add(at, 'the document is of another customer');
    if (doc.currency !== src.currency) return void r.add(at, `the document is in ${doc.currency}, not ${src.currency}`);
    const amountAt = opts.pointer(i, 'amount');
    if (!amountInCurrency(r, item.amount, src.currency, amountAt, { positive: true })) return;
    const amount = new Dec(item.amount);
    const docLeft = running.get(doc.id)!;
    if (amount.gt(docLeft)) return void r.add(amountAt, `is more than the document has outstanding (${formatAmount(docLeft, doc.currency)})`);
    if (amount.gt(sourceLeft)) return void r.add(amountAt, `is more than ${src.noun} (${formatAmount(Dec.max(sourceLeft, 0), src.currency)})`);
    running.set(doc.id, docLeft.minus(amount));
    sourceLeft = sourceLeft.minus(amount);
    plan.push({ doc, amount });
  });
  r.throwIfAny();

  // Write: the last piece of a document takes what is left of its base (so outstanding_base closes
  // with outstanding), and the last piece of a source what is left of the source's base.
  const docBase = start;
  let srcAmount = src.left;
  let srcBase = src.leftBase;
  const rows: AllocationRow[] = [];
  for (const { doc, amount } of plan) {
    const d = docBase.get(doc.id)!;
    const baseAmount = amount.eq(d.amount) ? d.base : roundAmount(amount.times(doc.fxRate), base);
    const sourceBase = amount.eq(srcAmount) ? srcBase : roundAmount(amount.times(src.fxRate), base);
    d.amount = d.amount.minus(amount);
    d.base = d.base.minus(baseAmount);
    srcAmount = srcAmount.minus(amount);
    srcBase = srcBase.minus(sourceBase);
    const row = await insertAllocation(db, {
      organizationId,
      invoiceId: doc.id,
      sourceKind: source.kind,
      receiptId: source.kind === 'receipt' ? source.receipt.id : null,
      creditNoteId: source.kind === 'credit_note' ? source.id : null,
      currency: doc.currency,
      amount: amount.toFixed(),
      baseAmount: baseAmount.toFixed(),
      exchangeDifference: sourceBase.minus(baseAmount).toFixed(),
      effectiveOn: opts.effective_on,
      createdBy: ctx.principal.memberId,
      createdAt: ctx.now,
    });
    if (!row) throw new AppError('internal');
    await journalAllocation(ctx, row, doc.reference ?? doc.id);
    rows.push(row);
    const note = source.kind === 'receipt' ? 'receipt' : 'credit note';
    await timeline(ctx, doc, source.kind === 'receipt' ? 'allocate' : 'apply_credit_note', `${formatAmount(amount, doc.currency)} ${doc.currency} allocated from a ${note}`);
    if (src.note) await timeline(ctx, src.note, 'apply_credit_note', `${formatAmount(amount, doc.currency)} ${doc.currency} applied to ${doc.reference ?? doc.id}`);
  }
  for (const doc of new Set(plan.map((p) => p.doc))) await refreshBalance(db, { organizationId, doc });
  if (src.note) await refreshBalance(db, { organizationId, doc: src.note });
  if (source.kind === 'receipt') await refreshReceipt(db, { organizationId, receipt: source.receipt, bump: opts.bumpReceipt ?? true });
  return rows;
}

/** A balance change on a document's timeline: its state stays; the entry says who and when. */
async function timeline(ctx: ServiceContext, doc: DocumentRow, actionKey: string, reason: string) {
  await insertTimelineEntry(ctx.db, {
    organizationId: ctx.org.id,
    documentId: doc.id,
    actionKey,
    actorMemberId: ctx.principal.memberId,
    decidedAt: ctx.now,
    fromState: doc.state,
    toState: doc.state,
    reason,
  });
}

/** Locks a receipt of the organization; 404 when there is none. */
export async function lockReceiptOr404(ctx: ServiceContext, id: string): Promise<ReceiptRow> {
  const receipt = await lockReceipt(ctx.db, { organizationId: ctx.org.id, id });
  if (!receipt) throw new AppError('not_found', { detail: 'No such receipt in this organization' });
  return receipt;
}

/**
 * Reverses an allocation with an opposite one, as the caller: both then stop counting toward
 * balances. A reversal, or an allocation already reversed, is 409 `conflict`.
 */
export async function reverseAllocationRow(ctx: ServiceContext, input: { allocation_id: string; effective_on: string; reason?: string }): Promise<AllocationRow> {
  const { db } = ctx;
  const organizationId = ctx.org.id;
  const r = new Refusals();
  if (input.reason !== undefined) {
    notBlank(r, input.reason, '/reason');
    maxLength(r, input.reason, 500, '/reason');
  }
  r.throwIfAny();
  const seen = await findAllocation(db, { organizationId, id: input.allocation_id });
  if (!seen) throw new AppError('not_found', { detail: 'No such allocation in this organization' });
  const receipt = seen.receiptId ? await lockReceipt(db, { organizationId, id: seen.receiptId }) : undefined;
  const doc = await lockDocument(db, { organizationId, id: seen.invoiceId });
  const note = seen.creditNoteId ? await lockDocument(db, { organizationId, id: seen.creditNoteId }) : undefined;
  const original = await lockAllocation(db, { organizationId, id: input.allocation_id });
  if (!original || !doc) throw new AppError('not_found', { detail: 'No such allocation in this organization' });
  if (original.reversesId) throw new AppError('conflict', { detail: 'The allocation is itself a reversal; it cannot be reversed' });
  if (original.reversedById) throw new AppError('conflict', { detail: 'The allocation is already reversed' });
  const row = await insertAllocation(db, {
    organizationId,
    invoiceId: original.invoiceId,
    sourceKind: original.sourceKind,
    receiptId: original.receiptId,
    creditNoteId: original.creditNoteId,
    currency: original.currency,
    amount: new Dec(original.amount).negated().toFixed(),
    baseAmount: new Dec(original.baseAmount).negated().toFixed(),
    exchangeDifference: new Dec(original.exchangeDifference).negated().toFixed(),
    effectiveOn: input.effective_on,
    createdBy: ctx.principal.memberId,
    reversesId: original.id,
    createdAt: ctx.now,
  });
  if (!row) throw new AppError('internal');
  await journalAllocation(ctx, row, doc.reference ?? doc.id);
  await markAllocationReversed(db, { organizationId, id: original.id, reversedById: row.id });
  const text = input.reason ?? `Allocation of ${formatAmount(original.amount, original.currency)} ${original.currency} reversed`;
  await timeline(ctx, doc, 'reverse_allocation', text);
  await refreshBalance(db, { organizationId, doc });
  if (note) {
    await timeline(ctx, note, 'reverse_allocation', text);
    await refreshBalance(db, { organizationId, doc: note });
  }
  if (receipt) await refreshReceipt(db, { organizationId, receipt });
  return row;
}

// ---------------------------------------------------------------------------------------------
// Older entry points, kept while the demo seed and test factories call them.

export interface RecordReceiptInput {
  customer_id: string;
  reference: string;
  currency: string;
  amount: string;
  /** Base-currency units per one unit of `currency`; required when not the base currency. */
  fx_rate?: string;
  received_on: string;
  method?: import('../../domain/receivables').ReceiptMethod;
}

/** Records money received from a customer, as the caller (the receipt answer; see receipts.ts). */
export async function recordReceipt(ctx: ServiceContext, input: RecordReceiptInput) {
  const { createReceipt } = await import('./receipts');
  return createReceipt(ctx, { ...input, method: input.method ?? 'other' });
}

export interface AllocateInput {
  invoice_id: string;
  amount: string;
  effective_on: string;
  /** Exactly one source: a receipt or an issued credit note. */
  receipt_id?: string;
  credit_note_id?: string;
}

/** One allocation from a receipt or a credit note (refusals at `/invoice_id`, `/amount`); answers the row. */
export async function allocate(ctx: ServiceContext, input: AllocateInput): Promise<AllocationRow> {
  if (Boolean(input.receipt_id) === Boolean(input.credit_note_id)) {
    throw new AppError('validation', { detail: 'name exactly one of a receipt and a credit note', errors: [{ pointer: '/receipt_id', detail: 'name exactly one of a receipt and a credit note' }] });
  }
  const source: AllocationSource = input.receipt_id ? { kind: 'receipt', receipt: await lockReceiptOr404(ctx, input.receipt_id) } : { kind: 'credit_note', id: input.credit_note_id! };
  const [row] = await spend(ctx, source, [{ invoice_id: input.invoice_id, amount: input.amount }], { effective_on: input.effective_on, pointer: (_i, f) => `/${f}` });
  return row!;
}

/** Reverses an allocation (see reverseAllocationRow); answers the reversal row. */
export async function reverseAllocation(ctx: ServiceContext, input: { allocation_id: string; effective_on: string; reason?: string }) {
  return reverseAllocationRow(ctx, input);
}
