import { z } from 'zod';
import {
  createAnalyticAccount,
  deactivateAnalyticAccount,
  listAnalyticAccountsPage,
  updateAnalyticAccount,
} from '../../../services/settings/analytic-accounts';
import { svc } from '../../context';
import { settingsReadProcedure, settingsWriteProcedure } from '../../procedures';
import { pageOutput, recordIdShape, uuid } from '../../schemas';
import { router } from '../../trpc';
import { answered, deactivateInput, listInput, withRevision } from '../shared';

/** settings.analyticAccounts.*: departments, projects and the like, each on one axis. */

export const analyticAccountSchema = z.object({
  id: uuid(),
  axis_id: uuid(),
  code: z.string(),
  name: z.string(),
  active: z.boolean(),
  revision: z.int(),
});

export const analyticAccountsRouter = router({
  list: settingsReadProcedure
    .input(listInput({ axis_id: uuid().optional() }))
    .output(pageOutput(analyticAccountSchema))
    .query(({ ctx, input }) => listAnalyticAccountsPage(svc(ctx), input)),
  create: settingsWriteProcedure
    .input(z.strictObject({ axis_id: uuid(), code: z.string(), name: z.string() }))
    .output(analyticAccountSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await createAnalyticAccount(svc(ctx), input))),
  update: settingsWriteProcedure
    .input(z.strictObject({ ...recordIdShape, code: z.string().optional(), name: z.string().optional() }))
    .output(analyticAccountSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await updateAnalyticAccount(svc(ctx), withRevision(ctx, input)))),
  deactivate: settingsWriteProcedure
    .input(deactivateInput)
    .output(analyticAccountSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await deactivateAnalyticAccount(svc(ctx), withRevision(ctx, input)))),
});
