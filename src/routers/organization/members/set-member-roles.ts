import { setMemberRoles } from '../../../services/access/members';
import { svc } from '../../context';
import { expectedRevision, setEtag } from '../../http';
import { decisionProcedure } from '../../procedures';
import { memberSchema, setMemberRolesInput } from '../../../contract/organization/members';

/** organization.members.setRoles (If-Match): replaces a member's roles. */
export const setMemberRolesProcedure = decisionProcedure('organization.members.manage')
  .input(setMemberRolesInput)
  .output(memberSchema)
  .mutation(async ({ ctx, input }) => {
    const member = await setMemberRoles(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) });
    setEtag(ctx, member.revision);
    return member;
  });
