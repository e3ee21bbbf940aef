/** The closed set of semantics every state maps to (contract section 3). */
export const SEMANTICS = ['draft', 'pending', 'accrual', 'payout', 'acknowledged', 'dispute', 'rejected', 'cancelled', 'custom', 'committed', 'effect'] as const;
export type Semantic = (typeof SEMANTICS)[number];

/**
 * Who may take an edge:
 * - reporter: whoever prepared or filed the record;
 * - target: someone with authority for the state being entered;
 * - source: someone with authority in the current state;
 * - advance: taken when the current step's conditions are met (e.g. every sign-off signed).
 */
export type Gate = 'reporter' | 'target' | 'source' | 'advance';

export interface Labels {
  en: string;
  ms?: string;
  zh?: string;
}

export interface StateDefinition {
  key: string;
  semantic: Semantic;
  labels: Labels;
}

export interface TransitionDefinition {
  action_key: string;
  from: string;
  to: string;
  gate: Gate;
  labels: Labels;
  /** Permission that gives authority on target and source gates. */
  authority?: string;
  /** Segregation of duties: the preparer may not take this edge (sole-owner exception aside). */
  segregated?: boolean;
}

export type RecordType = 'receivable_document' | 'expense_claim';

export interface WorkflowDefinition {
  record_type: RecordType;
  initial_state: string;
  states: StateDefinition[];
  transitions: TransitionDefinition[];
}

export type RefusalCode = 'not_reporter' | 'no_band_covers_amount' | 'not_in_band' | 'self_approval' | 'dispute_raiser' | 'already_signed';

/** One exit of the current state as the contract's section 2.5 describes it. */
export interface TransitionDescriptor {
  action_key: string;
  to: string;
  gate: Gate;
  allowed: boolean;
  labels: Labels;
  requires_reason: boolean;
  sole_owner_exception?: boolean;
  refusal?: { code: RefusalCode; detail: string };
}

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
