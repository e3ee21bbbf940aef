import { z } from 'zod';
import { TRADE_LINE_KINDS } from '../../domain/receivables';
import { decimalString } from '../../lib/decimal-string';
import { listInput, rateOut, recordIdShape, uuid } from '../fields';

/** settings.tradeLines.*: a customer's delivery and sales return lines (base units). */

export const tradeLineSchema = z.object({
  id: uuid(),
  customer_id: uuid(),
  kind: z.enum(TRADE_LINE_KINDS),
  reference: z.string(),
  description: z.string(),
  unit_code: z.string().nullable(),
  quantity: rateOut(),
  quantity_invoiced: rateOut().describe('Base units documents have taken; kept by the documents'),
  line_no: z.int(),
  active: z.boolean(),
  created_at: z.string(),
  revision: z.int(),
});

// A pipe keeps any adapter's coercion away from a body number (STACK-NOTES: the coercion trap).
const lineNo = () => z.int().pipe(z.int().min(1, { message: 'must be at least 1' }).max(100000, { message: 'must be at most 100000' }));

const editable = {
  reference: z.string(),
  description: z.string(),
  quantity: decimalString().describe('Base units, greater than 0, up to 10 decimal places'),
  unit_code: z.string().nullable().optional().describe('UN/ECE Recommendation 20 unit code'),
  line_no: lineNo().optional(),
};

/** The schemas of settings.tradeLines.* (routers/settings/setup-router.ts). */
export const tradeLineContract = {
  record: tradeLineSchema,
  list: listInput({ customer_id: uuid().optional(), kind: z.enum(TRADE_LINE_KINDS).optional() }),
  create: z.strictObject({ customer_id: uuid(), kind: z.enum(TRADE_LINE_KINDS), ...editable }),
  update: z.strictObject({ ...recordIdShape, ...z.object(editable).partial().shape }),
};
