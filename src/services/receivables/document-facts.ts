/**
 * The facts a receivables document's exits are evaluated on (transitions.ts): its preparer, who
 * raised the dispute now open, and the edge conditions the document does not meet. One source for
 * GET's available_transitions and for the transition step, so the two cannot disagree. Read only.
 */
import { cachedEinvoicingEnabled } from '../org-config-cache';
import { findAllocations, findDocumentRow, findTimeline, issuedCreditsAgainst, type DocumentRow } from '../../db/queries/receivable-documents';
import { Dec, formatAmount } from '../../lib/money';
import type { ServiceContext } from '../context';
import { exitsOf, stateOf, type RecordFacts } from '../workflow/transitions';
import type { TransitionDefinition, WorkflowDefinition } from '../workflow/types';
import { countsTowardBalance } from './allocations';
import { notReady, documentPreflight } from '../einvoicing/readiness';
import { einvoiceCancelFacts } from '../einvoicing/outbox';

const statesOf = (def: WorkflowDefinition, semantic: string) => def.states.filter((s) => s.semantic === semantic).map((s) => s.key);

/** Why a credit note cannot be issued now, or undefined when it can. */
async function creditNoteUnmet(ctx: ServiceContext, doc: DocumentRow, original: DocumentRow | undefined, def: WorkflowDefinition): Promise<string | undefined> {
  if (doc.kind !== 'customer_credit_note') return undefined;
  if (!original) return 'The credit note names no invoice';
  const semantic = stateOf(def, original.state).semantic;
  if (!original.issuedAt || semantic === 'cancelled') return `Invoice ${original.reference ?? original.id} is ${original.state}: there is nothing to credit`;
  // Re-checked when issuing, under the invoice's lock: drafts prepared side by side each passed the
  // cap against what was issued then.
  const credited = await issuedCreditsAgainst(ctx.db, { organizationId: ctx.org.id, invoiceId: original.id, exceptStates: statesOf(def, 'cancelled') });
  const left = new Dec(original.grossAmount).minus(credited);
  if (new Dec(doc.grossAmount).gt(left)) {
    return `The credit note's gross ${formatAmount(doc.grossAmount, doc.currency)} is more than is left to credit on invoice ${original.reference} (${formatAmount(left, doc.currency)})`;
  }
  return undefined;
}

/**
 * The facts of one document for its exits: preparer, who raised the current dispute, and the
 * conditions the record itself does not meet. `original`: the credit note's invoice as the caller
 * read it (locked in a transition); read here when not given.
 */
export async function receivableFacts(
  ctx: ServiceContext,
  doc: DocumentRow,
  def: WorkflowDefinition,
  original?: DocumentRow,
  /** The document's timeline and allocations when the caller read them already (in this snapshot). */
  read?: { timeline: Awaited<ReturnType<typeof findTimeline>>; allocations: Awaited<ReturnType<typeof findAllocations>> },
): Promise<RecordFacts> {
  const organizationId = ctx.org.id;
  const { all: exits, conditions: named } = exitsOf(def, doc.state);
  const facts: RecordFacts = { state: doc.state, reporterMemberId: doc.preparedBy, unmet: {} };

  if (exits.some((t) => t.not_raiser)) {
    // The member who took the edge into the current state (the dispute now open).
    const entries = read?.timeline ?? (await findTimeline(ctx.db, { organizationId, documentId: doc.id }));
    const raised = entries.filter((e) => e.toState === doc.state && e.fromState !== doc.state).at(-1);
    facts.raiserMemberId = raised?.actorMemberId ?? null;
  }
  if (named.has('nothing_allocated')) {
    const rows = read?.allocations ?? (await findAllocations(ctx.db, { organizationId, documentId: doc.id }));
    const live = rows.filter(countsTowardBalance);
    if (live.length) {
      facts.unmet!.nothing_allocated = `The document has ${live.length} allocation${live.length === 1 ? '' : 's'}; reverse ${live.length === 1 ? 'it' : 'them'} before cancelling`;
    }
  }
  if (named.has('credit_within_invoice') && doc.kind === 'customer_credit_note') {
    const invoice = original ?? (doc.originalInvoiceId ? await findDocumentRow(ctx.db, { organizationId, id: doc.originalInvoiceId }) : undefined);
    const why = await creditNoteUnmet(ctx, doc, invoice, def);
    if (why) facts.unmet!.credit_within_invoice = why;
  }
  await einvoiceReadiness(ctx, doc, def, exits, facts, original);
  await einvoiceCancelFacts(ctx, doc, def, facts);
  return facts;
}


/**
 * With e-invoicing on, a draft's edges into the accrual state (issue) need a clean LHDN preflight,
 * whatever the stored workflow names: blocked edges are shown not allowed, and taking one is 422
 * `einvoice_not_ready` with the problems (services/einvoicing/readiness.ts).
 */
async function einvoiceReadiness(ctx: ServiceContext, doc: DocumentRow, def: WorkflowDefinition, exits: readonly TransitionDefinition[], facts: RecordFacts, original?: DocumentRow) {
  if (stateOf(def, doc.state).semantic !== 'draft') return;
  const issuing = exits.filter((t) => stateOf(def, t.to).semantic === 'accrual');
  if (!issuing.length || !(await cachedEinvoicingEnabled(ctx))) return;
  const problems = await documentPreflight(ctx, doc, original);
  if (!problems.length) return;
  facts.impliedConditions = Object.fromEntries(issuing.map((t) => [t.action_key, ['einvoice_ready' as const]]));
  const error = notReady(problems);
  facts.unmet!.einvoice_ready = error.message;
  facts.unmetErrors = { einvoice_ready: error };
}
