import { z } from 'zod';
import { uuid } from '../../schemas';
import { timestamp } from '../fields';

export const claimGroupSchema = z
  .object({ id: uuid(), name: z.string(), retired_at: timestamp().nullable(), revision: z.int(), created_at: timestamp() })
  .meta({ id: 'ClaimGroup' });
