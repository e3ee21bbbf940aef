import { createRole } from '../../../services/access/roles';
import { svc } from '../../context';
import { setEtag } from '../../http';
import { decisionProcedure } from '../../procedures';
import { createRoleInput, roleSchema } from '../../../contract/organization/roles';

/** organization.roles.create: a custom role with chosen permissions. */
export const createRoleProcedure = decisionProcedure('organization.roles.manage')
  .meta({ successStatus: 201 })
  .input(createRoleInput)
  .output(roleSchema)
  .mutation(async ({ ctx, input }) => {
    const role = await createRole(svc(ctx), input);
    ctx.out.status = 201;
    setEtag(ctx, role.revision);
    return role;
  });
