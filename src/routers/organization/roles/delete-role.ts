import { z } from 'zod';
import { deleteRole } from '../../../services/access/roles';
import { svc } from '../../context';
import { expectedRevision } from '../../http';
import { decisionProcedure } from '../../procedures';
import { recordIdShape, uuid } from '../../../contract/fields';

/** organization.roles.delete (If-Match): a custom role nobody holds. */
export const deleteRoleProcedure = decisionProcedure('organization.roles.manage')
  .input(z.strictObject({ ...recordIdShape }))
  .output(z.object({ id: uuid(), deleted: z.literal(true) }))
  .mutation(({ ctx, input }) => deleteRole(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) }));
