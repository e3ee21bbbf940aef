import { z } from 'zod';
import { updateOrgUnit } from '../../../services/people/org-units';
import { svc } from '../../context';
import { expectedRevision } from '../../http';
import { settingsDecisionProcedure } from '../../procedures';
import { recordIdShape, uuid } from '../../schemas';
import { answerChanged, text } from '../fields';
import { orgUnitSchema } from './schemas';

/** settings.orgUnits.update (If-Match): code, name, parent; a parent below the unit itself is 422 at /parent_id. */
export const updateOrgUnitProcedure = settingsDecisionProcedure
  .input(z.strictObject({ ...recordIdShape, code: text(50).optional(), name: text(200).optional(), parent_id: uuid().nullable().optional() }))
  .output(orgUnitSchema)
  .mutation(async ({ ctx, input }) => {
    const unit = await updateOrgUnit(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) });
    answerChanged(ctx, unit.revision);
    return unit;
  });
