/** expenses.claims.get, GET /v1/expenses/claims/{id}: meta, schemas and one service call; no rule lives here. */
import { getClaim } from '../../../services/expenses/read-claim';
import { svc } from '../../context';
import { setEtag } from '../../http';
import { authedProcedure } from '../../procedures';
import { idInput } from '../../../contract/fields';
import { claimAnswerSchema } from '../../../contract/expenses/claims';

/**
 * Reads a claim. No permission beyond membership (a finance approver may hold no create permission):
 * the claim read rule decides, and a claim the caller may not read answers 404 like one that does not exist.
 */
export const getClaimProcedure = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/expenses/claims/{id}',
      summary: 'Read an expense claim',
      description:
        'Answers the claim answer (claim, lines, decisions, settlements, sign-offs of the current step, available transitions for you), ' +
        'its revision in the ETag header. Readable by the claimant, by members holding expenses.claim.approve or expenses.claim.pay, ' +
        'by members eligible on one of its sign-offs (escalation hops included) or who signed one, and by their delegates while the ' +
        'delegation runs; anyone else gets 404, as for a claim that does not exist.',
      tags: ['Expense claims'],
      protect: true,
    },
  })
  .input(idInput)
  .output(claimAnswerSchema)
  .query(async ({ ctx, input }) => {
    const answer = await getClaim(svc(ctx), input);
    setEtag(ctx, answer.claim.revision);
    return answer;
  });
