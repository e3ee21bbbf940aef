import { z } from 'zod';
import { createAssignment, deactivateAssignment, listAssignments, updateAssignment } from '../../../services/approvals-setup/assignments';
import { svc } from '../../context';
import { settingsDecisionProcedure, settingsReadProcedure } from '../../procedures';
import { amountOut, pageOutput, recordIdShape, uuid } from '../../schemas';
import { router } from '../../trpc';
import { answerCreated, decimalInput, timestamp } from '../fields';
import { answered, deactivateInput, isoDate, listInput, withRevision } from '../shared';

/**
 * settings.approverAssignments.*: who approves an analytic account's shares, for a dated period and
 * within a band. The account and the member are fixed at creation (update does not take them: 400).
 */

export const approverAssignmentSchema = z
  .object({
    id: uuid(),
    analytic_account_id: uuid(),
    member_id: uuid(),
    valid_from: isoDate(),
    valid_to: isoDate().nullable(),
    min_amount: amountOut(),
    max_amount: amountOut().nullable(),
    active: z.boolean(),
    revision: z.int(),
    created_at: timestamp(),
  })
  .meta({ id: 'ApproverAssignment' });

const period = {
  valid_from: isoDate(),
  valid_to: isoDate().nullable().optional().describe('Inclusive; null: open'),
  min_amount: decimalInput().optional().describe('Default 0'),
  max_amount: decimalInput().nullable().optional().describe('null: no limit'),
};

export const approverAssignmentsRouter = router({
  list: settingsReadProcedure
    .input(listInput({ analytic_account_id: uuid().optional() }))
    .output(pageOutput(approverAssignmentSchema))
    .query(({ ctx, input }) => listAssignments(svc(ctx), input)),
  create: settingsDecisionProcedure
    .input(z.strictObject({ analytic_account_id: uuid(), member_id: uuid(), ...period }))
    .output(approverAssignmentSchema)
    .mutation(async ({ ctx, input }) => {
      const a = await createAssignment(svc(ctx), input);
      answerCreated(ctx, a.revision);
      return a;
    }),
  update: settingsDecisionProcedure
    .input(z.strictObject({ ...recordIdShape, ...period, valid_from: isoDate().optional() }))
    .output(approverAssignmentSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await updateAssignment(svc(ctx), withRevision(ctx, input)))),
  deactivate: settingsDecisionProcedure
    .input(deactivateInput)
    .output(approverAssignmentSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await deactivateAssignment(svc(ctx), withRevision(ctx, input)))),
});
