/**
 * The journal entry of each event, written by the service that makes the event, in its transaction:
 * reads the facts the builders need and hands the built entry to the writer. A reversal (a document
 * cancelled) copies the reversed entry's lines on the other side, so it undoes exactly what was posted.
 */
import { listClaimLines, listLineShares } from '../../db/queries/claims';
import { findEntryOf, linesOfEntries } from '../../db/queries/journal';
import { findLines } from '../../db/queries/receivable-documents';
import type { AllocationRow, ReceiptRow } from '../../db/queries/receipts';
import type { DocumentRow } from '../../db/queries/receivable-documents';
import { Dec } from '../../lib/money';
import type { ServiceContext } from '../context';
import { JournalAccounts } from './accounts';
import { allocationLines, claimApprovedLines, claimPaidLines, documentIssuedLines, receiptLines, type ClaimLineFacts, type DraftLine } from './build-entries';
import { writeEntry } from './write-entry';

type DocumentIssued = Pick<DocumentRow, 'id' | 'kind' | 'currency' | 'grossAmount' | 'grossBase'> & { reference: string; invoiceDate: string };

/** An invoice, debit note or credit note issued (dated its invoice date); written once per document. */
export async function journalDocumentIssued(ctx: ServiceContext, doc: DocumentIssued) {
  if (await findEntryOf(ctx.db, { organizationId: ctx.org.id, kind: 'document_issued', sourceId: doc.id })) return undefined;
  const accounts = await JournalAccounts.load(ctx);
  const lines = await findLines(ctx.db, { organizationId: ctx.org.id, documentId: doc.id });
  return writeEntry(ctx, {
    date: doc.invoiceDate,
    kind: 'document_issued',
    source: { type: 'receivable_document', id: doc.id },
    reference: doc.reference,
    narration: `${doc.kind.replace(/_/g, ' ')} ${doc.reference} issued`,
    lines: documentIssuedLines({ ...doc, lines }, accounts),
  });
}

/** A document cancelled after issue: its issue entry reversed, dated the day of cancellation. */
export async function journalDocumentCancelled(ctx: ServiceContext, doc: { id: string; reference: string | null }, date = ctx.today) {
  const organizationId = ctx.org.id;
  const issued = await findEntryOf(ctx.db, { organizationId, kind: 'document_issued', sourceId: doc.id });
  if (!issued) return undefined;
  const lines = await linesOfEntries(ctx.db, { organizationId, entryIds: [issued.id] });
  const reversed: DraftLine[] = lines.map((l) => ({
    account: { id: l.accountId, code: l.accountCode },
    base: new Dec(l.credit).minus(l.debit),
    currency: l.currency,
    amount: new Dec(l.amount).times(new Dec(l.debit).isZero() ? 1 : -1),
    analyticAccountId: l.analyticAccountId,
  }));
  return writeEntry(
    ctx,
    { date, kind: 'document_cancelled', source: { type: 'receivable_document', id: doc.id }, reference: doc.reference ?? '', narration: `${doc.reference ?? doc.id} cancelled`, lines: reversed },
    issued.id,
  );
}

/** A receipt recorded (dated the day received). */
export async function journalReceipt(ctx: ServiceContext, r: ReceiptRow) {
  const accounts = await JournalAccounts.load(ctx);
  return writeEntry(ctx, {
    date: r.receivedOn,
    kind: 'receipt',
    source: { type: 'receipt', id: r.id },
    reference: r.reference,
    narration: `receipt ${r.reference} (${r.method})`,
    lines: receiptLines(r, accounts),
  });
}

/** An allocation, a credit note applied, or the reversal of either (dated its effective day). */
export async function journalAllocation(ctx: ServiceContext, a: AllocationRow, reference: string) {
  const organizationId = ctx.org.id;
  const accounts = await JournalAccounts.load(ctx);
  const note = a.sourceKind === 'credit_note';
  const kind = a.reversesId ? (note ? 'credit_note_application_reversed' : 'allocation_reversed') : note ? 'credit_note_applied' : 'allocation';
  const reversed = a.reversesId ? await findEntryOf(ctx.db, { organizationId, kind: note ? 'credit_note_applied' : 'allocation', sourceId: a.reversesId }) : undefined;
  return writeEntry(
    ctx,
    {
      date: a.effectiveOn,
      kind,
      source: { type: 'allocation', id: a.id },
      reference,
      narration: `${kind.replace(/_/g, ' ')} ${reference}`,
      lines: allocationLines(a, ctx.org.baseCurrency, accounts),
    },
    reversed?.id,
  );
}

/** The claim's active lines with their shares on one axis (the first axis a line is split on). */
async function claimLineFacts(ctx: ServiceContext, claimId: string, amountOf?: (l: { id: string; baseAmount: string; amount: string }) => { amount: string; baseAmount: string } | undefined) {
  const organizationId = ctx.org.id;
  const lines = (await listClaimLines(ctx.db, { organizationId, claimId })).filter((l) => !l.withdrawn);
  const shares = await listLineShares(ctx.db, { organizationId, lineIds: lines.map((l) => l.id) });
  const facts: ClaimLineFacts[] = [];
  for (const l of lines) {
    const figures = amountOf ? amountOf(l) : { amount: l.amount, baseAmount: l.baseAmount };
    if (!figures) continue;
    const mine = shares.filter((s) => s.lineId === l.id);
    const axis = mine[0]?.axisId;
    facts.push({
      categoryId: l.categoryId,
      currency: l.currency,
      ...figures,
      shares: mine.filter((s) => s.axisId === axis).map((s) => ({ analyticAccountId: s.analyticAccountId, percentage: s.percentage })),
    });
  }
  return { lines, facts };
}

/** A claim approved: its expense by account and analytic share, owed to the claimant. */
export async function journalClaimApproved(ctx: ServiceContext, claim: { id: string; reference: string }) {
  const accounts = await JournalAccounts.load(ctx);
  const { facts } = await claimLineFacts(ctx, claim.id);
  return writeEntry(ctx, {
    date: ctx.today,
    kind: 'claim_approved',
    source: { type: 'expense_claim', id: claim.id },
    reference: claim.reference,
    narration: `claim ${claim.reference} approved`,
    lines: claimApprovedLines(facts, ctx.org.baseCurrency, accounts),
  });
}

/** A bank difference approved (before the referred figures become the lines' base amounts): the difference expensed and owed. */
export async function journalClaimDifferenceApproved(ctx: ServiceContext, claim: { id: string; reference: string }) {
  const accounts = await JournalAccounts.load(ctx);
  const { facts } = await claimLineFacts(ctx, claim.id, (l) => {
    const referred = (l as { referredBankAmount?: string | null }).referredBankAmount;
    return referred ? { amount: '0', baseAmount: new Dec(referred).minus(l.baseAmount).toFixed() } : undefined;
  });
  if (facts.length === 0) return undefined;
  return writeEntry(ctx, {
    date: ctx.today,
    kind: 'claim_difference_approved',
    source: { type: 'expense_claim', id: claim.id },
    reference: claim.reference,
    narration: `claim ${claim.reference}: bank difference approved`,
    lines: claimApprovedLines(facts, ctx.org.baseCurrency, accounts),
  });
}

/** A claim paid: what it owes the claimant settled through the channel's clearing, bank charges for a differing bank figure. */
export async function journalClaimPaid(ctx: ServiceContext, s: { id: string; claimId: string; amount: string; channelKey: string; settledDate: string; reference: string }) {
  const accounts = await JournalAccounts.load(ctx);
  const { lines } = await claimLineFacts(ctx, s.claimId);
  const approved = lines.reduce((sum, l) => sum.plus(l.baseAmount), new Dec(0)).toFixed();
  return writeEntry(ctx, {
    date: s.settledDate,
    kind: 'claim_paid',
    source: { type: 'expense_claim_settlement', id: s.id },
    reference: s.reference,
    narration: `claim ${s.reference} paid (${s.channelKey})`,
    lines: claimPaidLines({ approved, paid: s.amount, channelKey: s.channelKey }, ctx.org.baseCurrency, accounts),
  });
}
