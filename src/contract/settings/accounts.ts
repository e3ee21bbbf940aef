import { z } from 'zod';
import { queryListInput } from './query-list';
import { ACCOUNT_TYPES } from '../../domain/receivables';
import { recordIdShape, uuid } from '../fields';

/** settings.accounts.*: the chart of accounts. */

export const accountSchema = z.object({
  id: uuid(),
  code: z.string(),
  name: z.string(),
  type: z.enum(ACCOUNT_TYPES),
  active: z.boolean(),
  revision: z.int(),
});

const fields = { code: z.string(), name: z.string(), type: z.enum(ACCOUNT_TYPES) };

/** The schemas of settings.accounts.* (routers/settings/setup-router.ts). */
export const accountContract = {
  record: accountSchema,
  // Also GET /v1/settings/... (routers/settings): the query's scalars as text.
  list: queryListInput(),
  create: z.strictObject(fields),
  update: z.strictObject({ ...recordIdShape, ...z.object(fields).partial().shape }),
};
