import { z } from 'zod';
import { listInputShape, recordIdShape, text, timestamp, uuid } from '../fields';

export const claimGroupSchema = z
  .object({ id: uuid(), name: z.string(), retired_at: timestamp().nullable(), revision: z.int(), created_at: timestamp() })
  .meta({ id: 'ClaimGroup' });

/** The inputs of settings.claimGroups.*. */
export const claimGroupContract = {
  record: claimGroupSchema,
  list: z.strictObject(listInputShape),
  create: z.strictObject({ name: text(200) }),
  update: z.strictObject({ ...recordIdShape, name: text(200).optional() }),
};
