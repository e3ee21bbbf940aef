import { z } from 'zod';
import { APPROVAL_GRANT_KINDS, APPROVAL_STEPS } from '../../domain/approvals';
import { amountOut, decimalInput, flag, listInput, recordIdShape, timestamp, uuid } from '../fields';

/**
 * settings.approvalGrants.*: sources of approval authority (docs/design.md §17). `kind` and `step` are
 * fixed at creation: update does not take them (400 unknown field). `update` with `active: true`
 * reactivates an inactive grant; the primary-grant rule is checked again (409).
 */

const band = z.strictObject({
  level: z.int().optional().describe('Superior grants only: the step up the chain (1 = the direct superior); absent: every level'),
  min_amount: decimalInput(),
  max_amount: decimalInput().nullable().describe('null: no upper limit'),
});

const bandOut = z.object({ level: z.int().optional(), min_amount: amountOut(), max_amount: amountOut().nullable() });

export const approvalGrantSchema = z
  .object({
    id: uuid(),
    name: z.string(),
    kind: z.enum(APPROVAL_GRANT_KINDS),
    step: z.enum(APPROVAL_STEPS),
    axis_id: uuid().nullable(),
    holder_position_id: uuid().nullable(),
    holder_member_id: uuid().nullable(),
    max_levels: z.int().nullable(),
    fallback_grant_id: uuid().nullable(),
    bands: z.array(bandOut),
    active: z.boolean(),
    revision: z.int(),
    created_at: timestamp(),
  })
  .meta({ id: 'ApprovalGrant' });

const changeable = {
  name: z.string(),
  axis_id: uuid().nullable().optional(),
  holder_position_id: uuid().nullable().optional(),
  holder_member_id: uuid().nullable().optional(),
  max_levels: z.int().nullable().optional().describe('Superior grants only, 1 to 20; null: to the root'),
  fallback_grant_id: uuid().nullable().optional(),
  bands: z.array(band).max(1000).optional().describe('At most 20; replaced whole on update'),
};

/** The schemas of settings.approvalGrants.* (routers/settings/setup-router.ts). */
export const approvalGrantContract = {
  record: approvalGrantSchema,
  list: listInput({}),
  create: z.strictObject({ ...changeable, kind: z.enum(APPROVAL_GRANT_KINDS), step: z.enum(APPROVAL_STEPS) }),
  update: z.strictObject({ ...recordIdShape, ...changeable, name: z.string().optional(), active: flag().optional() }),
};
