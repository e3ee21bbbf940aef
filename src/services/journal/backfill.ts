/**
 * Writes the journal entries of records that existed before the journal: issued documents (and the
 * reversal of those since cancelled), receipts, allocations and their reversals, approved claims and
 * their settlements, each dated as its event was. Run at start-up after the migrations, once per
 * organization: a completed organization is marked (organizations.journal_backfilled_at) and later
 * start-ups skip it, since every change since writes its entry in its own transaction. Idempotent
 * (a record with its entry is skipped, and the entry's unique key refuses a second one). An
 * organization whose control accounts do not resolve is skipped, named and left unmarked, so it
 * catches up on the next start once they are set.
 */
import type { Database } from '../../db/client';
import {
  allocationsWithoutEntry,
  approvedClaimsWithoutEntry,
  issuedWithoutEntry,
  markJournalBackfilled,
  organizationsToBackfill,
  receiptsWithoutEntry,
  settlementsWithoutEntry,
} from '../../db/queries/journal';
import { findAllocation, findReceipt } from '../../db/queries/receipts';
import { todayIn } from '../../lib/dates';
import type { ServiceContext } from '../context';
import { systemContextFor } from '../settings/setup';
import { SETTLEABLE } from '../receivables/allocations';
import { stateOf } from '../workflow/transitions';
import { loadWorkflow } from '../workflow/workflows';
import { journalAllocation, journalClaimApproved, journalClaimPaid, journalDocumentCancelled, journalDocumentIssued, journalReceipt } from './record-events';

async function backfillReceivables(ctx: ServiceContext): Promise<number> {
  const organizationId = ctx.org.id;
  const def = await loadWorkflow(ctx.db, organizationId, 'receivable_document');
  let written = 0;
  for (const d of await issuedWithoutEntry(ctx.db, { organizationId, timeZone: ctx.org.timeZone })) {
    // A document still waiting for LHDN owes nothing yet: its entry is written when it is validated.
    const semantic = stateOf(def, d.state).semantic;
    if (semantic !== 'cancelled' && !SETTLEABLE.has(semantic)) continue;
    const doc = { id: d.id, kind: d.kind, reference: d.reference, invoiceDate: d.invoice_date, currency: d.currency, grossAmount: d.gross_amount, grossBase: d.gross_base };
    if (await journalDocumentIssued(ctx, doc)) written += 1;
    if (semantic === 'cancelled' && (await journalDocumentCancelled(ctx, doc, d.state_since ?? d.invoice_date))) written += 1;
  }
  for (const r of await receiptsWithoutEntry(ctx.db, { organizationId })) {
    const row = await findReceipt(ctx.db, { organizationId, id: r.id });
    if (row && (await journalReceipt(ctx, row))) written += 1;
  }
  for (const a of await allocationsWithoutEntry(ctx.db, { organizationId })) {
    const row = await findAllocation(ctx.db, { organizationId, id: a.id });
    if (row && (await journalAllocation(ctx, row, a.reference))) written += 1;
  }
  return written;
}

async function backfillClaims(ctx: ServiceContext): Promise<number> {
  const organizationId = ctx.org.id;
  const def = await loadWorkflow(ctx.db, organizationId, 'expense_claim');
  const states = def.states.filter((s) => s.semantic === 'committed' || s.semantic === 'payout').map((s) => s.key);
  let written = 0;
  for (const c of await approvedClaimsWithoutEntry(ctx.db, { organizationId, states })) {
    const at = c.approved_at ? new Date(c.approved_at) : ctx.now;
    const dated = await systemContextFor(ctx.db, organizationId, at);
    if (await journalClaimApproved({ ...dated, db: ctx.db }, c)) written += 1;
  }
  for (const s of await settlementsWithoutEntry(ctx.db, { organizationId })) {
    const settledDate = todayIn(ctx.org.timeZone, new Date(s.settled_at));
    if (await journalClaimPaid(ctx, { id: s.id, claimId: s.claim_id, amount: s.amount, channelKey: s.channel_key, settledDate, reference: s.reference })) written += 1;
  }
  return written;
}

/** Backfills every organization not yet backfilled (or those given), each in its own transaction; answers what was written and who was skipped. */
export async function backfillJournal(db: Database, only?: string[]): Promise<{ written: number; skipped: { organization_id: string; reason: string }[] }> {
  let written = 0;
  const skipped: { organization_id: string; reason: string }[] = [];
  for (const organizationId of only ?? (await organizationsToBackfill(db))) {
    try {
      written += await db.transaction(async (tx) => {
        const ctx = await systemContextFor(tx, organizationId);
        const count = (await backfillReceivables(ctx)) + (await backfillClaims(ctx));
        await markJournalBackfilled(tx, { organizationId, now: ctx.now });
        return count;
      });
    } catch (e) {
      skipped.push({ organization_id: organizationId, reason: e instanceof Error ? e.message : String(e) });
    }
  }
  return { written, skipped };
}
