/**
 * expenses.claims.transition (tRPC only: a people's decision, session only): takes one exit of the
 * claim's current state — submit, withdraw, return, reject, approve (sign), dispute, resolve, amend,
 * cancel — as the organization's workflow has them, with If-Match. Who may take which edge is the
 * workflow's and the approval engine's, so the procedure names no permission. One service call.
 */
import { z } from 'zod';
import { transitionClaim } from '../../../services/expenses/transition-claim';
import { svc } from '../../context';
import { expectedRevision, setEtag } from '../../http';
import { workflowDecisionProcedure } from '../../procedures';
import { uuid } from '../../../contract/fields';
import { claimAnswerSchema } from '../../../contract/expenses/claims';

export const transitionClaimInput = z.strictObject({
  id: uuid().describe('The claim'),
  action_key: z.string().min(1).max(100).describe('One of the claim’s available_transitions'),
  reason: z.string().max(500, { message: 'must be at most 500 characters' }).optional().describe('Recorded on the decision log; required where the descriptor says requires_reason'),
});

export const transitionClaimProcedure = workflowDecisionProcedure
  .input(transitionClaimInput)
  .output(claimAnswerSchema)
  .mutation(async ({ ctx, input }) => {
    const answer = await transitionClaim(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) });
    setEtag(ctx, answer.claim.revision);
    return answer;
  });
