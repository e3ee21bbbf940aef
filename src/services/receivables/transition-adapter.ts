/**
 * The receivables documents' part of the one transition step (services/workflow/take-transition.ts):
 * which rows to lock, the facts the gates and conditions are evaluated on (shared with GET, so the
 * descriptors shown are the ones enforced), the on-enter work (numbering, invoice date, frozen buyer
 * and seller on issue; a cancelled document owes nothing) and the timeline entry. It never decides
 * who may take an edge: transitions.ts does.
 */
import { findCustomer } from '../../db/queries/customers';
import { findDocumentLink, insertTimelineEntry, lockDocument, stateChangedSince, updateDocument, type DocumentRow } from '../../db/queries/receivable-documents';
import { nextSequenceValue } from '../../db/queries/sequences';
import type { DocumentKind, FrozenBuyer, FrozenSeller } from '../../db/schema';
import { addDays } from '../../lib/dates';
import { AppError } from '../../lib/errors';
import type { ServiceContext } from '../context';
import type { TransitionAdapter } from '../workflow/take-transition';
import { stateOf } from '../workflow/transitions';
import { receivableFacts } from './document-facts';
import { buyerOf, freezeAddress } from './freeze-parties';
import { queueCancellation, queueSubmission } from '../einvoicing/outbox';
import { readDocument, type DocumentView } from './read-document';
import { journalDocumentCancelled, journalDocumentIssued } from '../journal/record-events';

const PREFIX: Record<DocumentKind, string> = { sales_invoice: 'INV', customer_credit_note: 'CN', customer_debit_note: 'DN' };

/** A document locked for a transition, with its invoice when it is a credit note (locked first). */
export type LockedDocument = DocumentRow & { original?: DocumentRow };

/**
 * Issuing: the next number of the per-kind, per-year sequence, the day of issue, buyer and seller as
 * they read now. A document LHDN found invalid and that is issued again after correction keeps its
 * number (it was never a valid e-invoice, and the sequence stays gapless) but is frozen afresh.
 */
async function issueWork(ctx: ServiceContext, doc: DocumentRow) {
  const organizationId = ctx.org.id;
  const customer = await findCustomer(ctx.db, { organizationId, id: doc.customerId, today: ctx.today });
  if (!customer) throw new AppError('internal', { detail: 'the document names no customer of this organization' });
  const year = ctx.today.slice(0, 4);
  // Gapless: taken inside the issuing transaction, so a refused or rolled-back issue gives it back.
  const reference = doc.reference ?? `${PREFIX[doc.kind]}-${year}-${String(await nextSequenceValue(ctx.db, { organizationId, name: `${doc.kind}:${year}` })).padStart(5, '0')}`;
  const buyer: FrozenBuyer = buyerOf(customer);
  const org = ctx.org;
  const s = org.seller ?? {};
  const seller: FrozenSeller = {
    name: s.name ?? org.name,
    // Organizations are Malaysian (MyInvois suppliers): a seller address without a country is in MY,
    // as a customer without one is.
    address: freezeAddress({ ...(s.address ?? {}) }, s.address?.country_code || 'MY'),
    msic: s.msic ?? null,
    registration_no: s.registration_no ?? null,
    sst_no: s.sst_no ?? null,
    tin: s.tin ?? null,
    tourism_tax_no: s.tourism_tax_no ?? null,
    business_activity: s.business_activity ?? null,
    phone: s.phone ?? null,
    email: s.email ?? null,
  };
  return {
    reference,
    issuedAt: ctx.now,
    invoiceDate: ctx.today,
    dueOn: addDays(ctx.today, doc.paymentTermsDays),
    buyer,
    seller,
  };
}

export const receivableTransitionAdapter: TransitionAdapter<LockedDocument, DocumentView> = {
  recordType: 'receivable_document',
  notFoundDetail: 'No such receivables document in this organization',

  async lock(ctx, id) {
    const organizationId = ctx.org.id;
    // A credit note: its invoice is locked first, as preparing a credit note and allocating do
    // (invoice before credit note), so credit notes of one invoice are decided one at a time.
    const link = await findDocumentLink(ctx.db, { organizationId, id });
    if (!link) return undefined;
    const original = link.kind === 'customer_credit_note' && link.originalInvoiceId ? await lockDocument(ctx.db, { organizationId, id: link.originalInvoiceId }) : undefined;
    const doc = await lockDocument(ctx.db, { organizationId, id });
    return doc ? { ...doc, original } : undefined;
  },

  facts: (ctx, doc, def) => receivableFacts(ctx, doc, def, doc.original),

  async enter(ctx, doc, step) {
    const from = stateOf(step.def, step.from).semantic;
    const to = stateOf(step.def, step.to).semantic;
    if (from === 'draft' && to === 'accrual') {
      const set = await issueWork(ctx, doc);
      // With e-invoicing on, the document waits in `submitted` until LHDN validates it (the outbox
      // row and its job are written here, in the issuing transaction).
      const waiting = step.edge.system ? undefined : await queueSubmission(ctx, doc, step, set.reference);
      // The journal entry is written when the document owes (a document waiting for LHDN owes
      // nothing yet, and one LHDN finds invalid goes back to draft).
      if (!waiting) await journalDocumentIssued(ctx, { ...doc, reference: set.reference, invoiceDate: set.invoiceDate });
      return waiting ? { set, to: waiting } : { set };
    }
    // Validated by LHDN: the document owes from now (entering accrual again later writes nothing).
    if (to === 'accrual' && doc.reference && doc.issuedAt) await journalDocumentIssued(ctx, { ...doc, reference: doc.reference, invoiceDate: doc.invoiceDate });
    if (to === 'cancelled' && from !== 'draft') {
      // A validated e-invoice is cancelled at LHDN first: the document waits for its answer.
      const waiting = step.edge.system ? undefined : await queueCancellation(ctx, doc, step);
      if (waiting) return { to: waiting };
      // A cancelled document owes nothing (and a cancelled credit note credits nothing); it had no
      // allocations to undo (the edge's nothing_allocated condition). Its issue entry is reversed,
      // dated the day of cancellation: the ageing as at a day before it still holds the document, and
      // the receivables control account agrees with it on every day.
      await journalDocumentCancelled(ctx, doc);
      return { set: { outstanding: '0', outstandingBase: '0' } };
    }
    return undefined;
  },

  async save(ctx, doc, change) {
    // A change of state of an issued document is dated with it (state_changed_at), as its timeline
    // entry is; one before the issue is older than issued_at, which dates it enough for the reports.
    const changed = doc.issuedAt && change.state !== doc.state ? { stateChangedAt: stateChangedSince(change.step.decidedAt) } : {};
    await updateDocument(ctx.db, { organizationId: ctx.org.id, id: doc.id }, { ...change.set, ...changed, state: change.state, revision: change.revision });
  },

  async log(ctx, doc, step) {
    await insertTimelineEntry(ctx.db, {
      organizationId: ctx.org.id,
      documentId: doc.id,
      actionKey: step.edge.action_key,
      actorMemberId: step.actorMemberId,
      decidedAt: step.decidedAt,
      fromState: step.from,
      toState: step.to,
      reason: step.reason,
      via: step.via,
    });
  },

  answer: (ctx, id) => readDocument(ctx, { id }),
};
