/**
 * The event types the service appends (dot-separated, past tense), and the subject types they name.
 * A webhook endpoint subscribes to some of them or to `*`; `webhook.test` is only ever sent by
 * "send a test event", never appended.
 */
export const EVENT_TYPES = [
  'receivables.invoice.created',
  'receivables.invoice.updated',
  'receivables.invoice.issued',
  'receivables.invoice.discarded',
  'receivables.invoice.disputed',
  'receivables.invoice.resolved',
  'receivables.invoice.cancelled',
  'receivables.invoice.einvoice_submitted',
  'receivables.invoice.einvoice_validated',
  'receivables.invoice.einvoice_invalid',
  'receivables.invoice.einvoice_rejection_requested',
  'receivables.invoice.einvoice_cancelled',
  'receivables.receipt.created',
  'receivables.receipt.allocated',
  'receivables.receipt.allocation_reversed',
  'receivables.customer.created',
  'receivables.customer.updated',
  'expenses.claim.created',
  'expenses.claim.submitted',
  'expenses.claim.returned',
  'expenses.claim.rejected',
  'expenses.claim.approved',
  'expenses.claim.paid',
  'expenses.claim.cancelled',
  'expenses.claim.disputed',
  'expenses.claim.resolved',
  'expenses.signoff.requested',
  'expenses.signoff.signed',
  'expenses.signoff.escalated',
  'organization.member.added',
  'organization.member.deactivated',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export const TEST_EVENT_TYPE = 'webhook.test';

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

export const SUBJECT_TYPES = ['receivable_document', 'expense_claim', 'receipt', 'customer', 'member'] as const;
export type SubjectType = (typeof SUBJECT_TYPES)[number];

/** A webhook delivery: waiting for an attempt, delivered (a 2xx), or failed (its attempts spent). */
export const DELIVERY_STATES_OUT = ['pending', 'delivered', 'failed'] as const;
