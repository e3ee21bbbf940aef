import type { TransitionDescriptor, WorkflowDefinition } from './types';

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
}

export function stateOf(def: WorkflowDefinition, key: string) {
  const state = def.states.find((s) => s.key === key);
  if (!state) throw new Error(`workflow ${def.record_type} has no state ${key}`);
  return state;
}

/**
 * Every exit of the record's current state, with whether this actor may take it (contract 2.5).
 * Clients render actions from this and never evaluate gates themselves.
 */
export function availableTransitions(def: WorkflowDefinition, record: RecordFacts, actor: Actor): TransitionDescriptor[] {
  return def.transitions
    .filter((t) => t.from === record.state)
    .map((t) => {
      const base = { action_key: t.action_key, to: t.to, gate: t.gate, labels: t.labels, requires_reason: false };
      const isReporter = actor.memberId === record.reporterMemberId;
      switch (t.gate) {
        case 'reporter':
          return isReporter
            ? { ...base, allowed: true }
            : { ...base, allowed: false, refusal: { code: 'not_reporter' as const, detail: 'Only the member who prepared or filed the record may take this action' } };
        case 'advance':
          return { ...base, allowed: Boolean(record.stepComplete) };
        case 'target':
        case 'source': {
          const hasAuthority = !t.authority || actor.permissions.has(t.authority);
          if (!hasAuthority) return { ...base, allowed: false };
          if (t.segregated && isReporter) {
            if (actor.isSoleActiveMember) {
              // The sole-owner exception: allowed, but only with a recorded reason.
              return { ...base, allowed: true, requires_reason: true, sole_owner_exception: true };
            }
            return {
              ...base,
              allowed: false,
              refusal: { code: 'self_approval' as const, detail: 'The member who prepared the record may not decide it (segregation of duties)' },
            };
          }
          return { ...base, allowed: true };
        }
      }
    });
}
