/**
 * The events a workflow step appends: which types a taken edge tells of, by record type and action,
 * with the state it left the record in. An organization's own edges (ones the defaults do not have)
 * append nothing: a client still sees the record's revision move when it reads it.
 */
import type { ServiceContext } from '../context';
import type { TakenStep } from '../workflow/take-transition';
import type { RecordType } from '../workflow/types';
import { recordEvent } from './append';
import type { EventType, SubjectType } from './types';

const DOCUMENT_EVENTS: Record<string, (step: TakenStep) => EventType[]> = {
  issue: () => ['receivables.invoice.issued'],
  discard: () => ['receivables.invoice.discarded'],
  dispute: () => ['receivables.invoice.disputed'],
  resolve: () => ['receivables.invoice.resolved'],
  keep: () => ['receivables.invoice.resolved'],
  // With e-invoicing a cancellation waits for LHDN (cancel_requested); the event comes with its answer.
  cancel: (step) => (step.to === 'cancelled' ? ['receivables.invoice.cancelled'] : []),
  validate: () => ['receivables.invoice.einvoice_validated'],
  invalid: () => ['receivables.invoice.einvoice_invalid'],
  request_rejection: () => ['receivables.invoice.einvoice_rejection_requested'],
  cancel_confirmed: () => ['receivables.invoice.einvoice_cancelled', 'receivables.invoice.cancelled'],
};

const CLAIM_EVENTS: Record<string, (step: TakenStep) => EventType[]> = {
  submit: () => ['expenses.claim.submitted'],
  return: () => ['expenses.claim.returned'],
  reject: () => ['expenses.claim.rejected'],
  cancel: () => ['expenses.claim.cancelled'],
  dispute: () => ['expenses.claim.disputed'],
  resolve: () => ['expenses.claim.resolved'],
  pay: () => ['expenses.claim.paid'],
  // A signature; the claim is approved when the last one moves it to a committed state.
  approve: (step) => ['expenses.signoff.signed', ...(step.to !== step.from && semanticOf(step, step.to) === 'committed' ? (['expenses.claim.approved'] as const) : [])],
};

const SUBJECTS: Record<RecordType, { subject: SubjectType; events: Record<string, (step: TakenStep) => EventType[]> }> = {
  receivable_document: { subject: 'receivable_document', events: DOCUMENT_EVENTS },
  expense_claim: { subject: 'expense_claim', events: CLAIM_EVENTS },
};

function semanticOf(step: TakenStep, state: string): string | undefined {
  return step.def.states.find((s) => s.key === state)?.semantic;
}

/** Appends the events of a taken step, after the record moved to `revision`. */
export async function appendTransitionEvents(ctx: ServiceContext, recordType: RecordType, id: string, revision: number, step: TakenStep): Promise<void> {
  const kind = SUBJECTS[recordType];
  const types = kind.events[step.edge.action_key]?.(step) ?? [];
  for (const type of types) {
    await recordEvent(
      ctx,
      type,
      { type: kind.subject, id, revision },
      { state: step.to, semantic: semanticOf(step, step.to) ?? null, previous_state: step.from, action_key: step.edge.action_key },
    );
  }
}
