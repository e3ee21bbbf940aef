import { router } from '../../trpc';
import { addMemberProcedure } from './add-member';
import { deactivateMemberProcedure } from './deactivate-member';
import { inviteMemberProcedure } from './invite-member';
import { listMembersProcedure } from './list-members';
import { setMemberRolesProcedure } from './set-member-roles';
import { updateMemberProcedure } from './update-member';

/** organization.members.*: the people of the organization and their roles (changes are people's decisions). */
export const membersRouter = router({
  list: listMembersProcedure,
  add: addMemberProcedure,
  invite: inviteMemberProcedure,
  update: updateMemberProcedure,
  setRoles: setMemberRolesProcedure,
  deactivate: deactivateMemberProcedure,
});
