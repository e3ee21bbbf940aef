import { z } from 'zod';
import { listMembersPage } from '../../../services/access/members';
import { svc } from '../../context';
import { settingsReadProcedure } from '../../procedures';
import { pageInputShape, pageOutput } from '../../../contract/fields';
import { memberSchema } from '../../../contract/organization/members';

/** organization.members.list: the organization's members by name, with their roles (never a password). */
export const listMembersProcedure = settingsReadProcedure
  .input(z.strictObject({ ...pageInputShape }).optional())
  .output(pageOutput(memberSchema))
  .query(({ ctx, input }) => listMembersPage(svc(ctx), input ?? {}));
