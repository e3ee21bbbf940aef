import { z } from 'zod';
import { day, flag, listInputShape, recordIdShape, timestamp, uuid } from '../fields';

export const positionAssignmentSchema = z
  .object({
    id: uuid(),
    member_id: uuid(),
    position_id: uuid(),
    is_primary: z.boolean(),
    valid_from: day(),
    valid_to: day().nullable().describe('Last day held (inclusive); null while open'),
    withdrawn_at: timestamp().nullable().describe('Set when withdrawn before it began: it then counts for no day'),
    revision: z.int(),
    created_at: timestamp(),
  })
  .meta({ id: 'PositionAssignment' });

/** The inputs of settings.positionAssignments.* (a primary one ends the member's open primary one the day before). */
export const positionAssignmentContract = {
  record: positionAssignmentSchema,
  list: z.strictObject({ member_id: uuid().optional(), position_id: uuid().optional(), ...listInputShape }),
  create: z.strictObject({ member_id: uuid(), position_id: uuid(), valid_from: day(), valid_to: day().nullable().optional(), is_primary: flag().optional() }),
  update: z.strictObject({ ...recordIdShape, valid_from: day().optional(), valid_to: day().nullable().optional() }),
};
