import { z } from 'zod';
import { getProfile, updateProfile } from '../../services/settings/profile';
import { svc } from '../context';
import { settingsReadProcedure, settingsWriteProcedure } from '../procedures';
import { profileSchema, updateProfileInput } from '../../contract/organization/profile';
import { answered, withRevision } from '../settings/setup-router';

/**
 * organization.profile.get|update: name, base currency (fixed once the organization holds a record),
 * time zone, record languages and the seller identity MyInvois documents carry. Update sends only the
 * fields it changes, with If-Match (the organization's revision); null clears an identity field.
 */

export const profileRouterShape = {
  get: settingsReadProcedure
    .input(z.strictObject({}).optional())
    .output(profileSchema)
    .query(async ({ ctx }) => answered(ctx, await getProfile(svc(ctx)))),
  update: settingsWriteProcedure
    .input(updateProfileInput)
    .output(profileSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await updateProfile(svc(ctx), withRevision(ctx, input)))),
};
