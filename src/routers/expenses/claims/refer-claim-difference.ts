/**
 * expenses.claims.referDifference (tRPC only: a people's decision, session only, permission
 * expenses.claim.pay): the `refer_difference` edge of an approved claim — the bank's figures for
 * bank-charged lines beyond the payout tolerance, sent for approval of their difference over the
 * approved amount, with a reason. If-Match. One service call.
 */
import { z } from 'zod';
import { referClaimDifference } from '../../../services/expenses/transition-claim';
import { svc } from '../../context';
import { expectedRevision, setEtag } from '../../http';
import { decisionProcedure } from '../../procedures';
import { decimalString } from '../../../lib/money';
import { uuid } from '../../../contract/fields';
import { claimAnswerSchema } from '../../../contract/expenses/claims';

export const referClaimDifferenceInput = z.strictObject({
  id: uuid().describe('The claim'),
  reason: z.string().max(500, { message: 'must be at most 500 characters' }).optional().describe('Why the bank figure differs; recorded on the decision log (required)'),
  bank_charged_amounts: z
    .array(z.strictObject({ line_id: uuid(), amount: decimalString() }))
    .max(100)
    .optional()
    .describe('The bank’s figure for bank-charged lines, each above the line’s approved base amount; at least one beyond the payout tolerance'),
});

export const referClaimDifferenceProcedure = decisionProcedure('expenses.claim.pay')
  .input(referClaimDifferenceInput)
  .output(claimAnswerSchema)
  .mutation(async ({ ctx, input }) => {
    const answer = await referClaimDifference(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) });
    setEtag(ctx, answer.claim.revision);
    return answer;
  });
