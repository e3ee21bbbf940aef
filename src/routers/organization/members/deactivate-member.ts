import { z } from 'zod';
import { deactivateMember } from '../../../services/access/members';
import { svc } from '../../context';
import { expectedRevision, setEtag } from '../../http';
import { decisionProcedure } from '../../procedures';
import { recordIdShape } from '../../../contract/fields';
import { memberSchema } from '../../../contract/organization/members';

/** organization.members.deactivate (If-Match): ends the member's sessions and API keys at once. */
export const deactivateMemberProcedure = decisionProcedure('organization.members.manage')
  .input(z.strictObject({ ...recordIdShape }))
  .output(memberSchema)
  .mutation(async ({ ctx, input }) => {
    const member = await deactivateMember(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) });
    setEtag(ctx, member.revision);
    return member;
  });
