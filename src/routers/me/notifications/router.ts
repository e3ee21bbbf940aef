import { z } from 'zod';
import { myMailSettings, updateMyMailSettings } from '../../../services/mail/settings';
import { svc } from '../../context';
import { writeTransaction } from '../../middleware/write-transaction';
import { sessionProcedure } from '../../procedures';
import { router } from '../../trpc';
import { mailSettingsSchema, updateMailSettingsInput } from '../../../contract/organization/members';

/**
 * me.notifications.*: the caller's own e-mail: the language messages are written in, and each
 * notification kind on or off (invitations and password resets always go). A session only.
 */
export const meNotificationsRouter = router({
  get: sessionProcedure
    .input(z.strictObject({}).optional())
    .output(mailSettingsSchema)
    .query(({ ctx }) => myMailSettings(svc(ctx))),
  update: sessionProcedure
    .use(writeTransaction)
    .input(updateMailSettingsInput)
    .output(mailSettingsSchema)
    .mutation(({ ctx, input }) => updateMyMailSettings(svc(ctx), input)),
});
