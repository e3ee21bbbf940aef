import { z } from 'zod';
import { createAnalyticAxis, deactivateAnalyticAxis, listAnalyticAxesPage, updateAnalyticAxis } from '../../../services/settings/analytic-axes';
import { svc } from '../../context';
import { settingsReadProcedure, settingsWriteProcedure } from '../../procedures';
import { pageOutput, recordIdShape, uuid } from '../../schemas';
import { router } from '../../trpc';
import { answered, bool, deactivateInput, listInput, withRevision } from '../shared';

/** settings.analyticAxes.*: analytic axes; at most one is the organization's project axis. */

export const analyticAxisSchema = z.object({
  id: uuid(),
  code: z.string(),
  name: z.string(),
  is_project_axis: z.boolean(),
  required_on_claims: z.boolean().describe('Every claim line must be allocated on this axis'),
  active: z.boolean(),
  revision: z.int(),
});

const fields = { code: z.string(), name: z.string(), is_project_axis: bool().optional(), required_on_claims: bool().optional() };

export const analyticAxesRouter = router({
  list: settingsReadProcedure
    .input(listInput({}))
    .output(pageOutput(analyticAxisSchema))
    .query(({ ctx, input }) => listAnalyticAxesPage(svc(ctx), input)),
  create: settingsWriteProcedure
    .input(z.strictObject(fields))
    .output(analyticAxisSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await createAnalyticAxis(svc(ctx), input))),
  update: settingsWriteProcedure
    .input(z.strictObject({ ...recordIdShape, ...z.object(fields).partial().shape }))
    .output(analyticAxisSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await updateAnalyticAxis(svc(ctx), withRevision(ctx, input)))),
  deactivate: settingsWriteProcedure
    .input(deactivateInput)
    .output(analyticAxisSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await deactivateAnalyticAxis(svc(ctx), withRevision(ctx, input)))),
});
