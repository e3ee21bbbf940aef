/**
 * Statement lines and what each credit may pay: suggestions among open items (issued invoices and
 * debit notes with something outstanding) and unallocated receipts, each with its reasons and a score,
 * best first. A document that alone among the open items has exactly the line's amount is suggested first.
 */
import {
  documentCandidates,
  findBankAccount,
  listStatementLineRows,
  receiptCandidates,
  type BankAccountRow,
  type StatementLineRow,
} from '../../db/queries/bank-statements';
import type { StatementLineStatus } from '../../domain/bank-statements';
import { KEY_VALUE_PATTERN } from '../../db/queries/keyset';
import { notFound } from '../../lib/errors';
import { Dec, formatAmount } from '../../lib/money';
import type { ServiceContext } from '../context';
import { keysetPage } from '../keyset-page';
import { stateOf } from '../workflow/transitions';
import { loadWorkflow } from '../workflow/workflows';
import { SETTLEABLE } from '../receivables/allocations';
import type { SUGGESTION_REASONS } from '../../contract/receivables/bank-statements';

type Reason = (typeof SUGGESTION_REASONS)[number];

export interface Suggestion {
  kind: 'document' | 'receipt';
  id: string;
  reference: string | null;
  customer_id: string;
  customer_code: string;
  customer_name: string;
  open_amount: string;
  due_on: string | null;
  score: number;
  reasons: Reason[];
}

/** What each reason adds to a score (at most 100 in all). */
const WEIGHT: Record<Reason, number> = {
  unique_exact_amount: 30,
  exact_amount: 40,
  document_number: 25,
  jompay_ref1: 20,
  customer_reference: 15,
  receipt_reference: 25,
  customer_name: 15,
};

const scoreOf = (reasons: Reason[], nameSimilarity: number) =>
  Math.min(100, reasons.reduce((s, r) => s + (r === 'customer_name' ? Math.round(WEIGHT.customer_name * nameSimilarity) : WEIGHT[r]), 0));

/** The suggestions for a credit line, best first (at most 10). */
export async function suggestFor(ctx: ServiceContext, line: StatementLineRow, account: BankAccountRow): Promise<Suggestion[]> {
  const q = { organizationId: ctx.org.id, lineId: line.id, currency: account.currency, amount: line.amount, description: line.description, reference: line.reference };
  const def = await loadWorkflow(ctx.db, ctx.org.id, 'receivable_document');
  const out: Suggestion[] = [];
  for (const d of await documentCandidates(ctx.db, q)) {
    if (!SETTLEABLE.has(stateOf(def, d.state).semantic)) continue;
    const reasons: Reason[] = [];
    if (d.exact && d.exact_count === 1) reasons.push('unique_exact_amount');
    if (d.exact) reasons.push('exact_amount');
    if (d.doc_no) reasons.push('document_number');
    if (d.ref1) reasons.push('jompay_ref1');
    if (d.customer_ref) reasons.push('customer_reference');
    if (d.name_similarity >= 0.5) reasons.push('customer_name');
    out.push({
      kind: 'document',
      id: d.id,
      reference: d.reference,
      customer_id: d.customer_id,
      customer_code: d.customer_code,
      customer_name: d.customer_name,
      open_amount: formatAmount(d.outstanding, account.currency),
      due_on: d.due_on,
      score: scoreOf(reasons, d.name_similarity),
      reasons,
    });
  }
  for (const rc of await receiptCandidates(ctx.db, q)) {
    const reasons: Reason[] = [];
    if (rc.exact) reasons.push('exact_amount');
    if (rc.ref_match) reasons.push('receipt_reference');
    if (rc.name_similarity >= 0.5) reasons.push('customer_name');
    out.push({
      kind: 'receipt',
      id: rc.id,
      reference: rc.reference,
      customer_id: rc.customer_id,
      customer_code: rc.customer_code,
      customer_name: rc.customer_name,
      open_amount: formatAmount(rc.unallocated, account.currency),
      due_on: null,
      score: scoreOf(reasons, rc.name_similarity),
      reasons,
    });
  }
  // A unique exact match first, then by score; ties by due date (oldest debt first).
  const unique = (s: Suggestion) => (s.reasons.includes('unique_exact_amount') ? 1 : 0);
  return out
    .sort((a, b) => unique(b) - unique(a) || b.score - a.score || (a.due_on ?? '9999').localeCompare(b.due_on ?? '9999') || a.id.localeCompare(b.id))
    .slice(0, 10);
}

export type LineTransition = 'accept' | 'ignore' | 'undo';

/** What may be done with a line now: a credit is accepted or ignored while open; a decision is undone. */
export function lineTransitions(line: StatementLineRow): LineTransition[] {
  if (line.status !== 'open') return ['undo'];
  return new Dec(line.amount).gt(0) ? ['accept', 'ignore'] : [];
}

export function lineView(line: StatementLineRow, account: BankAccountRow, suggestions: Suggestion[]) {
  return {
    id: line.id,
    bank_account_id: line.bankAccountId,
    date: line.lineDate,
    amount: formatAmount(line.amount, account.currency),
    currency: account.currency,
    description: line.description,
    reference: line.reference,
    balance: line.balance === null ? null : formatAmount(line.balance, account.currency),
    source_row: line.sourceRow,
    status: line.status,
    receipt_id: line.receiptId,
    allocation_ids: line.allocationIds,
    decided_by: line.decidedBy,
    decided_at: line.decidedAt?.toISOString() ?? null,
    revision: line.revision,
    available_transitions: lineTransitions(line),
    suggestions,
  };
}

export type LineView = ReturnType<typeof lineView>;

/** A line as the list shows it: with suggestions when it is an open credit. */
export async function lineWithSuggestions(ctx: ServiceContext, line: StatementLineRow, account: BankAccountRow): Promise<LineView> {
  const open = line.status === 'open' && new Dec(line.amount).gt(0);
  return lineView(line, account, open ? await suggestFor(ctx, line, account) : []);
}

export interface ListLinesInput {
  id: string;
  status?: StatementLineStatus;
  credits_only?: boolean;
  limit?: number;
  cursor?: string;
}

/** A keyset page of an account's lines, oldest first, open credits with their suggestions. */
export async function listStatementLines(ctx: ServiceContext, input: ListLinesInput) {
  const account = await findBankAccount(ctx.db, { organizationId: ctx.org.id, id: input.id });
  if (!account) throw notFound('bank account');
  const limit = input.limit ?? 25;
  const binding = { sort: 'bank_statement_lines:date', order: 'asc' as const, filters: { account: account.id, status: input.status, credits_only: input.credits_only } };
  const keyset = await keysetPage(ctx, { binding, cursor: input.cursor, limit, value: KEY_VALUE_PATTERN.date });
  const rows = await listStatementLineRows(ctx.db, {
    organizationId: ctx.org.id,
    bankAccountId: account.id,
    status: input.status,
    creditsOnly: input.credits_only,
    after: keyset.after,
    take: keyset.take,
  });
  const { page, next_cursor } = keyset.cut(rows, (row) => ({ value: row.lineDate, id: row.id }));
  const lines: LineView[] = [];
  for (const line of page) lines.push(await lineWithSuggestions(ctx, line, account));
  return { lines, next_cursor };
}
