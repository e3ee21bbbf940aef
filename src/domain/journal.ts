/** The journal export's vocabulary: control-account roles, entry kinds, source types and export formats. */

/**
 * The accounts an entry posts to besides a document line's own account: receivables control, SST
 * payable, customer deposits (cash received and not yet applied), claims payable, a clearing account
 * per receipt method (key: the method) and per payout channel kind (key: bank_transfer, duitnow), the
 * exchange difference (gain and loss), bank charges, and the expense account of a claim line (key: the
 * expense category's id; the empty key is the account of every category without one of its own).
 */
export const JOURNAL_ACCOUNT_ROLES = [
  'receivables_control',
  'sst_payable',
  'customer_deposits',
  'claims_payable',
  'receipt_clearing',
  'payout_clearing',
  'exchange_difference',
  'bank_charges',
  'claim_expense',
] as const;
export type JournalAccountRole = (typeof JOURNAL_ACCOUNT_ROLES)[number];

/** Roles set per key (a receipt method, a payout channel kind, an expense category); the empty key is their default. */
export const KEYED_JOURNAL_ROLES: readonly JournalAccountRole[] = ['receipt_clearing', 'payout_clearing', 'claim_expense'];

export const JOURNAL_ENTRY_KINDS = [
  'document_issued',
  'document_cancelled',
  'receipt',
  'allocation',
  'allocation_reversed',
  'credit_note_applied',
  'credit_note_application_reversed',
  'claim_approved',
  'claim_difference_approved',
  'claim_paid',
] as const;
export type JournalEntryKind = (typeof JOURNAL_ENTRY_KINDS)[number];

export const JOURNAL_SOURCE_TYPES = ['receivable_document', 'receipt', 'allocation', 'expense_claim', 'expense_claim_settlement'] as const;
export type JournalSourceType = (typeof JOURNAL_SOURCE_TYPES)[number];

export const JOURNAL_EXPORT_FORMATS = ['json', 'csv', 'sql_account', 'autocount', 'xero'] as const;
export type JournalExportFormat = (typeof JOURNAL_EXPORT_FORMATS)[number];
