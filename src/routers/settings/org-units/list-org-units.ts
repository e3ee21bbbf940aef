import { listOrgUnits } from '../../../services/people/org-units';
import { svc } from '../../context';
import { settingsReadProcedure } from '../../procedures';
import { pageOutput } from '../../../contract/fields';
import { orgUnitContract, orgUnitSchema } from '../../../contract/settings/org-units';

/** settings.orgUnits.list: units by code; `parent_id` for one unit's children; inactive ones with include_inactive. */
export const listOrgUnitsProcedure = settingsReadProcedure
  .input(orgUnitContract.list)
  .output(pageOutput(orgUnitSchema))
  .query(({ ctx, input }) => listOrgUnits(svc(ctx), input));
