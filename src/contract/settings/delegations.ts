import { z } from 'zod';
import { DELEGATION_SCOPES } from '../../domain/approvals';
import { isoDateInput, listInput, recordIdShape, timestamp, uuid } from '../fields';

/** Delegations' input and output shapes, shared by settings.delegations and me.delegations. */

export const delegationSchema = z
  .object({
    id: uuid(),
    delegator_member_id: uuid(),
    delegate_member_id: uuid(),
    valid_from: isoDateInput(),
    valid_to: isoDateInput(),
    scope: z.enum(DELEGATION_SCOPES),
    grant_id: uuid().nullable(),
    axis_id: uuid().nullable(),
    analytic_account_id: uuid().nullable(),
    reason: z.string().nullable(),
    active: z.boolean(),
    revision: z.int(),
    created_at: timestamp(),
  })
  .meta({ id: 'Delegation' });

/** Create fields other than the delegator (me.delegations: the caller). */
export const delegationFields = {
  delegate_member_id: uuid(),
  valid_from: isoDateInput(),
  valid_to: isoDateInput().describe('Inclusive; at most 90 days from valid_from, both days counted'),
  scope: z.enum(DELEGATION_SCOPES).optional().describe('Default all; grant, axis and analytic_account need the matching id'),
  grant_id: uuid().optional(),
  axis_id: uuid().optional(),
  analytic_account_id: uuid().optional(),
  reason: z.string().optional().describe('At most 500 characters'),
};

/** The schemas of settings.delegations.* (any member's delegations; routers/settings/setup-router.ts). */
export const delegationContract = {
  record: delegationSchema,
  list: listInput({ delegator_member_id: uuid().optional(), delegate_member_id: uuid().optional() }),
  create: z.strictObject({ delegator_member_id: uuid(), ...delegationFields }),
  update: z.strictObject({ ...recordIdShape, valid_from: isoDateInput().optional(), valid_to: isoDateInput().optional(), reason: z.string().nullable().optional() }),
};
