import { createOrgUnit } from '../../../services/people/org-units';
import { svc } from '../../context';
import { settingsDecisionProcedure } from '../../procedures';
import { created } from '../setup-router';
import { orgUnitContract, orgUnitSchema } from '../../../contract/settings/org-units';

/** settings.orgUnits.create: a code unique in the organization (409), a parent that is an active unit (422). */
export const createOrgUnitProcedure = settingsDecisionProcedure
  .input(orgUnitContract.create)
  .output(orgUnitSchema)
  .mutation(async ({ ctx, input }) => {
    return created(ctx, await createOrgUnit(svc(ctx), input));
  });
