import { z } from 'zod';
import { listInput, recordIdShape, uuid } from '../fields';

/** settings.analyticAccounts.*: departments, projects and the like, each on one axis. */

export const analyticAccountSchema = z.object({
  id: uuid(),
  axis_id: uuid(),
  code: z.string(),
  name: z.string(),
  active: z.boolean(),
  revision: z.int(),
});

/** The schemas of settings.analyticAccounts.* (routers/settings/setup-router.ts). */
export const analyticAccountContract = {
  record: analyticAccountSchema,
  list: listInput({ axis_id: uuid().optional() }),
  create: z.strictObject({ axis_id: uuid(), code: z.string(), name: z.string() }),
  update: z.strictObject({ ...recordIdShape, code: z.string().optional(), name: z.string().optional() }),
};
