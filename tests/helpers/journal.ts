import { expect } from 'vitest';
import type { Database } from '../../src/db/client';
import { linesOfEntries, listEntries } from '../../src/db/queries/journal';
import { Dec } from '../../src/lib/money';

/** The organization's entries in order of writing, each as [kind, [[code, debit, credit, currency, amount]]]. */
export async function journalOf(db: Database, organizationId: string) {
  const entries = await listEntries(db, { organizationId });
  const lines = await linesOfEntries(db, { organizationId, entryIds: entries.map((e) => e.id) });
  return entries.map((e) => ({
    ...e,
    lines: lines.filter((l) => l.entryId === e.id).sort((a, b) => a.lineNo - b.lineNo),
  }));
}

/** Compact view: money as fixed 2-place strings, the side that is zero as ''. */
export async function compactJournal(db: Database, organizationId: string) {
  const entries = await journalOf(db, organizationId);
  return entries.map((e) => [
    e.kind,
    e.lines.map((l) => [l.accountCode, new Dec(l.debit).isZero() ? '' : new Dec(l.debit).toFixed(2), new Dec(l.credit).isZero() ? '' : new Dec(l.credit).toFixed(2), l.currency, new Dec(l.amount).toFixed(2)]),
  ]);
}

/** Every entry balances to the sen. */
export async function expectBalanced(db: Database, organizationId: string) {
  for (const e of await journalOf(db, organizationId)) {
    const sum = e.lines.reduce((s, l) => s.plus(l.debit).minus(l.credit), new Dec(0));
    expect(sum.toFixed(2), `${e.kind} ${e.id}`).toBe('0.00');
  }
}
