import { z } from 'zod';
import { amountOut, decimalInput, isoDateInput, listInput, recordIdShape, timestamp, uuid } from '../fields';

/**
 * settings.approverAssignments.*: who approves an analytic account's shares, for a dated period and
 * within a band. The account and the member are fixed at creation (update does not take them: 400).
 */

export const approverAssignmentSchema = z
  .object({
    id: uuid(),
    analytic_account_id: uuid(),
    member_id: uuid(),
    valid_from: isoDateInput(),
    valid_to: isoDateInput().nullable(),
    min_amount: amountOut(),
    max_amount: amountOut().nullable(),
    active: z.boolean(),
    revision: z.int(),
    created_at: timestamp(),
  })
  .meta({ id: 'ApproverAssignment' });

const period = {
  valid_from: isoDateInput(),
  valid_to: isoDateInput().nullable().optional().describe('Inclusive; null: open'),
  min_amount: decimalInput().optional().describe('Default 0'),
  max_amount: decimalInput().nullable().optional().describe('null: no limit'),
};

/** The schemas of settings.approverAssignments.* (routers/settings/setup-router.ts). */
export const approverAssignmentContract = {
  record: approverAssignmentSchema,
  list: listInput({ analytic_account_id: uuid().optional() }),
  create: z.strictObject({ analytic_account_id: uuid(), member_id: uuid(), ...period }),
  update: z.strictObject({ ...recordIdShape, ...period, valid_from: isoDateInput().optional() }),
};
