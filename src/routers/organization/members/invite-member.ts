import { inviteMember } from '../../../services/access/member-links';
import { svc } from '../../context';
import { setEtag } from '../../http';
import { decisionProcedure } from '../../procedures';
import { invitedMemberSchema, inviteMemberInput } from '../../../contract/organization/members';

/**
 * organization.members.invite: a person joins without a password and is sent a one-time link (7
 * days) to set one; the same refusals as organization.members.add.
 */
export const inviteMemberProcedure = decisionProcedure('organization.members.manage')
  .meta({ successStatus: 201 })
  .input(inviteMemberInput)
  .output(invitedMemberSchema)
  .mutation(async ({ ctx, input }) => {
    const member = await inviteMember(svc(ctx), input);
    ctx.out.status = 201;
    setEtag(ctx, member.revision);
    return member;
  });
