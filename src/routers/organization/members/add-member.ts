import { addMember } from '../../../services/access/members';
import { svc } from '../../context';
import { setEtag } from '../../http';
import { decisionProcedure } from '../../procedures';
import { addMemberInput, memberSchema } from '../../../contract/organization/members';

/** organization.members.add: a person joins the organization with an e-mail, roles and optionally a password. */
export const addMemberProcedure = decisionProcedure('organization.members.manage')
  .meta({ successStatus: 201 })
  .input(addMemberInput)
  .output(memberSchema)
  .mutation(async ({ ctx, input }) => {
    const member = await addMember(svc(ctx), input);
    ctx.out.status = 201;
    setEtag(ctx, member.revision);
    return member;
  });
