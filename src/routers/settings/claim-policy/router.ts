import { z } from 'zod';
import { getClaimPolicy, updateClaimPolicy } from '../../../services/approvals-setup/claim-policy';
import { svc } from '../../context';
import { settingsDecisionProcedure, settingsReadProcedure } from '../../procedures';
import { decimalInput, flag, rateOut } from '../../../contract/fields';
import { router } from '../../trpc';
import { answered, withRevision } from '../setup-router';

/** settings.claimPolicy.get|update: escalation, weekends, the sole-owner exception and the payout tolerance (one record; defaults at revision 1). */

export const claimPolicySchema = z
  .object({
    escalation_working_days: z.int(),
    escalation_max_hops: z.int(),
    weekend_days: z.array(z.int()).nullable().describe('ISO weekdays (1 = Monday); null: by the seller address state'),
    sole_owner_exception: z.boolean(),
    payout_tolerance_percent: rateOut().describe('How far a bank-charged line paid at the bank figure may differ from its approved base amount, in percent; default 5'),
    revision: z.int(),
  })
  .meta({ id: 'ClaimPolicy' });

export const claimPolicyRouter = router({
  get: settingsReadProcedure
    .input(z.strictObject({}).optional())
    .output(claimPolicySchema)
    .query(async ({ ctx }) => answered(ctx, await getClaimPolicy(svc(ctx)))),
  update: settingsDecisionProcedure
    .input(
      z.strictObject({
        escalation_working_days: z.int().optional().describe('1 to 30; default 3'),
        escalation_max_hops: z.int().optional().describe('0 to 10; default 2'),
        weekend_days: z.array(z.int()).max(7).nullable().optional(),
        sole_owner_exception: flag().optional(),
        payout_tolerance_percent: decimalInput().optional().describe('0 to 100, at most 2 decimal places; default 5'),
      }),
    )
    .output(claimPolicySchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await updateClaimPolicy(svc(ctx), withRevision(ctx, input)))),
});
