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
import { deactivateInput, pageOutput, recordIdShape } from '../../../contract/fields';
import { companyGroupContract, companyGroupSchema } from '../../../contract/settings/company-groups';
import { router } from '../../trpc';
import { answered, created, withRevision } from '../setup-router';

/**
 * settings.companyGroups.*: groups of companies this organization is in or invited to. Membership is
 * a people's decision on both sides (session only, organization.settings.manage): the creator
 * organization invites and manages; an invited organization accepts, declines or later leaves.
 */

export const companyGroupsRouter = router({
  list: settingsReadProcedure
    .input(companyGroupContract.list)
    .output(pageOutput(companyGroupSchema))
    .query(({ ctx, input }) => listCompanyGroupsPage(svc(ctx), input)),
  create: settingsDecisionProcedure
    .input(companyGroupContract.create)
    .output(companyGroupSchema)
    .mutation(async ({ ctx, input }) => created(ctx, await createCompanyGroup(svc(ctx), input))),
  update: settingsDecisionProcedure
    .input(companyGroupContract.update)
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
