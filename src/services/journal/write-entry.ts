/**
 * The one writer of journal entries: checks that the drafted lines balance to the sen in base, puts
 * each on its side (debit or credit, the other zero), drops lines of nothing, and inserts the entry
 * in the caller's transaction. It never updates an entry: a correction is a reversal.
 */
import { insertJournalEntry, type JournalEntryRow } from '../../db/queries/journal';
import { AppError } from '../../lib/errors';
import { Dec, formatAmount, roundAmount } from '../../lib/money';
import type { ServiceContext } from '../context';
import type { DraftEntry } from './build-entries';

/** Writes the entry; answers it, or undefined when the same event's entry is already written. */
export async function writeEntry(ctx: ServiceContext, draft: DraftEntry, reversesId?: string): Promise<JournalEntryRow | undefined> {
  const base = ctx.org.baseCurrency;
  const lines = draft.lines.filter((l) => !l.base.isZero());
  const sum = lines.reduce((s, l) => s.plus(l.base), new Dec(0));
  const unrounded = lines.find((l) => !roundAmount(l.base, base).eq(l.base));
  if (!sum.isZero() || unrounded) {
    throw new AppError('internal', { detail: `the ${draft.kind} entry of ${draft.source.type} ${draft.source.id} does not balance to the sen (${sum.toFixed()})` });
  }
  return insertJournalEntry(
    ctx.db,
    {
      organizationId: ctx.org.id,
      entryDate: draft.date,
      kind: draft.kind,
      sourceType: draft.source.type,
      sourceId: draft.source.id,
      reference: draft.reference,
      narration: draft.narration,
      reversesId: reversesId ?? null,
      createdAt: ctx.now,
    },
    lines.map((l, i) => ({
      lineNo: i + 1,
      accountId: l.account.id,
      accountCode: l.account.code,
      debit: l.base.isPositive() ? formatAmount(l.base, base) : formatAmount('0', base),
      credit: l.base.isNegative() ? formatAmount(l.base.negated(), base) : formatAmount('0', base),
      currency: l.currency,
      amount: l.amount.abs().toFixed(),
      analyticAccountId: l.analyticAccountId ?? null,
    })),
  );
}
