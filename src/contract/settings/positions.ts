import { z } from 'zod';
import { flag, listInputShape, recordIdShape, text, timestamp, uuid } from '../fields';

export const positionSchema = z
  .object({
    id: uuid(),
    org_unit_id: uuid(),
    title: z.string(),
    is_unit_head: z.boolean(),
    reports_to_position_id: uuid().nullable().describe('The superior position; when null, the unit head is the superior'),
    retired_at: timestamp().nullable(),
    revision: z.int(),
    created_at: timestamp(),
  })
  .meta({ id: 'Position' });

/** The inputs of settings.positions.* (in an active unit; at most one head position per unit). */
export const positionContract = {
  record: positionSchema,
  list: z.strictObject({ org_unit_id: uuid().optional(), ...listInputShape }),
  create: z.strictObject({ org_unit_id: uuid(), title: text(200), is_unit_head: flag().optional(), reports_to_position_id: uuid().nullable().optional() }),
  update: z.strictObject({ ...recordIdShape, org_unit_id: uuid().optional(), title: text(200).optional(), is_unit_head: flag().optional(), reports_to_position_id: uuid().nullable().optional() }),
};
