/**
 * Export batches and the trial balance. A batch takes every entry dated on or before `up_to` that no
 * batch has taken yet; its number is the organization's next (`journal_batch` sequence, taken under
 * its row lock in the export's transaction), so two exports take turns: the second finds only what
 * the first left, and one that finds nothing is refused (409) and rolled back, number and all, so
 * the numbers have no gaps. A batch is read back from its entries, which never change (account codes
 * are kept on the lines as written): the same batch always downloads as the same bytes.
 */
import { findBatch, insertBatch, linesOfEntries, listBatches, listEntries, takeUnexported, trialBalanceRows, type JournalBatchRow } from '../../db/queries/journal';
import { nextSequenceValue } from '../../db/queries/sequences';
import { AppError } from '../../lib/errors';
import { Dec, formatAmount } from '../../lib/money';
import type { ServiceContext } from '../context';
import type { Batch } from './formats';

const BATCH_SEQUENCE = 'journal_batch';

/** Creates the next batch; 409 `conflict` when no entry up to the day is left to export. */
export async function createJournalExport(ctx: ServiceContext, input: { up_to: string }): Promise<Batch> {
  const organizationId = ctx.org.id;
  const number = await nextSequenceValue(ctx.db, { organizationId, name: BATCH_SEQUENCE });
  const taken = await takeUnexported(ctx.db, { organizationId, upTo: input.up_to, number });
  if (taken === 0) throw new AppError('conflict', { detail: `No journal entry dated on or before ${input.up_to} is left to export` });
  const row = await insertBatch(ctx.db, { organizationId, number, upTo: input.up_to, createdAt: ctx.now, createdBy: ctx.principal.memberId, entryCount: taken });
  return batchView(ctx, row);
}

/** A batch with its entries and lines, as the JSON layout has it. */
export async function batchView(ctx: ServiceContext, row: JournalBatchRow): Promise<Batch> {
  const organizationId = ctx.org.id;
  const base = ctx.org.baseCurrency;
  const entries = await listEntries(ctx.db, { organizationId, batchNumber: row.number });
  const lines = await linesOfEntries(ctx.db, { organizationId, entryIds: entries.map((e) => e.id) });
  const byEntry = new Map<string, typeof lines>();
  for (const l of lines) byEntry.set(l.entryId, [...(byEntry.get(l.entryId) ?? []), l]);
  return {
    number: row.number,
    up_to: row.upTo,
    created_at: row.createdAt.toISOString(),
    entries: entries.map((e) => ({
      id: e.id,
      date: e.entryDate,
      kind: e.kind,
      source: { type: e.sourceType, id: e.sourceId },
      reference: e.reference,
      narration: e.narration,
      lines: (byEntry.get(e.id) ?? [])
        .sort((a, b) => a.lineNo - b.lineNo)
        .map((l) => ({
          account_id: l.accountId,
          account_code: l.accountCode,
          debit: formatAmount(l.debit, base),
          credit: formatAmount(l.credit, base),
          currency: l.currency,
          amount: formatAmount(l.amount, l.currency),
          analytic_account_id: l.analyticAccountId,
        })),
    })),
  };
}

/** A batch by number; 404 when the organization has none. */
export async function getJournalExport(ctx: ServiceContext, input: { number: number }): Promise<Batch> {
  const row = await findBatch(ctx.db, { organizationId: ctx.org.id, number: input.number });
  if (!row) throw new AppError('not_found', { detail: `No journal export batch ${input.number} in this organization` });
  return batchView(ctx, row);
}

const DEFAULT_LIMIT = 50;

/** Batches newest first; `next_before` pages on. */
export async function listJournalExports(ctx: ServiceContext, input: { before?: number; limit?: number }) {
  const limit = input.limit ?? DEFAULT_LIMIT;
  const rows = await listBatches(ctx.db, { organizationId: ctx.org.id, ...(input.before !== undefined ? { before: input.before } : {}), limit: limit + 1 });
  const page = rows.slice(0, limit);
  return {
    items: page.map((b) => ({ number: b.number, up_to: b.upTo, created_at: b.createdAt.toISOString(), entry_count: b.entryCount })),
    next_before: rows.length > limit ? page[page.length - 1]!.number : null,
  };
}

/** Σ debit, Σ credit and the balance (debit less credit) per account over every entry up to the day, exported or not. */
export async function journalTrialBalance(ctx: ServiceContext, input: { as_of: string }) {
  const base = ctx.org.baseCurrency;
  const rows = await trialBalanceRows(ctx.db, { organizationId: ctx.org.id, asOf: input.as_of });
  return {
    as_of: input.as_of,
    accounts: rows.map((r) => ({
      account_id: r.account_id,
      account_code: r.account_code,
      debit: formatAmount(r.debit, base),
      credit: formatAmount(r.credit, base),
      balance: formatAmount(new Dec(r.debit).minus(r.credit), base),
    })),
  };
}
