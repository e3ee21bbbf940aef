import { z } from 'zod';
import { pageInputShape, text, timestamp, uuid } from '../fields';

export const apiKeySchema = z
  .object({
    id: uuid(),
    name: z.string(),
    owner_member_id: uuid().describe('The member the key acts as'),
    owner_member_name: z.string(),
    /** Sorted; a key never acts with more than its member holds at the time of the request. */
    permissions: z.array(z.string()),
    created_at: z.string(),
    expires_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
    last_used_at: z.string().nullable().describe('the last request the key authenticated (kept to the minute)'),
    state: z.enum(['active', 'expired', 'revoked']),
  })
  .meta({ id: 'ApiKey' });

export const createdApiKeySchema = apiKeySchema.extend({ api_key: z.string().describe('the bearer token (fk_<id>_<secret>): answered this once, never again') }).meta({ id: 'CreatedApiKey' });

export const createApiKeyInput = z.strictObject({
  member_id: uuid().describe('an active member of the organization'),
  name: text(100).optional(),
  permissions: z
    .array(z.string().max(100, { message: 'must be at most 100 characters' }))
    .max(100, { message: 'must list at most 100 permissions' })
    .optional()
    .describe("a subset of the member's permissions (and of yours); default: all the member holds"),
  expires_at: timestamp().optional().describe('ISO 8601 with offset; in the future. Default: no expiry'),
});

export const listApiKeysInput = z.strictObject({ member_id: uuid().optional().describe("only this member's keys"), ...pageInputShape });
