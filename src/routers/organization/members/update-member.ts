import { updateMember } from '../../../services/access/members';
import { svc } from '../../context';
import { expectedRevision, setEtag } from '../../http';
import { decisionProcedure } from '../../procedures';
import { memberSchema, updateMemberInput } from '../../../contract/organization/members';

/** organization.members.update (If-Match): a member's name or e-mail. */
export const updateMemberProcedure = decisionProcedure('organization.members.manage')
  .input(updateMemberInput)
  .output(memberSchema)
  .mutation(async ({ ctx, input }) => {
    const member = await updateMember(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) });
    setEtag(ctx, member.revision);
    return member;
  });
