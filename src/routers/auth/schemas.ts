import { z } from 'zod';
import { uuid } from '../schemas';

export const memberIdentitySchema = z.object({ id: uuid(), name: z.string(), email: z.string().nullable() });
export const organizationIdentitySchema = z.object({ id: uuid(), name: z.string() });

export const loginInput = z.strictObject({
  email: z.string().max(254, { message: 'must be at most 254 characters' }),
  // Longer than any password can be (256): refused before any hashing work.
  password: z.string().max(1024, { message: 'must be at most 1024 characters' }),
  organization_id: uuid().optional(),
});

export const loginOutput = z.object({
  session_token: z.string(),
  expires_at: z.string(),
  member: z.object({ id: uuid(), name: z.string(), email: z.string() }),
  organization: organizationIdentitySchema,
});

export const meOutput = z.object({
  member: memberIdentitySchema,
  organization: organizationIdentitySchema,
  /** The caller's effective permissions, sorted (an API key's: its own ∩ its owner's). */
  permissions: z.array(z.string()),
  via: z.enum(['session', 'api_key']),
});
