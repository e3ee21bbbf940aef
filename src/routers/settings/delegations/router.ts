import { z } from 'zod';
import { createDelegation, deactivateDelegation, listDelegations, updateDelegation } from '../../../services/approvals-setup/delegations';
import { svc } from '../../context';
import { settingsDecisionProcedure, settingsReadProcedure } from '../../procedures';
import { pageOutput, recordIdShape, uuid } from '../../schemas';
import { router } from '../../trpc';
import { answerCreated } from '../fields';
import { answered, deactivateInput, isoDate, listInput, withRevision } from '../shared';
import { delegationFields, delegationSchema } from './schemas';

/**
 * settings.delegations.*: any member's delegations, managed by set-up. The delegator, the delegate,
 * the scope and its target are fixed at creation; the period and the reason change.
 */
export const delegationsRouter = router({
  list: settingsReadProcedure
    .input(listInput({ delegator_member_id: uuid().optional(), delegate_member_id: uuid().optional() }))
    .output(pageOutput(delegationSchema))
    .query(({ ctx, input }) => listDelegations(svc(ctx), input)),
  create: settingsDecisionProcedure
    .input(z.strictObject({ delegator_member_id: uuid(), ...delegationFields }))
    .output(delegationSchema)
    .mutation(async ({ ctx, input }) => {
      const d = await createDelegation(svc(ctx), input);
      answerCreated(ctx, d.revision);
      return d;
    }),
  update: settingsDecisionProcedure
    .input(z.strictObject({ ...recordIdShape, valid_from: isoDate().optional(), valid_to: isoDate().optional(), reason: z.string().nullable().optional() }))
    .output(delegationSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await updateDelegation(svc(ctx), withRevision(ctx, input)))),
  deactivate: settingsDecisionProcedure
    .input(deactivateInput)
    .output(delegationSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await deactivateDelegation(svc(ctx), withRevision(ctx, input)))),
});
