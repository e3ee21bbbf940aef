import { router } from '../../trpc';
import { createRoleProcedure } from './create-role';
import { deleteRoleProcedure } from './delete-role';
import { listRolesProcedure } from './list-roles';
import { updateRoleProcedure } from './update-role';

/** organization.roles.*: named sets of permissions (changes are people's decisions). */
export const rolesRouter = router({
  list: listRolesProcedure,
  create: createRoleProcedure,
  update: updateRoleProcedure,
  delete: deleteRoleProcedure,
});
