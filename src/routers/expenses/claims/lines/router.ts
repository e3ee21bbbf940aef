/** expenses.claims.lines: adding, changing and withdrawing the lines of a draft claim (REST under /v1/expenses/claims/{id}/lines). */
import { router } from '../../../trpc';
import { addClaimLineProcedure } from './add-line';
import { updateClaimLineProcedure } from './update-line';
import { withdrawClaimLineProcedure } from './withdraw-line';

export const claimLinesRouter = router({
  add: addClaimLineProcedure,
  update: updateClaimLineProcedure,
  withdraw: withdrawClaimLineProcedure,
});
