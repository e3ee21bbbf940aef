import { z } from 'zod';
import { createMyDelegation, deactivateMyDelegation, listMyDelegations } from '../../../services/approvals-setup/delegations';
import { svc } from '../../context';
import { decisionProcedure, readProcedure } from '../../procedures';
import { deactivateInput, listInput, pageOutput } from '../../../contract/fields';
import { router } from '../../trpc';
import { delegationFields, delegationSchema } from '../../../contract/settings/delegations';
import { answered, created, withRevision } from '../../settings/setup-router';

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
    .mutation(async ({ ctx, input }) => created(ctx, await createMyDelegation(svc(ctx), input))),
  deactivate: decisionProcedure('expenses.claim.approve')
    .input(deactivateInput)
    .output(delegationSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await deactivateMyDelegation(svc(ctx), withRevision(ctx, input)))),
});
