import { updateOrgUnit } from '../../../services/people/org-units';
import { svc } from '../../context';
import { expectedRevision } from '../../http';
import { settingsDecisionProcedure } from '../../procedures';
import { answered } from '../setup-router';
import { orgUnitContract, orgUnitSchema } from '../../../contract/settings/org-units';

/** settings.orgUnits.update (If-Match): code, name, parent; a parent below the unit itself is 422 at /parent_id. */
export const updateOrgUnitProcedure = settingsDecisionProcedure
  .input(orgUnitContract.update)
  .output(orgUnitSchema)
  .mutation(async ({ ctx, input }) => {
    return answered(ctx, await updateOrgUnit(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) }));
  });
