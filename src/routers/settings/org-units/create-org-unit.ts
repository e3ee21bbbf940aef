import { z } from 'zod';
import { createOrgUnit } from '../../../services/people/org-units';
import { svc } from '../../context';
import { settingsDecisionProcedure } from '../../procedures';
import { uuid } from '../../schemas';
import { answerCreated, text } from '../fields';
import { orgUnitSchema } from './schemas';

/** settings.orgUnits.create: a code unique in the organization (409), a parent that is an active unit (422). */
export const createOrgUnitProcedure = settingsDecisionProcedure
  .input(z.strictObject({ code: text(50), name: text(200), parent_id: uuid().nullable().optional() }))
  .output(orgUnitSchema)
  .mutation(async ({ ctx, input }) => {
    const unit = await createOrgUnit(svc(ctx), input);
    answerCreated(ctx, unit.revision);
    return unit;
  });
