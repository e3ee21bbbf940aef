import { z } from 'zod';
import { listOrgUnits } from '../../../services/people/org-units';
import { svc } from '../../context';
import { settingsReadProcedure } from '../../procedures';
import { pageOutput, uuid } from '../../schemas';
import { listInputShape } from '../fields';
import { orgUnitSchema } from './schemas';

/** settings.orgUnits.list: units by code; `parent_id` for one unit's children; inactive ones with include_inactive. */
export const listOrgUnitsProcedure = settingsReadProcedure
  .input(z.strictObject({ parent_id: uuid().optional(), ...listInputShape }))
  .output(pageOutput(orgUnitSchema))
  .query(({ ctx, input }) => listOrgUnits(svc(ctx), input));
