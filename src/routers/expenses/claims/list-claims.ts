/** expenses.claims.list, GET /v1/expenses/claims: meta, schemas and one service call; no rule lives here. */
import { listClaims } from '../../../services/expenses/list-claims';
import { svc } from '../../context';
import { authedProcedure } from '../../procedures';
import { claimListSchema, listClaimsInput } from '../../../contract/expenses/claim-list';

// No permission: every member may list; the scope and the claim read rule decide what they see.
export const listClaimsProcedure = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/expenses/claims',
      summary: 'List expense claims',
      description:
        'Newest created first (created_at, then id). scope: mine (default; claims you filed), to_act (claims you may sign now: ' +
        'the approve action of their available_transitions signs shares for you; each item carries your_share, the sum of those shares), ' +
        'all (every claim you may read: the claimant, approvers and payers, eligible signers and their delegates; ' +
        'without expenses.claim.approve or .pay this is not refused, it answers the claims you may read). ' +
        'Filters: state (a state key; unknown is 422), month (YYYY-MM of created_at in the organization\'s time zone), ' +
        'q (substring of reference or title). Keyset pagination: pass next_cursor back as cursor with the same scope and filters ' +
        '(a cursor sent with others is 422 validation at /query/cursor; one that does not decode or verify is 400). ' +
        'Items are the claim part of the claim answer (GET /expenses/claims/{id}). No permission beyond membership.',
      tags: ['Expense claims'],
      protect: true,
    },
  })
  .input(listClaimsInput)
  .output(claimListSchema)
  .query(({ ctx, input }) => listClaims(svc(ctx), input));
