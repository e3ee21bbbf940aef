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
}


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
}

