/**
 * The journal of records written before it existed: the start-up backfill writes the same entries
 * the events would have (issue, cancellation, receipt, allocation and reversal, claim approved and
 * paid), dated as the events were, and writes nothing on a second run; an organization it completed
 * is marked and left out of later start-ups' runs.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { journalEntries, journalLines } from '../../src/db/schema';
import { organizationsToBackfill } from '../../src/db/queries/journal';
import { backfillJournal } from '../../src/services/journal/backfill';
import { transitionDocument } from '../../src/services/receivables/transition-document';
import { contextFor } from '../factories/context';
import { createReceiptWorld } from '../factories/receipts';
import { reverseAllocation } from '../factories/receivables';
import { useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';
import { journalOf } from '../helpers/journal';

const t = useTestApp();
const { post } = httpHelpers(t);

const view = (entries: Awaited<ReturnType<typeof journalOf>>) =>
  entries
    .map((e) => JSON.stringify([e.kind, e.entryDate, e.sourceType, e.sourceId, e.lines.map((l) => [l.accountCode, l.debit, l.credit, l.currency, l.amount, l.analyticAccountId])]))
    .sort();

describe('journal backfill', () => {
  it('writes the entries the events would have written, and nothing the second time', async () => {
    const w = await createReceiptWorld(t);
    const inv = await w.usdInvoice();
    const res = await post('/v1/receivables/receipts', w.receiptBody({ customer_id: w.usdCustomer.id, currency: 'USD', fx_rate: '4.5', amount: '1000.00', allocations: [{ invoice_id: inv.id, amount: '400.00' }] }), w.token);
    expect(res.statusCode, res.body).toBe(201);
    await reverseAllocation(t.db, { organizationId: w.org.id, allocationId: res.json().allocations[0].id, effectiveOn: '2025-03-05', createdBy: w.issuer.id });
    const other = await w.invoice();
    await transitionDocument(await contextFor(t.db, w.org.id, w.org.owner.id), { id: other.id, action_key: 'cancel', reason: 'Raised in error' });
    const before = view(await journalOf(t.db, w.org.id));
    expect(before).toHaveLength(6);

    await t.db.delete(journalLines).where(eq(journalLines.organizationId, w.org.id));
    await t.db.delete(journalEntries).where(eq(journalEntries.organizationId, w.org.id));
    expect(await backfillJournal(t.db, [w.org.id])).toEqual({ written: 6, skipped: [] });
    expect(view(await journalOf(t.db, w.org.id))).toEqual(before);
    expect(await backfillJournal(t.db, [w.org.id])).toEqual({ written: 0, skipped: [] });
    // Completed, so start-ups' runs (every organization not yet done) leave it out.
    expect(await organizationsToBackfill(t.db)).not.toContain(w.org.id);
  });

  it('a start-up run takes an organization not yet backfilled, and only once', async () => {
    const w = await createReceiptWorld(t);
    expect(await organizationsToBackfill(t.db)).toContain(w.org.id);
    expect((await backfillJournal(t.db, [w.org.id])).skipped).toEqual([]);
    expect(await organizationsToBackfill(t.db)).not.toContain(w.org.id);
  });
});
