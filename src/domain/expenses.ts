/** The expense-claims vocabulary: closed sets every layer imports. */

export const CLAIM_LINE_TYPES = ['receipt', 'mileage', 'per_diem', 'advance_offset'] as const;
export type ClaimLineType = (typeof CLAIM_LINE_TYPES)[number];

export const FX_RATE_SOURCES = ['identity', 'reference', 'override', 'bank_statement'] as const;
export type FxRateSource = (typeof FX_RATE_SOURCES)[number];

export const REIMBURSEMENT_BASES = ['expense_date_rate', 'bank_charged'] as const;
export type ReimbursementBasis = (typeof REIMBURSEMENT_BASES)[number];

export const DOCUMENT_BASES = ['einvoice_company', 'einvoice_employee', 'foreign_supplier', 'relaxation_receipt'] as const;
export type DocumentBasis = (typeof DOCUMENT_BASES)[number];

/** How a decision's authority reached its actor (contract 2.4). */
export const DECISION_VIAS = ['reporter', 'grant', 'delegation', 'escalation', 'sole_owner_exception'] as const;
export type DecisionVia = (typeof DECISION_VIAS)[number];

/** Kinds of payout channel a member may register. */
export const PAYOUT_CHANNEL_KEYS = ['bank_transfer', 'duitnow'] as const;
export type PayoutChannelKey = (typeof PAYOUT_CHANNEL_KEYS)[number];

/** The kinds of DuitNow proxy id a duitnow channel is registered under. */
export const DUITNOW_ID_TYPES = ['mobile', 'nric', 'business_reg', 'passport'] as const;
export type DuitNowIdType = (typeof DUITNOW_ID_TYPES)[number];

/** Which claims a list shows: the caller's own, those waiting for the caller's signature, or all the caller may read. */
export const CLAIM_LIST_SCOPES = ['mine', 'to_act', 'all'] as const;
export type ClaimListScope = (typeof CLAIM_LIST_SCOPES)[number];
