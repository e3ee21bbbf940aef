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
  /** The act needs a reason (at most 500 characters), recorded on the decision log. */
  requires_reason?: boolean;
  /** The member who raised the record's current dispute may not take this edge (`dispute_raiser`). */
  not_raiser?: boolean;
  /**
   * Conditions on the record itself (not on the caller) the edge needs, named by key; the record
   * type's adapter says which are unmet (RecordFacts.unmet). An unmet one is 409 `conflict`.
   */
  conditions?: TransitionCondition[];
  /**
   * A sign-off edge (claims' `approve`): the actor signs the shares they may sign now
   * (RecordFacts.signing); the record moves on when the last one is signed.
   */
  signs?: boolean;
  /**
   * Authority on this edge comes from the record's current sign-off step rather than (only) a
   * permission: `step` — the actor may sign, or holds authority on, one of its sign-offs;
   * `account` — through an approver assignment on an unsigned share (an account approver).
   */
  signoff_authority?: 'step' | 'account';
  /**
   * Taken by the system on an outside party's answer (LHDN validating an e-invoice), never by a
   * person: not shown in available_transitions, refused to the transition procedure.
   */
  system?: boolean;
}

/** Record conditions an edge may name (TransitionDefinition.conditions). */
export const TRANSITION_CONDITIONS = ['nothing_allocated', 'credit_within_invoice', 'claim_has_lines', 'claim_lines_complete', 'claim_has_bank_charged_lines', 'einvoice_ready', 'einvoice_cancellable'] as const;
export type TransitionCondition = (typeof TRANSITION_CONDITIONS)[number];


export interface WorkflowDefinition {
  record_type: RecordType;
  initial_state: string;
  states: StateDefinition[];
  transitions: TransitionDefinition[];
}


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
  gaps?: DescriptorGap[];
  signs?: DescriptorSign[];
  /**
   * Internal, not in the contract (output schemas drop it): the edge is not allowed because of the
   * record's own condition (e.g. an invoice with allocations cannot be cancelled), whoever the
   * caller; taking it is 409 `conflict` with this detail.
   */
  blocked?: { condition: TransitionCondition; detail: string };
}


/** A gap object of the contract (2.5): why a step has nobody, or not its natural approver, to take it. */
export interface DescriptorGap {
  grant_id: string;
  reason: GapReason;
  analytic_account_id?: string;
  axis_id?: string;
  member_id?: string;
  position_id?: string;
}

/** A share the edge lets the actor sign (contract 2.5 `signs`). */
export interface DescriptorSign {
  account_code: string;
  account_name: string;
  amount: string;
  analytic_account_id: string;
  axis_id: string;
  /** Whose authority the actor signs the share on: their own, or the delegating member's. */
  authority_member_id: string;
  /** How the authority reaches the actor: their own grant, a delegation, an escalation. */
  via: 'grant' | 'delegation' | 'escalation';
}
