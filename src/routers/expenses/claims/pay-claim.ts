/**
 * expenses.claims.pay (tRPC only: a people's decision, session only, permission expenses.claim.pay):
 * the `pay` edge of an approved claim with the payout's data — a channel of the claimant's (their
 * preferred one when absent), an optional proof document, and the bank's figures for bank-charged
 * lines. If-Match. One service call.
 */
import { z } from 'zod';
import { payClaim } from '../../../services/expenses/transition-claim';
import { svc } from '../../context';
import { expectedRevision, setEtag } from '../../http';
import { decisionProcedure } from '../../procedures';
import { decimalString } from '../../../lib/money';
import { uuid } from '../../../contract/fields';
import { claimAnswerSchema } from '../../../contract/expenses/claims';

export const payClaimInput = z.strictObject({
  id: uuid().describe('The claim'),
  channel_id: uuid().optional().describe('One of the claimant’s active payout channels; their preferred one when absent'),
  proof_document_id: uuid().optional().describe('An uploaded document (POST /v1/documents) proving the payment'),
  bank_charged_amounts: z
    .array(z.strictObject({ line_id: uuid(), amount: decimalString() }))
    .max(100)
    .optional()
    .describe('The bank’s figure for bank-charged lines, paid instead of the line’s base amount'),
});

export const payClaimProcedure = decisionProcedure('expenses.claim.pay')
  .input(payClaimInput)
  .output(claimAnswerSchema)
  .mutation(async ({ ctx, input }) => {
    const answer = await payClaim(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) });
    setEtag(ctx, answer.claim.revision);
    return answer;
  });
