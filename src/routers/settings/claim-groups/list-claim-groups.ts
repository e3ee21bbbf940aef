import { z } from 'zod';
import { listClaimGroups } from '../../../services/expenses/claim-groups';
import { svc } from '../../context';
import { settingsReadProcedure } from '../../procedures';
import { pageOutput } from '../../schemas';
import { listInputShape } from '../fields';
import { claimGroupSchema } from './schemas';

/** settings.claimGroups.list: by name; retired ones with include_inactive. */
export const listClaimGroupsProcedure = settingsReadProcedure
  .input(z.strictObject(listInputShape))
  .output(pageOutput(claimGroupSchema))
  .query(({ ctx, input }) => listClaimGroups(svc(ctx), input));
