/** expenses.claims.lines.withdraw, POST /v1/expenses/claims/{id}/lines/{line_id}/withdraw: meta, schemas and one service call; no rule lives here. */
import { withdrawClaimLine } from '../../../../services/expenses/claim-lines';
import { svc } from '../../../context';
import { expectedRevision, setEtag } from '../../../http';
import { writeProcedure } from '../../../procedures';
import { claimAnswerSchema } from '../../../../contract/expenses/claims';
import { withdrawClaimLineInput } from '../../../../contract/expenses/claim-lines';

export const withdrawClaimLineProcedure = writeProcedure('expenses.claim.create')
  .meta({
    openapi: {
      method: 'POST',
      path: '/expenses/claims/{id}/lines/{line_id}/withdraw',
      summary: 'Withdraw a line of a draft expense claim',
      description:
        'The line stays on the claim with withdrawn: true and no longer counts toward the total; withdrawing it again is 409 conflict. ' +
        'If-Match as every write (428 missing, 409 revision_mismatch stale); only the claimant, only on a draft. Answers 200 with the whole claim and its new revision in the ETag. ' +
        'Permission: expenses.claim.create.',
      tags: ['Expense claims'],
      protect: true,
    },
    requiresRevision: true,
  })
  .input(withdrawClaimLineInput)
  .output(claimAnswerSchema)
  .mutation(async ({ ctx, input }) => {
    const answer = await withdrawClaimLine(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) });
    setEtag(ctx, answer.claim.revision);
    return answer;
  });
