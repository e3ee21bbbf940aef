import { z } from 'zod';
import { listInput, recordIdShape, uuid } from '../fields';

/**
 * settings.companyGroups.*: groups of companies this organization is in or invited to. The creator
 * organization invites and manages; an invited organization accepts, declines or later leaves.
 */

export const companyGroupSchema = z.object({
  id: uuid(),
  name: z.string(),
  created_by_organization_id: uuid().nullable().describe('The organization that created the group and alone manages it'),
  member_organization_ids: z.array(uuid()).describe('The organizations that accepted (the creator included): only these are group companies of each other'),
  invited_organization_ids: z.array(uuid()).describe('Invitations not yet accepted; answered to the creator only (empty for anyone else)'),
  membership: z.enum(['creator', 'member', 'invited', 'none']).describe("The caller organization's standing in the group ('none' once it declined or left)"),
  active: z.boolean(),
  revision: z.int(),
});

const members = () =>
  z.array(uuid()).describe("The group's other organizations, to invite (each must accept); the caller's own organization is the creator and always a member");

/** The schemas of settings.companyGroups.list|create|update. */
export const companyGroupContract = {
  record: companyGroupSchema,
  list: listInput({}),
  create: z.strictObject({ name: z.string(), member_organization_ids: members() }),
  update: z.strictObject({ ...recordIdShape, name: z.string().optional(), member_organization_ids: members().optional() }),
};
