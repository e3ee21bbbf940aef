import type { MessageKey, Translate } from '../../i18n';
import type { BadgeTone } from '../../ui/Badge';

/**
 * The receivables workflow's states and the e-invoice statuses as the console names them. A document
 * answer carries a state's key and semantic, not its label: the default workflow's keys have words
 * here; another key is shown as it is.
 */
const STATE_LABELS: Record<string, MessageKey> = {
  draft: 'invoiceState.draft',
  submitted: 'invoiceState.submitted',
  issued: 'invoiceState.issued',
  disputed: 'invoiceState.disputed',
  rejection_requested: 'invoiceState.rejection_requested',
  cancel_requested: 'invoiceState.cancel_requested',
  discarded: 'invoiceState.discarded',
  cancelled: 'invoiceState.cancelled',
};

export function invoiceStateLabel(state: string, t: Translate): string {
  const key = STATE_LABELS[state];
  return key ? t(key) : state;
}

export function invoiceStateTone(semantic: string): BadgeTone {
  switch (semantic) {
    case 'accrual':
      return 'success';
    case 'pending':
      return 'info';
    case 'dispute':
      return 'warning';
    case 'cancelled':
      return 'danger';
    default:
      return 'neutral';
  }
}

const KIND_LABELS: Record<string, MessageKey> = {
  sales_invoice: 'invoiceKind.sales_invoice',
  customer_credit_note: 'invoiceKind.customer_credit_note',
  customer_debit_note: 'invoiceKind.customer_debit_note',
};

export function kindLabel(kind: string, t: Translate): string {
  const key = KIND_LABELS[kind];
  return key ? t(key) : kind;
}

const EINVOICE_LABELS: Record<string, MessageKey> = {
  not_submitted: 'einvoiceStatus.not_submitted',
  submitted: 'einvoiceStatus.submitted',
  valid: 'einvoiceStatus.valid',
  invalid: 'einvoiceStatus.invalid',
  cancelled: 'einvoiceStatus.cancelled',
  rejection_requested: 'einvoiceStatus.rejection_requested',
};

export function einvoiceStatusLabel(status: string, t: Translate): string {
  const key = EINVOICE_LABELS[status];
  return key ? t(key) : status;
}

export function einvoiceStatusTone(status: string): BadgeTone {
  switch (status) {
    case 'valid':
      return 'success';
    case 'submitted':
      return 'info';
    case 'invalid':
    case 'cancelled':
      return 'danger';
    case 'rejection_requested':
      return 'warning';
    default:
      return 'neutral';
  }
}

/**
 * One of LHDN's validation errors as a sentence a person acts on: what is wrong, by the family of its
 * code (TP taxpayer, CF core fields, CV code lists, DS signature, RD referenced documents, CR currency,
 * duplicates), with LHDN's own words kept beside it.
 */
export function lhdnErrorSentence(error: { code: string; detail: string }, t: Translate): string {
  const family = /^[A-Z]{2}/.exec(error.code)?.[0] ?? '';
  const families: Record<string, MessageKey> = {
      TP: 'lhdn.taxpayer',
      CF: 'lhdn.coreFields',
      CV: 'lhdn.codes',
      DS: 'lhdn.signature',
      RD: 'lhdn.referenced',
      CR: 'lhdn.currency',
      DC: 'lhdn.duplicate',
  };
  const key = families[family];
  return key ? t(key) : t('lhdn.other');
}

/** Whether the error is fixed on the customer (the buyer's identity) rather than on the document. */
export function isBuyerError(error: { code: string }): boolean {
  return error.code.startsWith('TP');
}

/** The list's saved tabs: each a set of the list's own filters. */
export const INVOICE_TABS = ['all', 'drafts', 'submitted', 'awaiting_payment', 'overdue', 'paid'] as const;
export type InvoiceTab = (typeof INVOICE_TABS)[number];
