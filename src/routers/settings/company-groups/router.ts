import { z } from 'zod';
import {
  acceptCompanyGroupInvitationFor,
  createCompanyGroup,
  deactivateCompanyGroup,
  leaveCompanyGroup,
  listCompanyGroupsPage,
  updateCompanyGroup,
} from '../../../services/settings/company-groups';
import { svc } from '../../context';
import { settingsDecisionProcedure, settingsReadProcedure } from '../../procedures';
import { pageOutput, recordIdShape, uuid } from '../../schemas';
import { router } from '../../trpc';
import { answered, deactivateInput, listInput, withRevision } from '../shared';

/**
 * settings.companyGroups.*: groups of companies this organization is in or invited to. Membership is
 * a people's decision on both sides (session only, organization.settings.manage): the creator
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

export const companyGroupsRouter = router({
  list: settingsReadProcedure
    .input(listInput({}))
    .output(pageOutput(companyGroupSchema))
    .query(({ ctx, input }) => listCompanyGroupsPage(svc(ctx), input)),
  create: settingsDecisionProcedure
    .input(z.strictObject({ name: z.string(), member_organization_ids: members() }))
    .output(companyGroupSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await createCompanyGroup(svc(ctx), input))),
  update: settingsDecisionProcedure
    .input(z.strictObject({ ...recordIdShape, name: z.string().optional(), member_organization_ids: members().optional() }))
    .output(companyGroupSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await updateCompanyGroup(svc(ctx), withRevision(ctx, input)))),
  deactivate: settingsDecisionProcedure
    .input(deactivateInput)
    .output(companyGroupSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await deactivateCompanyGroup(svc(ctx), withRevision(ctx, input)))),
  /** The invited organization accepts (If-Match: the group's revision). */
  accept: settingsDecisionProcedure
    .input(z.strictObject(recordIdShape))
    .output(companyGroupSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await acceptCompanyGroupInvitationFor(svc(ctx), withRevision(ctx, input)))),
  /** The invited organization declines its invitation. */
  decline: settingsDecisionProcedure
    .input(z.strictObject(recordIdShape))
    .output(companyGroupSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await leaveCompanyGroup(svc(ctx), withRevision(ctx, input), 'decline'))),
  /** A member (not the creator) or an invited organization leaves the group. */
  leave: settingsDecisionProcedure
    .input(z.strictObject(recordIdShape))
    .output(companyGroupSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await leaveCompanyGroup(svc(ctx), withRevision(ctx, input), 'leave'))),
});
