import { z } from 'zod';
import { listRolesPage } from '../../../services/access/roles';
import { svc } from '../../context';
import { settingsReadProcedure } from '../../procedures';
import { pageInputShape, pageOutput } from '../../../contract/fields';
import { roleSchema } from '../../../contract/organization/roles';

/** organization.roles.list: the built-in and custom roles by key. */
export const listRolesProcedure = settingsReadProcedure
  .input(z.strictObject({ ...pageInputShape }).optional())
  .output(pageOutput(roleSchema))
  .query(({ ctx, input }) => listRolesPage(svc(ctx), input ?? {}));
