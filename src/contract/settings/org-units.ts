import { z } from 'zod';
import { listInputShape, recordIdShape, text, timestamp, uuid } from '../fields';

export const orgUnitSchema = z
  .object({
    id: uuid(),
    code: z.string(),
    name: z.string(),
    parent_id: uuid().nullable(),
    head_position_id: uuid().nullable().describe('The active position of the unit flagged is_unit_head, if any'),
    active: z.boolean(),
    revision: z.int(),
    created_at: timestamp(),
  })
  .meta({ id: 'OrgUnit' });

/** The inputs of settings.orgUnits.* (a code unique in the organization; a parent that is an active unit). */
export const orgUnitContract = {
  record: orgUnitSchema,
  list: z.strictObject({ parent_id: uuid().optional(), ...listInputShape }),
  create: z.strictObject({ code: text(50), name: text(200), parent_id: uuid().nullable().optional() }),
  update: z.strictObject({ ...recordIdShape, code: text(50).optional(), name: text(200).optional(), parent_id: uuid().nullable().optional() }),
};
