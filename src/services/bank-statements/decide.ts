/**
 * Deciding a statement line: accept (the receipt and its allocations written in one step through the
 * receipt services, so every rule of spending holds), split (an accept over several documents),
 * ignore, and undo (the allocations the accept wrote reversed through the allocation reversal; the
 * receipt stays, its money was received, and is the line's again when it is accepted anew).
 *
 * Locks: the line first, then what the receipt services lock (the receipt, then the documents), so
 * two people deciding one line take turns and the second sees the first's decision.
 */
import { findBankAccount, findStatementLine, lineOfReceipt, updateStatementLine, type BankAccountRow, type StatementLineRow } from '../../db/queries/bank-statements';
import { findDocumentRow } from '../../db/queries/receivable-documents';
import { findReceipt } from '../../db/queries/receipts';
import { AppError, conflict, notFound } from '../../lib/errors';
import { Dec, formatAmount } from '../../lib/money';
import { Refusals } from '../../lib/refusals';
import type { ReceiptView } from '../../contract/receivables/receipts';
import type { ServiceContext } from '../context';
import type { SpendItem } from '../receivables/allocations';
import { allocateReceipt, createReceipt, getReceipt, RECEIPT_LIMITS, reverseReceiptAllocation } from '../receivables/receipts';
import { lineWithSuggestions, type LineView } from './lines';

async function lockLine(ctx: ServiceContext, id: string): Promise<{ line: StatementLineRow; account: BankAccountRow }> {
  const line = await findStatementLine(ctx.db, { organizationId: ctx.org.id, id, lock: true });
  if (!line) throw notFound('statement line');
  const account = await findBankAccount(ctx.db, { organizationId: ctx.org.id, id: line.bankAccountId });
  if (!account) throw notFound('statement line');
  return { line, account };
}

export interface AcceptLineInput {
  id: string;
  customer_id?: string;
  receipt_id?: string;
  /** Base-currency units per one unit of the account's currency; required when that is not the base currency. */
  fx_rate?: string;
  allocations: SpendItem[];
}

/**
 * Refuses documents with nothing outstanding (paid since the suggestion was read) with a sentence
 * naming the document; the receipt services refuse the rest (another customer, more than is left).
 */
async function checkStillOpen(ctx: ServiceContext, items: readonly SpendItem[]) {
  for (const [i, item] of items.entries()) {
    const doc = await findDocumentRow(ctx.db, { organizationId: ctx.org.id, id: item.invoice_id });
    if (doc && doc.issuedAt && new Dec(doc.outstanding).lte(0)) {
      const name = doc.reference ?? doc.id;
      throw conflict(`/allocations/${i}/invoice_id`, `${name} has nothing outstanding: it was paid after the suggestion was made`, `${name} is already paid, so the line was not matched; choose another document or leave the money unallocated`);
    }
  }
}

/** Whose money it is: the customer sent, else the first allocated document's; 422 when neither. */
async function customerOf(ctx: ServiceContext, input: AcceptLineInput): Promise<string> {
  if (input.customer_id) return input.customer_id;
  const first = input.allocations[0];
  const doc = first ? await findDocumentRow(ctx.db, { organizationId: ctx.org.id, id: first.invoice_id }) : undefined;
  if (!doc) {
    const pointer = first ? '/allocations/0/invoice_id' : '/customer_id';
    throw new AppError('validation', { detail: 'Name the customer or a document the line pays', errors: [{ pointer, detail: first ? 'no invoice or debit note with this id in this organization' : 'is required when no document is allocated' }] });
  }
  return doc.customerId;
}

/** The receipt the line already is (an earlier accept, or the one named), checked against the line. */
async function existingReceipt(ctx: ServiceContext, line: StatementLineRow, account: BankAccountRow, input: AcceptLineInput) {
  const id = line.receiptId ?? input.receipt_id;
  if (!id) return undefined;
  const pointer = line.receiptId ? '/id' : '/receipt_id';
  if (line.receiptId && input.receipt_id && input.receipt_id !== line.receiptId) throw conflict('/receipt_id', 'the line is already receipt ' + line.receiptId + ' (from its earlier match)');
  const rc = await findReceipt(ctx.db, { organizationId: ctx.org.id, id });
  if (!rc) throw new AppError('validation', { detail: 'receipt_id: no such receipt in this organization', errors: [{ pointer, detail: 'no such receipt in this organization' }] });
  const r = new Refusals();
  r.check(rc.currency === account.currency, pointer, `the receipt is in ${rc.currency}, the bank account in ${account.currency}`);
  if (input.customer_id) r.check(rc.customerId === input.customer_id, '/customer_id', "is not the customer of the line's receipt (recorded when the line was first accepted)");
  r.throwIfAny();
  const other = await lineOfReceipt(ctx.db, { organizationId: ctx.org.id, receiptId: rc.id });
  if (other && other.id !== line.id) throw conflict('/receipt_id', 'the receipt is already the money of another statement line');
  return rc;
}

/**
 * Accepts a credit line: a receipt of the line's amount on its date (or the receipt it already is)
 * and the allocations, in the caller's one transaction; the line is then `matched`. Accepting a line
 * already matched is 409 (an Idempotency-Key replays the first answer instead).
 */
export async function acceptLine(ctx: ServiceContext, input: AcceptLineInput): Promise<{ line: LineView; receipt: ReceiptView }> {
  const { line, account } = await lockLine(ctx, input.id);
  if (line.status !== 'open') throw conflict('/id', `the line is ${line.status}; undo it first`, `The line is already ${line.status}; undo it before deciding again`);
  if (new Dec(line.amount).lte(0)) throw conflict('/id', 'the line is money out (a debit): only a credit is a customer payment');
  if (input.allocations.length > RECEIPT_LIMITS.allocations) throw new AppError('validation', { detail: 'Too many allocations', errors: [{ pointer: '/allocations', detail: `at most ${RECEIPT_LIMITS.allocations} allocations` }] });
  await checkStillOpen(ctx, input.allocations);
  const existing = await existingReceipt(ctx, line, account, input);
  let receipt: ReceiptView;
  const before = new Set(existing ? (await getReceipt(ctx, { id: existing.id })).allocations.map((a) => a.id) : []);
  if (existing) {
    receipt = input.allocations.length ? await allocateReceipt(ctx, { receipt_id: existing.id, allocations: input.allocations }) : await getReceipt(ctx, { id: existing.id });
  } else {
    const reference = (line.reference || line.description || `Bank ${line.lineDate}`).slice(0, RECEIPT_LIMITS.reference);
    receipt = await createReceipt(ctx, {
      customer_id: await customerOf(ctx, input),
      amount: new Dec(line.amount).toFixed(),
      currency: account.currency,
      ...(input.fx_rate !== undefined ? { fx_rate: input.fx_rate } : {}),
      received_on: line.lineDate,
      method: 'bank_transfer',
      reference,
      allocations: input.allocations,
    });
  }
  const written = receipt.allocations.filter((a) => !before.has(a.id) && !a.reverses_id);
  const row = await updateStatementLine(ctx.db, { organizationId: ctx.org.id, id: line.id }, {
    status: 'matched',
    receiptId: receipt.id,
    allocationIds: written.map((a) => a.id),
    decidedBy: ctx.principal.memberId,
    decidedAt: ctx.now,
  });
  return { line: await lineWithSuggestions(ctx, row, account), receipt };
}

/** Sets an open credit aside (a transfer between own accounts, a refund...); undo brings it back. */
export async function ignoreLine(ctx: ServiceContext, input: { id: string }): Promise<LineView> {
  const { line, account } = await lockLine(ctx, input.id);
  if (line.status !== 'open') throw conflict('/id', `the line is ${line.status}; undo it first`, `The line is already ${line.status}; undo it before deciding again`);
  if (new Dec(line.amount).lte(0)) throw conflict('/id', 'the line is money out (a debit): only a credit waits for a decision');
  const row = await updateStatementLine(ctx.db, { organizationId: ctx.org.id, id: line.id }, { status: 'ignored', decidedBy: ctx.principal.memberId, decidedAt: ctx.now });
  return lineWithSuggestions(ctx, row, account);
}

/**
 * Undoes a decision: an ignored line is open again; a matched line's allocations are reversed (each
 * through the allocation reversal, effective today, on the documents' timelines) and the line is open
 * again, keeping its receipt (now unallocated) for the next accept.
 */
export async function undoLine(ctx: ServiceContext, input: { id: string }): Promise<LineView> {
  const { line, account } = await lockLine(ctx, input.id);
  if (line.status === 'open') throw conflict('/id', 'the line is open: there is no decision to undo');
  if (line.status === 'matched' && line.receiptId) {
    const receipt = await getReceipt(ctx, { id: line.receiptId });
    const reason = `Bank statement line of ${line.lineDate} (${formatAmount(line.amount, account.currency)} ${account.currency}) unmatched`;
    for (const id of line.allocationIds) {
      const a = receipt.allocations.find((x) => x.id === id);
      if (a && !a.reversed_by_id) await reverseReceiptAllocation(ctx, { allocation_id: id, reason });
    }
  }
  const row = await updateStatementLine(ctx.db, { organizationId: ctx.org.id, id: line.id }, { status: 'open', allocationIds: [], decidedBy: ctx.principal.memberId, decidedAt: ctx.now });
  return lineWithSuggestions(ctx, row, account);
}

/** A line with its suggestions (404 for another organization's). */
export async function getStatementLine(ctx: ServiceContext, input: { id: string }): Promise<LineView> {
  const line = await findStatementLine(ctx.db, { organizationId: ctx.org.id, id: input.id });
  if (!line) throw notFound('statement line');
  const account = await findBankAccount(ctx.db, { organizationId: ctx.org.id, id: line.bankAccountId });
  if (!account) throw notFound('statement line');
  return lineWithSuggestions(ctx, line, account);
}
