/**
 * The one evaluator of workflow edges: it builds `available_transitions` (contract 2.5) and it is
 * what take-transition.ts authorizes an act with, so what a client is shown and what the server
 * enforces cannot disagree. Pure: it reads nothing; the record type's adapter gathers the facts.
 */
import type { AppError } from '../../lib/errors';
import type { DescriptorGap, DescriptorSign, RefusalCode, TransitionCondition, TransitionDescriptor, TransitionDefinition, WorkflowDefinition } from './types';

export interface Actor {
  memberId: string;
  permissions: ReadonlySet<string>;
  /** True when the actor is the organization's one active member. */
  isSoleActiveMember: boolean;
}

export interface RecordFacts {
  state: string;
  /** Who prepared (document) or filed (claim) the record. */
  reporterMemberId: string;
  /** For advance gates: whether the current step's conditions are met (e.g. every sign-off signed). */
  stepComplete?: boolean;
  /** Who raised the record's current dispute (edges marked `not_raiser` refuse them: `dispute_raiser`). */
  raiserMemberId?: string | null;
  /** The edge conditions the record does not meet, with why (an edge naming one is blocked: 409). */
  unmet?: Partial<Record<TransitionCondition, string>>;
  /**
   * Conditions the record adds to edges whatever the stored definition names, by action key of the
   * current state's exits (a receivables draft's issue edge needs `einvoice_ready` when e-invoicing is on).
   */
  impliedConditions?: Record<string, TransitionCondition[]>;
  /** The refusal taking an edge blocked by this condition answers (default: 409 conflict with its detail). */
  unmetErrors?: Partial<Record<TransitionCondition, AppError>>;
  /**
   * Whether the sole-owner exception applies to this record type (receivables documents: always;
   * claims: only when the organization turns it on). Absent: it applies.
   */
  soleOwnerException?: boolean;
  /** On a sign-off step, what this actor may sign (the approval engine's answer for this actor). */
  signing?: SigningFacts;
  /** The actor's authority in the current sign-off step (any sign-off), or null: `signoff_authority: 'step'` edges. */
  stepAuthority?: AuthorityPath | null;
  /** The actor's authority as an account approver on an unsigned share, or null: `signoff_authority: 'account'` edges. */
  accountAuthority?: AuthorityPath | null;
}

/** Whose authority the actor acts on, and how it was established. */
export interface AuthorityPath {
  authorityMemberId: string;
  via: 'grant' | 'delegation' | 'escalation';
}

/** What the approval engine found for one actor on a sign-off step. */
export interface SigningFacts {
  signs: DescriptorSign[];
  refusal?: { code: RefusalCode; detail: string };
  gaps: DescriptorGap[];
  /** The actor signs as the organization's one active member on their own record (claims, when turned on). */
  soleOwnerException?: boolean;
}

export function stateOf(def: WorkflowDefinition, key: string) {
  const state = def.states.find((s) => s.key === key);
  if (!state) throw new Error(`workflow ${def.record_type} has no state ${key}`);
  return state;
}

const SELF_APPROVAL = 'The member who prepared the record may not decide it (segregation of duties)';
const DISPUTE_RAISER = 'The member who raised the dispute may not resolve it; another member must';
const NOT_REPORTER = 'Only the member who prepared or filed the record may take this action';

/** One exit of the current state for this actor. */
export function describeTransition(t: TransitionDefinition, record: RecordFacts, actor: Actor): TransitionDescriptor {
  const isReporter = actor.memberId === record.reporterMemberId;
  let verdict: TransitionDescriptor;
  switch (t.gate) {
    case 'reporter':
      verdict = isReporter ? descriptor(t, true) : refused(t, { code: 'not_reporter', detail: NOT_REPORTER });
      break;
    case 'advance':
      if (t.signs) {
        verdict = signingVerdict(t, record.signing);
        break;
      }
      if (t.signoff_authority) {
        const raiser = Boolean(t.not_raiser && record.raiserMemberId && record.raiserMemberId === actor.memberId);
        verdict = raiser ? refused(t, { code: 'dispute_raiser', detail: DISPUTE_RAISER }) : descriptor(t, Boolean(authorityFor(t, record)));
        break;
      }
      verdict = descriptor(t, Boolean(record.stepComplete));
      break;
    case 'target':
    case 'source': {
      const hasAuthority = (!t.authority || actor.permissions.has(t.authority)) && (!t.signoff_authority || Boolean(authorityFor(t, record)));
      if (!hasAuthority) return descriptor(t, false);
      const selfApproval = Boolean(t.segregated && isReporter);
      const raiser = Boolean(t.not_raiser && record.raiserMemberId && record.raiserMemberId === actor.memberId);
      if (selfApproval || raiser) {
        // The sole-owner exception: the organization's one active member may decide their own record,
        // but only with a recorded reason (nobody else could ever take the edge).
        if (actor.isSoleActiveMember && record.soleOwnerException !== false) {
          verdict = descriptor(t, true, true);
          verdict.sole_owner_exception = true;
        } else {
          verdict = refused(t, selfApproval ? { code: 'self_approval', detail: SELF_APPROVAL } : { code: 'dispute_raiser', detail: DISPUTE_RAISER });
        }
      } else {
        verdict = descriptor(t, true);
      }
      break;
    }
  }
  // The record's own conditions: checked once the caller may take the edge, so a caller without
  // authority learns nothing about the record from the answer.
  if (verdict.allowed) {
    const blocked = firstUnmet(t.conditions, record) ?? firstUnmet(record.impliedConditions?.[t.action_key], record);
    if (blocked) {
      const answer = descriptor(t, false);
      answer.blocked = blocked;
      return answer;
    }
  }
  return verdict;
}

/** An exit's descriptor before the verdict's extras (one shape for every exit). */
function descriptor(t: TransitionDefinition, allowed: boolean, requiresReason = Boolean(t.requires_reason)): TransitionDescriptor {
  return { action_key: t.action_key, to: t.to, gate: t.gate, labels: t.labels, requires_reason: requiresReason, allowed };
}

function refused(t: TransitionDefinition, refusal: { code: RefusalCode; detail: string }): TransitionDescriptor {
  const answer = descriptor(t, false);
  answer.refusal = refusal;
  return answer;
}

/** The first of these conditions the record does not meet, with why. */
function firstUnmet(conditions: readonly TransitionCondition[] | undefined, record: RecordFacts): { condition: TransitionCondition; detail: string } | undefined {
  if (!conditions || !record.unmet) return undefined;
  for (const c of conditions) {
    const why = record.unmet[c];
    if (why !== undefined) return { condition: c, detail: why };
  }
  return undefined;
}

/** The actor's authority on an edge whose authority comes from the sign-off step. */
export function authorityFor(t: TransitionDefinition, record: RecordFacts): AuthorityPath | null | undefined {
  return t.signoff_authority === 'account' ? record.accountAuthority : record.stepAuthority;
}

/** A sign-off edge: allowed when the actor may sign at least one share now. */
function signingVerdict(t: TransitionDefinition, signing: SigningFacts | undefined): TransitionDescriptor {
  if (!signing || signing.signs.length === 0) {
    const answer = descriptor(t, false);
    if (signing?.gaps.length) answer.gaps = signing.gaps;
    if (signing?.refusal) answer.refusal = signing.refusal;
    return answer;
  }
  const answer = signing.soleOwnerException ? descriptor(t, true, true) : descriptor(t, true);
  if (signing.soleOwnerException) answer.sole_owner_exception = true;
  if (signing.gaps.length) answer.gaps = signing.gaps;
  answer.signs = signing.signs;
  return answer;
}

/**
 * Every exit of the record's current state, with whether this actor may take it (contract 2.5).
 * Clients render actions from this and never evaluate gates themselves.
 */
export function availableTransitions(def: WorkflowDefinition, record: RecordFacts, actor: Actor): TransitionDescriptor[] {
  return exitsOf(def, record.state).shown.map((t) => describeTransition(t, record, actor));
}

/** A state's exits in a definition, and what the facts about a record in that state depend on. */
export interface StateExits {
  /** Every exit, system edges included, in the definition's order. */
  all: readonly TransitionDefinition[];
  /** The exits a person may be shown (not system edges). */
  shown: readonly TransitionDefinition[];
  /** Every condition an exit names. */
  conditions: ReadonlySet<TransitionCondition>;
}

const exitIndex = new WeakMap<WorkflowDefinition, Map<string, StateExits>>();

/**
 * The exits of a state, worked out once per definition object: a loaded definition is never changed
 * (an edited workflow is a new definition), and hot reads evaluate the same one for every request.
 */
export function exitsOf(def: WorkflowDefinition, state: string): StateExits {
  let byState = exitIndex.get(def);
  if (!byState) {
    byState = new Map();
    exitIndex.set(def, byState);
  }
  let exits = byState.get(state);
  if (!exits) {
    const all = def.transitions.filter((t) => t.from === state);
    exits = { all, shown: all.filter((t) => !t.system), conditions: new Set(all.flatMap((t) => t.conditions ?? [])) };
    byState.set(state, exits);
  }
  return exits;
}
