/** expenses.claims.create, POST /v1/expenses/claims: meta, schemas and one service call; no rule lives here. */
import { fileClaim } from '../../../services/expenses/file-claim';
import { svc } from '../../context';
import { setCreated, setEtag } from '../../http';
import { writeProcedure } from '../../procedures';
import { claimAnswerSchema, createClaimInput } from '../../../contract/expenses/claims';

export const createClaimProcedure = writeProcedure('expenses.claim.create')
  .meta({
    openapi: {
      method: 'POST',
      path: '/expenses/claims',
      summary: 'File an expense claim',
      description:
        'Files a claim for the caller (with an API key, for the key\'s owner); there is no claimant, currency or total field. ' +
        'The claim starts as a draft at revision 1 with the next EC-YYYY-NNNN reference; the answer carries it in a quoted ETag. ' +
        'The Location header is the claim\'s canonical URL (/v1/expenses/claims/{id}), which GET reads. ' +
        'Permission: expenses.claim.create.',
      tags: ['Expense claims'],
      protect: true,
    },
    successStatus: 201,
  })
  .input(createClaimInput)
  .output(claimAnswerSchema)
  .mutation(async ({ ctx, input }) => {
    const answer = await fileClaim(svc(ctx), input);
    setEtag(ctx, answer.claim.revision);
    setCreated(ctx, `/v1/expenses/claims/${answer.claim.id}`);
    return answer;
  });
