/** expenses.claims.lines.add, POST /v1/expenses/claims/{id}/lines: meta, schemas and one service call; no rule lives here. */
import { addClaimLine } from '../../../../services/expenses/claim-lines';
import { svc } from '../../../context';
import { expectedRevision, setCreated, setEtag } from '../../../http';
import { writeProcedure } from '../../../procedures';
import { claimAnswerSchema } from '../../../../contract/expenses/claims';
import { addClaimLineInput } from '../../../../contract/expenses/claim-lines';

export const addClaimLineProcedure = writeProcedure('expenses.claim.create')
  .meta({
    openapi: {
      method: 'POST',
      path: '/expenses/claims/{id}/lines',
      summary: 'Add a line to a draft expense claim',
      description:
        'Adds a receipt, mileage, per_diem or advance_offset line at the end of a draft claim, by its claimant (API key or session: data entry, not a decision). ' +
        'A receipt in a foreign currency is converted at the organization’s reference rate on the expense date (fx_rate_source reference; none on or before that date is 422 at /fx_rate), ' +
        'at an override (fx_rate with fx_rate_reason), or reimbursed exactly at the bank-charged figure (bank_charged_amount; fx_rate is that figure over the amount, to 10 places). ' +
        'Mileage is banded cumulatively over the claimant’s calendar year (the kilometres of their other active mileage lines that year, claims rejected or cancelled left out); band names the bands the line spans, joined with "+". ' +
        'Per-diem is days × the named band’s amount. SST borne is backed out of the gross and never recovered. A receipt must state document_basis. ' +
        'Every failing field is named at once in one 422 validation. Send If-Match with the claim’s revision: missing is 428 revision_required, stale is 409 revision_mismatch; ' +
        'a claim that is not a draft is 409 conflict; a claim you may not read is 404, one you read but did not file is 403. ' +
        'Answers 201 with the whole claim (Location: the claim) and its new revision in the ETag. Permission: expenses.claim.create.',
      tags: ['Expense claims'],
      protect: true,
    },
    successStatus: 201,
    requiresRevision: true,
  })
  .input(addClaimLineInput)
  .output(claimAnswerSchema)
  .mutation(async ({ ctx, input }) => {
    const answer = await addClaimLine(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) });
    setEtag(ctx, answer.claim.revision);
    setCreated(ctx, `/v1/expenses/claims/${answer.claim.id}`);
    return answer;
  });
