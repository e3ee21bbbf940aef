import { z } from 'zod';
import { uuid } from '../fields';

const text = (max: number) => z.string().max(max, { message: `must be at most ${max} characters` });
const permissions = z.array(text(100)).max(100, { message: 'must list at most 100 permissions' });

export const roleSchema = z
  .object({
    id: uuid(),
    key: z.string(),
    name: z.string(),
    /** Sorted. */
    permissions: z.array(z.string()),
    /** One of the roles every organization starts with (never deleted). */
    built_in: z.boolean(),
    revision: z.int(),
  })
  .meta({ id: 'Role' });

export const createRoleInput = z.strictObject({ key: text(50), name: text(100), permissions });
export const updateRoleInput = z.strictObject({ id: uuid(), name: text(100).optional(), permissions: permissions.optional() });
