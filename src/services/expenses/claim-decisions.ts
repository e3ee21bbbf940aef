/**
 * Recording a decision on a claim as the caller, and moving the claim along the organization's
 * stored workflow. Whether the caller may take the edge is the people's operations' business (gates,
 * sign-offs): this never checks it. It writes the decision log, the state, submitted_at (when the
 * claim first leaves draft) and the revision, and never takes an edge the current state lacks.
 */
import { bumpClaimRevision, insertClaimDecision, lockClaim, nextClaimDecisionSeq } from '../../db/queries/claims';
import type { DECISION_VIAS } from '../../db/schema';
import { AppError } from '../../lib/errors';
import type { ServiceContext } from '../context';
import { stateOf } from '../workflow/transitions';
import { loadWorkflow } from '../workflow/workflows';

export interface RecordClaimDecisionInput {
  /** The claim. */
  id: string;
  action_key: string;
  /** Whose authority the caller decided on; the caller's own when absent. */
  authority_member_id?: string;
  via: (typeof DECISION_VIAS)[number];
  reason?: string;
}

export async function recordClaimDecision(ctx: ServiceContext, input: RecordClaimDecisionInput) {
  const { db } = ctx;
  const organizationId = ctx.principal.organizationId;
  const actorMemberId = ctx.principal.memberId;
  const claim = await lockClaim(db, { organizationId, id: input.id });
  if (!claim) throw new AppError('not_found', { detail: 'No such claim in this organization' });
  const def = await loadWorkflow(db, organizationId, 'expense_claim');
  const edge = def.transitions.find((t) => t.from === claim.state && t.action_key === input.action_key);
  if (!edge) throw new AppError('conflict', { detail: `The claim is ${claim.state}; ${input.action_key} is not an exit of that state` });

  const seq = await nextClaimDecisionSeq(db, { organizationId, claimId: claim.id });
  await insertClaimDecision(db, {
    organizationId,
    claimId: claim.id,
    seq,
    actionKey: edge.action_key,
    actorMemberId,
    authorityMemberId: input.authority_member_id ?? actorMemberId,
    decidedAt: ctx.now,
    fromState: claim.state,
    toState: edge.to,
    reason: input.reason ?? '',
    via: input.via,
  });

  const leavesDraft = stateOf(def, claim.state).semantic === 'draft' && stateOf(def, edge.to).semantic !== 'draft';
  return bumpClaimRevision(db, {
    organizationId,
    id: claim.id,
    set: { state: edge.to, ...(leavesDraft && !claim.submittedAt ? { submittedAt: ctx.now } : {}) },
  });
}
