import { z } from 'zod';
import { ageingSettingsSchema, updateAgeingSettingsInput } from '../../../contract/receivables/reports';
import { getAgeingSettings, updateAgeingSettings } from '../../../services/receivables/ageing-settings';
import { svc } from '../../context';
import { settingsDecisionProcedure, settingsReadProcedure } from '../../procedures';
import { router } from '../../trpc';
import { answered, withRevision } from '../setup-router';

/**
 * settings.ageing.get|update: the edges (days past due) of the ageing report's buckets, one record
 * (30, 60, 90, 120 at revision 1 until changed). Update is a person's decision (session only) with
 * If-Match, as the other set-up is.
 */
export const ageingSettingsRouter = router({
  get: settingsReadProcedure
    .input(z.strictObject({}).optional())
    .output(ageingSettingsSchema)
    .query(async ({ ctx }) => answered(ctx, await getAgeingSettings(svc(ctx)))),
  update: settingsDecisionProcedure
    .input(updateAgeingSettingsInput)
    .output(ageingSettingsSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await updateAgeingSettings(svc(ctx), withRevision(ctx, input)))),
});
