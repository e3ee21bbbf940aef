import { z } from 'zod';
import { flag, listInput, recordIdShape, uuid } from '../fields';

/** settings.analyticAxes.*: analytic axes; at most one is the organization's project axis. */

export const analyticAxisSchema = z.object({
  id: uuid(),
  code: z.string(),
  name: z.string(),
  is_project_axis: z.boolean(),
  required_on_claims: z.boolean().describe('Every claim line must be allocated on this axis'),
  active: z.boolean(),
  revision: z.int(),
});

const fields = { code: z.string(), name: z.string(), is_project_axis: flag().optional(), required_on_claims: flag().optional() };

/** The schemas of settings.analyticAxes.* (routers/settings/setup-router.ts). */
export const analyticAxisContract = {
  record: analyticAxisSchema,
  list: listInput({}),
  create: z.strictObject(fields),
  update: z.strictObject({ ...recordIdShape, ...z.object(fields).partial().shape }),
};
