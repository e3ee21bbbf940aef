/** The workflow vocabulary (contract sections 2.5 and 3). */

/** The closed set of semantics every state maps to. */
export const SEMANTICS = ['draft', 'pending', 'accrual', 'payout', 'acknowledged', 'dispute', 'rejected', 'cancelled', 'custom', 'committed', 'effect'] as const;
export type Semantic = (typeof SEMANTICS)[number];

/**
 * Who may take an edge:
 * - reporter: whoever prepared or filed the record;
 * - target: someone with authority for the state being entered;
 * - source: someone with authority in the current state;
 * - advance: taken when the current step's conditions are met (e.g. every sign-off signed).
 */
export const GATES = ['reporter', 'target', 'source', 'advance'] as const;
export type Gate = (typeof GATES)[number];

/** Why a caller may not take an edge (the descriptor's refusal code). */
export const REFUSAL_CODES = ['not_reporter', 'no_band_covers_amount', 'not_in_band', 'self_approval', 'dispute_raiser', 'already_signed'] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];

/** Why a gate has nobody able to take it (contract 2.5, gap object). */
export const GAP_REASONS = [
  'member_inactive',
  'position_retired',
  'vacant',
  'no_primary_position',
  'no_unit_head',
  'above_root',
  'only_the_claimant',
  'no_band_covers_amount',
  'unallocated',
  'no_account_approver',
] as const;
export type GapReason = (typeof GAP_REASONS)[number];

export const RECORD_TYPES = ['receivable_document', 'expense_claim'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];
