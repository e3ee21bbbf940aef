import { z } from 'zod';
import { uuid } from '../../schemas';
import { timestamp } from '../fields';

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
