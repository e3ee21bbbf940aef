import { z } from 'zod';
import { deactivateOrgUnit } from '../../../services/people/org-units';
import { svc } from '../../context';
import { expectedRevision } from '../../http';
import { settingsDecisionProcedure } from '../../procedures';
import { recordIdShape } from '../../../contract/fields';
import { answered } from '../setup-router';
import { orgUnitSchema } from '../../../contract/settings/org-units';

/** settings.orgUnits.deactivate (If-Match): only once no active sub-unit or position is left in it (409). */
export const deactivateOrgUnitProcedure = settingsDecisionProcedure
  .input(z.strictObject(recordIdShape))
  .output(orgUnitSchema)
  .mutation(async ({ ctx, input }) => {
    return answered(ctx, await deactivateOrgUnit(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) }));
  });
