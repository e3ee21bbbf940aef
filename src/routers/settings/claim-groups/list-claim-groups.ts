import { listClaimGroups } from '../../../services/expenses/claim-groups';
import { svc } from '../../context';
import { settingsReadProcedure } from '../../procedures';
import { pageOutput } from '../../../contract/fields';
import { claimGroupContract, claimGroupSchema } from '../../../contract/settings/claim-groups';

/** settings.claimGroups.list: by name; retired ones with include_inactive. */
export const listClaimGroupsProcedure = settingsReadProcedure
  .input(claimGroupContract.list)
  .output(pageOutput(claimGroupSchema))
  .query(({ ctx, input }) => listClaimGroups(svc(ctx), input));
