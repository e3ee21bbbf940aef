/**
 * Receipts (docs/design.md §16): a customer's payment, recorded and optionally allocated at once,
 * read and listed; and the operations that spend it (allocate), apply a credit note, and reverse an
 * allocation. Rules of spending live in allocations.ts; this file validates and answers.
 */
import { recordEvent } from '../events/append';
import { findCustomer } from '../../db/queries/customers';
import { insertReceipt } from '../../db/queries/receivable-documents';
import { journalReceipt } from '../journal/record-events';
import { findReceipt, findReceiptAllocations, listReceipts as listReceiptRows, RECEIPT_SORT_VALUE_PATTERN, type AllocationRow, type ReceiptRow } from '../../db/queries/receipts';
import type { ReceiptMethod } from '../../domain/receivables';
import { isCurrency } from '../../lib/code-lists';
import type { CursorBinding } from '../../lib/cursor';
import { keysetPage } from '../keyset-page';
import { AppError } from '../../lib/errors';
import { Dec, formatAmount, formatRate, roundAmount } from '../../lib/money';
import { amountInCurrency, maxLength, notBlank, Refusals } from '../../lib/refusals';
import type { ReceiptListPage, ReceiptView } from '../../contract/receivables/receipts';
import type { ServiceContext } from '../context';
import { checkFxRate } from '../rules/fx-rate';
import { lockReceiptOr404, reverseAllocationRow, spend, type SpendItem } from './allocations';
import { readDocument, type DocumentView } from './read-document';

export const RECEIPT_LIMITS = { reference: 100, allocations: 100 } as const;

export function receiptView(rc: ReceiptRow, rows: readonly AllocationRow[], baseCurrency: string): ReceiptView {
  const cur = rc.currency;
  return {
    id: rc.id,
    customer_id: rc.customerId,
    amount: formatAmount(rc.amount, cur),
    currency: cur,
    fx_rate: formatRate(rc.fxRate),
    received_on: rc.receivedOn,
    method: rc.method,
    reference: rc.reference,
    created_at: rc.createdAt.toISOString(),
    created_by: rc.createdBy,
    revision: rc.revision,
    allocated: formatAmount(new Dec(rc.amount).minus(rc.unallocated), cur),
    unallocated: formatAmount(rc.unallocated, cur),
    allocations: rows
      .filter((a) => a.receiptId === rc.id)
      .map((a) => ({
        id: a.id,
        invoice_id: a.invoiceId,
        created_by: a.createdBy,
        amount: formatAmount(a.amount, a.currency),
        base_amount: formatAmount(a.baseAmount, baseCurrency),
        exchange_difference: formatAmount(a.exchangeDifference, baseCurrency),
        currency: a.currency,
        effective_on: a.effectiveOn,
        created_at: a.createdAt.toISOString(),
        source_kind: a.sourceKind,
        receipt_id: a.receiptId,
        credit_note_id: a.creditNoteId,
        reverses_id: a.reversesId,
        reversed_by_id: a.reversedById,
      })),
  };
}

export async function getReceipt(ctx: ServiceContext, input: { id: string }): Promise<ReceiptView> {
  const organizationId = ctx.org.id;
  const rc = await findReceipt(ctx.db, { organizationId, id: input.id });
  if (!rc) throw new AppError('not_found', { detail: 'No such receipt in this organization' });
  return receiptView(rc, await findReceiptAllocations(ctx.db, { organizationId, receiptIds: [rc.id] }), ctx.org.baseCurrency);
}

export interface CreateReceiptInput {
  customer_id: string;
  amount: string;
  currency?: string;
  fx_rate?: string;
  received_on: string;
  method: ReceiptMethod;
  reference: string;
  allocations?: SpendItem[];
}

const itemPointer = (i: number, field: string) => `/allocations/${i}/${field}`;

/**
 * Records a customer's payment as the caller and allocates it at once when `allocations` are sent
 * (effective on `received_on`), in the caller's one transaction: a refused allocation leaves no receipt.
 */
export async function createReceipt(ctx: ServiceContext, input: CreateReceiptInput): Promise<ReceiptView> {
  const organizationId = ctx.org.id;
  const base = ctx.org.baseCurrency;
  const r = new Refusals();
  const customer = await findCustomer(ctx.db, { organizationId, id: input.customer_id, today: ctx.today });
  r.check(Boolean(customer), '/customer_id', 'no such customer in this organization');
  const currency = input.currency ?? customer?.currency ?? base;
  const currencyKnown = r.check(isCurrency(currency), '/currency', 'is not an ISO 4217 currency code');
  const fxRate = checkFxRate(r, { fx_rate: input.fx_rate, currency, base_currency: base, currency_known: currencyKnown });
  if (currencyKnown) amountInCurrency(r, input.amount, currency, '/amount', { positive: true });
  if (notBlank(r, input.reference, '/reference')) maxLength(r, input.reference, RECEIPT_LIMITS.reference, '/reference');
  r.check(input.received_on <= ctx.today, '/received_on', `must not be after today (${ctx.today})`);
  r.check((input.allocations?.length ?? 0) <= RECEIPT_LIMITS.allocations, '/allocations', `at most ${RECEIPT_LIMITS.allocations} allocations`);
  r.throwIfAny();

  const rate = fxRate ?? new Dec(1);
  const row = await insertReceipt(ctx.db, {
    organizationId,
    customerId: input.customer_id,
    reference: input.reference,
    currency,
    amount: input.amount,
    fxRate: rate.toFixed(),
    baseAmount: roundAmount(new Dec(input.amount).times(rate), base).toFixed(),
    unallocated: input.amount,
    method: input.method,
    receivedOn: input.received_on,
    createdBy: ctx.principal.memberId,
    createdAt: ctx.now,
  });
  if (!row) throw new AppError('internal');
  await journalReceipt(ctx, row);
  let allocated: Awaited<ReturnType<typeof spend>> = [];
  if (input.allocations?.length) {
    const receipt = await lockReceiptOr404(ctx, row.id);
    allocated = await spend(ctx, { kind: 'receipt', receipt }, input.allocations, { effective_on: input.received_on, pointer: itemPointer, bumpReceipt: false });
  }
  const view = await getReceipt(ctx, { id: row.id });
  await recordEvent(ctx, 'receivables.receipt.created', receiptSubject(view), { customer_id: view.customer_id, amount: view.amount, currency: view.currency, unallocated: view.unallocated });
  if (allocated.length) await recordAllocated(ctx, view, allocated);
  return view;
}

const receiptSubject = (view: ReceiptView) => ({ type: 'receipt' as const, id: view.id, revision: view.revision });

async function recordAllocated(ctx: ServiceContext, view: ReceiptView, rows: Awaited<ReturnType<typeof spend>>) {
  await recordEvent(ctx, 'receivables.receipt.allocated', receiptSubject(view), {
    allocations: rows.map((a) => ({ id: a.id, invoice_id: a.invoiceId, amount: new Dec(a.amount).toFixed() })),
    unallocated: view.unallocated,
  });
}

/** Spends what is left of a receipt on documents, effective today; answers the receipt. */
export async function allocateReceipt(ctx: ServiceContext, input: { receipt_id: string; allocations: SpendItem[] }): Promise<ReceiptView> {
  const receipt = await lockReceiptOr404(ctx, input.receipt_id);
  const r = new Refusals();
  r.check(input.allocations.length >= 1, '/allocations', 'at least one allocation');
  r.check(input.allocations.length <= RECEIPT_LIMITS.allocations, '/allocations', `at most ${RECEIPT_LIMITS.allocations} allocations`);
  r.throwIfAny();
  const rows = await spend(ctx, { kind: 'receipt', receipt }, input.allocations, { effective_on: ctx.today, pointer: itemPointer });
  const view = await getReceipt(ctx, { id: receipt.id });
  await recordAllocated(ctx, view, rows);
  return view;
}

/** Applies part of an issued credit note to an invoice or debit note, effective today; answers that document. */
export async function applyCreditNote(ctx: ServiceContext, input: { credit_note_id: string; invoice_id: string; amount: string }): Promise<DocumentView> {
  await spend(ctx, { kind: 'credit_note', id: input.credit_note_id }, [{ invoice_id: input.invoice_id, amount: input.amount }], {
    effective_on: ctx.today,
    pointer: (_i, field) => `/${field}`,
    sourcePointer: '/credit_note_id',
  });
  return readDocument(ctx, { id: input.invoice_id });
}

/** Reverses an allocation, effective today; answers the allocated document (both rows in its allocations). */
export async function reverseReceiptAllocation(ctx: ServiceContext, input: { allocation_id: string; reason?: string }): Promise<DocumentView> {
  const row = await reverseAllocationRow(ctx, { allocation_id: input.allocation_id, effective_on: ctx.today, ...(input.reason !== undefined ? { reason: input.reason } : {}) });
  if (row.receiptId) {
    const receipt = await getReceipt(ctx, { id: row.receiptId });
    await recordEvent(ctx, 'receivables.receipt.allocation_reversed', receiptSubject(receipt), {
      allocation_id: input.allocation_id,
      invoice_id: row.invoiceId,
      unallocated: receipt.unallocated,
    });
  }
  return readDocument(ctx, { id: row.invoiceId });
}

export interface ListReceiptsInput {
  customer_id?: string;
  received_from?: string;
  received_to?: string;
  unallocated?: boolean;
  sort?: 'received_on' | 'created_at';
  order?: 'asc' | 'desc';
  limit?: number;
  cursor?: string;
}

/** A keyset page of receipts, newest received first by default; the cursor is bound to sort, order and filters. */
export async function listReceipts(ctx: ServiceContext, input: ListReceiptsInput): Promise<ReceiptListPage> {
  const organizationId = ctx.org.id;
  const sort = input.sort ?? 'received_on';
  const order = input.order ?? 'desc';
  const limit = input.limit ?? 25;
  const r = new Refusals();
  if (input.received_from && input.received_to) r.check(input.received_to >= input.received_from, '/query/received_to', 'must not be before received_from');
  r.throwIfAny();
  const filters = { customerId: input.customer_id, receivedFrom: input.received_from, receivedTo: input.received_to, unallocated: input.unallocated };
  const binding: CursorBinding = { sort: `receipts:${sort}`, order, filters: { ...filters } };
  const keyset = await keysetPage(ctx, { binding, cursor: input.cursor, limit, value: RECEIPT_SORT_VALUE_PATTERN[sort] });
  const rows = await listReceiptRows(ctx.db, { organizationId, sort, order, filters, after: keyset.after, take: keyset.take });
  const { page, next_cursor } = keyset.cut(rows, (row) => ({ value: row.sortValue, id: row.id }));
  const allocationRows = await findReceiptAllocations(ctx.db, { organizationId, receiptIds: page.map((p) => p.id) });
  return { receipts: page.map((p) => receiptView(p, allocationRows, ctx.org.baseCurrency)), next_cursor };
}
