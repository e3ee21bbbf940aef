import { z } from 'zod';
import { createMyDelegation, deactivateMyDelegation, listMyDelegations } from '../../../services/approvals-setup/delegations';
import { svc } from '../../context';
import { decisionProcedure, readProcedure } from '../../procedures';
import { pageOutput } from '../../schemas';
import { router } from '../../trpc';
import { answerCreated } from '../../settings/fields';
import { delegationFields, delegationSchema } from '../../settings/delegations/schemas';
import { answered, deactivateInput, listInput, withRevision } from '../../settings/shared';

/**
 * me.delegations.*: the caller lending their own approval authority (delegator = the caller;
 * `expenses.claim.approve`). Creating and ending one is a person's decision: session only (an API
 * key is 403 person_required). Another member's delegation is 404 here.
 */
export const meDelegationsRouter = router({
  list: readProcedure('expenses.claim.approve')
    .input(listInput({}))
    .output(pageOutput(delegationSchema))
    .query(({ ctx, input }) => listMyDelegations(svc(ctx), input)),
  create: decisionProcedure('expenses.claim.approve')
    .input(z.strictObject(delegationFields))
    .output(delegationSchema)
    .mutation(async ({ ctx, input }) => {
      const d = await createMyDelegation(svc(ctx), input);
      answerCreated(ctx, d.revision);
      return d;
    }),
  deactivate: decisionProcedure('expenses.claim.approve')
    .input(deactivateInput)
    .output(delegationSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await deactivateMyDelegation(svc(ctx), withRevision(ctx, input)))),
});
