import { z } from 'zod';
import { deactivateOrgUnit } from '../../../services/people/org-units';
import { svc } from '../../context';
import { expectedRevision } from '../../http';
import { settingsDecisionProcedure } from '../../procedures';
import { recordIdShape } from '../../schemas';
import { answerChanged } from '../fields';
import { orgUnitSchema } from './schemas';

/** settings.orgUnits.deactivate (If-Match): only once no active sub-unit or position is left in it (409). */
export const deactivateOrgUnitProcedure = settingsDecisionProcedure
  .input(z.strictObject(recordIdShape))
  .output(orgUnitSchema)
  .mutation(async ({ ctx, input }) => {
    const unit = await deactivateOrgUnit(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) });
    answerChanged(ctx, unit.revision);
    return unit;
  });
