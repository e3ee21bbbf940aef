/** expenses.claims.lines.update, PATCH /v1/expenses/claims/{id}/lines/{line_id}: meta, schemas and one service call; no rule lives here. */
import { updateClaimLine } from '../../../../services/expenses/claim-lines';
import { svc } from '../../../context';
import { expectedRevision, setEtag } from '../../../http';
import { writeProcedure } from '../../../procedures';
import { claimAnswerSchema } from '../../../../contract/expenses/claims';
import { updateClaimLineInput } from '../../../../contract/expenses/claim-lines';

export const updateClaimLineProcedure = writeProcedure('expenses.claim.create')
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/expenses/claims/{id}/lines/{line_id}',
      summary: 'Change a line of a draft expense claim',
      description:
        'Changes the fields sent (any add field but type, which is 400); fields left out keep their value, null clears an optional one (fx_rate: null goes back to the reference rate). ' +
        'The line is checked and priced again with the add rules. shares is replaced whole when sent; documents, when sent, becomes the line’s supporting documents: ' +
        'new ones are bound, the ones left out stop supporting the line (kept in history). A withdrawn line is 409 conflict. ' +
        'If-Match as every write (428 missing, 409 revision_mismatch stale); only the claimant, only on a draft. Answers 200 with the whole claim and its new revision in the ETag. ' +
        'Permission: expenses.claim.create.',
      tags: ['Expense claims'],
      protect: true,
    },
    requiresRevision: true,
  })
  .input(updateClaimLineInput)
  .output(claimAnswerSchema)
  .mutation(async ({ ctx, input }) => {
    const answer = await updateClaimLine(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) });
    setEtag(ctx, answer.claim.revision);
    return answer;
  });
