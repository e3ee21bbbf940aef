import { z } from 'zod';
import { queryListInput } from './query-list';
import { TAX_PACK_KINDS } from '../../domain/receivables';
import { decimalString } from '../../lib/decimal-string';
import { rateOut, recordIdShape, uuid } from '../fields';

/** settings.taxCodes.*: tax codes (a used code's rate and tax type are fixed). */

export const taxCodeSchema = z.object({
  id: uuid(),
  code: z.string(),
  name: z.string(),
  rate: rateOut().describe('Percent, plain decimal ("8")'),
  tax_type: z.string().describe('MyInvois tax type: 01 sales, 02 service, 03 tourism, 04 high-value goods, 05 low-value goods, 06 not applicable, E exempt'),
  tax_pack_kind: z.string(),
  active: z.boolean(),
  revision: z.int(),
});

const fields = {
  code: z.string(),
  name: z.string(),
  rate: decimalString().describe('Percent from 0 to 100, up to 10 decimal places'),
  tax_type: z.string(),
};

/** The schemas of settings.taxCodes.* (routers/settings/setup-router.ts). */
export const taxCodeContract = {
  record: taxCodeSchema,
  // Also GET /v1/settings/... (routers/settings): the query's scalars as text.
  list: queryListInput(),
  create: z.strictObject({ ...fields, tax_pack_kind: z.enum(TAX_PACK_KINDS).optional() }),
  update: z.strictObject({ ...recordIdShape, ...z.object(fields).partial().shape }),
};
