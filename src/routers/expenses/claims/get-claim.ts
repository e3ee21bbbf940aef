/** expenses.claims.get (tRPC only): schemas and one service call; no rule lives here. */
import { getClaim } from '../../../services/expenses/read-claim';
import { svc } from '../../context';
import { setEtag } from '../../http';
import { readProcedure } from '../../procedures';
import { idInput } from '../../schemas';
import { claimAnswerSchema } from './schemas';

/**
 * Reads a claim back (tRPC only: not a documented REST path yet). Whoever may file claims may read
 * their own; approvers, payers and eligible signers read the claims they decide.
 */
export const getClaimProcedure = readProcedure('expenses.claim.create')
  .input(idInput)
  .output(claimAnswerSchema)
  .query(async ({ ctx, input }) => {
    const answer = await getClaim(svc(ctx), input);
    setEtag(ctx, answer.claim.revision);
    return answer;
  });
