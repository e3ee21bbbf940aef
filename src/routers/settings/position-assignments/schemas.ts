import { z } from 'zod';
import { uuid } from '../../schemas';
import { day, timestamp } from '../fields';

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
