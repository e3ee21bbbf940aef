import { z } from 'zod';
import { flag } from '../../../contract/fields';
import { getReminderSchedule, sentReminders, updateReminderSchedule } from '../../../services/receivables/payment-reminders';
import { svc } from '../../context';
import { readProcedure, settingsDecisionProcedure, settingsReadProcedure } from '../../procedures';
import { router } from '../../trpc';
import { answered, withRevision } from '../setup-router';

/**
 * settings.paymentReminders.get|update|sent: the payment reminder schedule (one record; off, with
 * steps 7, 14 and 21 days past due, at revision 1 until changed; changed by a person with a session)
 * and the reminders sent.
 */
export const reminderScheduleSchema = z
  .object({
    enabled: z.boolean().describe('Reminders are sent (off until turned on)'),
    steps: z.array(z.int()).describe('Days past the due day a reminder is sent, ascending'),
    revision: z.int(),
  })
  .meta({ id: 'PaymentReminderSchedule' });

export const paymentRemindersRouter = router({
  get: settingsReadProcedure
    .input(z.strictObject({}).optional())
    .output(reminderScheduleSchema)
    .query(async ({ ctx }) => answered(ctx, await getReminderSchedule(svc(ctx)))),
  update: settingsDecisionProcedure
    .input(
      z.strictObject({
        enabled: flag().optional(),
        steps: z.array(z.int()).max(8).optional().describe('1 to 8 different days past due, each 1 to 365'),
      }),
    )
    .output(reminderScheduleSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await updateReminderSchedule(svc(ctx), withRevision(ctx, input)))),
  sent: readProcedure('receivables.invoice.read')
    .input(z.strictObject({ limit: z.int().min(1).max(200).optional() }).optional())
    .output(z.array(z.object({ id: z.guid(), document_id: z.guid(), step: z.int(), sent_to: z.string(), sent_at: z.iso.datetime({ offset: true }) })))
    .query(({ ctx, input }) => sentReminders(svc(ctx), { limit: input?.limit })),
});
