/** GET /v1/journal/trial-balance and `journal.trialBalance`: the journal's balances as at a day. */
import { trialBalanceInput, trialBalanceSchema } from '../../contract/journal';
import { journalTrialBalance } from '../../services/journal/exports';
import { svc } from '../context';
import { readProcedure } from '../procedures';

export const trialBalanceProcedure = readProcedure('receivables.journal.export')
  .meta({
    openapi: {
      method: 'GET',
      path: '/journal/trial-balance',
      summary: 'Journal trial balance as at a day',
      description:
        'Σ debit, Σ credit and the balance (debit less credit) in the base currency per account, over every journal entry dated on or before as_of, exported or not. ' +
        'Permission: receivables.journal.export.',
      tags: ['Journal'],
      protect: true,
    },
  })
  .input(trialBalanceInput)
  .output(trialBalanceSchema)
  .query(({ ctx, input }) => journalTrialBalance(svc(ctx), input));
