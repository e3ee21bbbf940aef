import { z } from 'zod';
import { createCompanyGroup, deactivateCompanyGroup, listCompanyGroupsPage, updateCompanyGroup } from '../../../services/settings/company-groups';
import { svc } from '../../context';
import { settingsReadProcedure, settingsWriteProcedure } from '../../procedures';
import { pageOutput, recordIdShape, uuid } from '../../schemas';
import { router } from '../../trpc';
import { answered, deactivateInput, listInput, withRevision } from '../shared';

/**
 * settings.companyGroups.*: groups of companies this organization belongs to. Only the caller's own
 * groups are listed or changed; the caller's organization is always a member.
 */

export const companyGroupSchema = z.object({
  id: uuid(),
  name: z.string(),
  member_organization_ids: z.array(uuid()).describe("Every member organization's id, the caller's own included"),
  active: z.boolean(),
  revision: z.int(),
});

const members = () => z.array(uuid()).describe("The group's other organizations; the caller's own organization is added when left out");

export const companyGroupsRouter = router({
  list: settingsReadProcedure
    .input(listInput({}))
    .output(pageOutput(companyGroupSchema))
    .query(({ ctx, input }) => listCompanyGroupsPage(svc(ctx), input)),
  create: settingsWriteProcedure
    .input(z.strictObject({ name: z.string(), member_organization_ids: members() }))
    .output(companyGroupSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await createCompanyGroup(svc(ctx), input))),
  update: settingsWriteProcedure
    .input(z.strictObject({ ...recordIdShape, name: z.string().optional(), member_organization_ids: members().optional() }))
    .output(companyGroupSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await updateCompanyGroup(svc(ctx), withRevision(ctx, input)))),
  deactivate: settingsWriteProcedure
    .input(deactivateInput)
    .output(companyGroupSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await deactivateCompanyGroup(svc(ctx), withRevision(ctx, input)))),
});
