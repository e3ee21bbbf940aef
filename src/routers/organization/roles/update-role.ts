import { updateRole } from '../../../services/access/roles';
import { svc } from '../../context';
import { expectedRevision, setEtag } from '../../http';
import { decisionProcedure } from '../../procedures';
import { roleSchema, updateRoleInput } from '../../../contract/organization/roles';

/** organization.roles.update (If-Match): a role's name or permissions. */
export const updateRoleProcedure = decisionProcedure('organization.roles.manage')
  .input(updateRoleInput)
  .output(roleSchema)
  .mutation(async ({ ctx, input }) => {
    const role = await updateRole(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) });
    setEtag(ctx, role.revision);
    return role;
  });
