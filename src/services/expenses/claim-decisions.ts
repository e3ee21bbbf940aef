import type { Database } from '../../db/client';
import { bumpClaimRevision, insertClaimDecision, lockClaim, nextClaimDecisionSeq } from '../../db/queries/claims';
import type { DECISION_VIAS } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { stateOf } from '../workflow/transitions';
import { loadWorkflow } from '../workflow/workflows';

/**
 * Records a decision on a claim and moves it along the organization's stored workflow. Whether the
 * actor may take the edge is the people's operations' business (gates, sign-offs); this writes the
 * decision log, the state, submitted_at (when the claim first leaves draft) and the revision.
 */
export async function recordClaimDecision(
  db: Database,
  input: {
    organizationId: string;
    claimId: string;
    actionKey: string;
    actorMemberId: string;
    /** Whose authority the actor decided on; the actor when absent. */
    authorityMemberId?: string;
    via: (typeof DECISION_VIAS)[number];
    reason?: string;
    now: Date;
  },
) {
  const claim = await lockClaim(db, { organizationId: input.organizationId, id: input.claimId });
  if (!claim) throw new AppError('not_found', { detail: 'No such claim in this organization' });
  const def = await loadWorkflow(db, input.organizationId, 'expense_claim');
  const edge = def.transitions.find((t) => t.from === claim.state && t.action_key === input.actionKey);
  if (!edge) throw new AppError('conflict', { detail: `The claim is ${claim.state}; ${input.actionKey} is not an exit of that state` });

  const seq = await nextClaimDecisionSeq(db, { organizationId: input.organizationId, claimId: claim.id });
  await insertClaimDecision(db, {
    organizationId: input.organizationId,
    claimId: claim.id,
    seq,
    actionKey: edge.action_key,
    actorMemberId: input.actorMemberId,
    authorityMemberId: input.authorityMemberId ?? input.actorMemberId,
    decidedAt: input.now,
    fromState: claim.state,
    toState: edge.to,
    reason: input.reason ?? '',
    via: input.via,
  });

  const leavesDraft = stateOf(def, claim.state).semantic === 'draft' && stateOf(def, edge.to).semantic !== 'draft';
  return bumpClaimRevision(db, {
    organizationId: input.organizationId,
    id: claim.id,
    set: { state: edge.to, ...(leavesDraft && !claim.submittedAt ? { submittedAt: input.now } : {}) },
  });
}
