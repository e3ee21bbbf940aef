import { z } from 'zod';
import { uuid } from '../../schemas';
import { timestamp } from '../fields';

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
