/** The closed set of semantics every state maps to (contract section 3). */
import { GAP_REASONS, SEMANTICS, type Gate, type GapReason, type RecordType, type RefusalCode, type Semantic } from '../../domain/workflow';
export { GAP_REASONS, SEMANTICS, type Gate, type GapReason, type RecordType, type RefusalCode, type Semantic };


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
export const TRANSITION_CONDITIONS = ['nothing_allocated', 'credit_within_invoice', 'claim_has_lines', 'claim_lines_complete', 'einvoice_ready', 'einvoice_cancellable'] as const;
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
}
