import { z } from 'zod';
import { uuid } from './fields';

export const memberIdentitySchema = z.object({ id: uuid(), name: z.string(), email: z.string().nullable() });
export const organizationIdentitySchema = z.object({ id: uuid(), name: z.string() });

export const loginInput = z.strictObject({
  email: z.string().max(254, { message: 'must be at most 254 characters' }),
  // Longer than any password can be (256): refused before any hashing work.
  password: z.string().max(1024, { message: 'must be at most 1024 characters' }),
  organization_id: uuid().optional(),
  /** true (the console): the session goes into the HttpOnly `fs_session` cookie and the answer carries no session_token. */
  cookie: z.boolean().optional(),
});

export const loginOutput = z.object({
  /** The bearer token; absent when the login asked for the cookie. */
  session_token: z.string().optional(),
  expires_at: z.string(),
  member: z.object({ id: uuid(), name: z.string(), email: z.string() }),
  organization: organizationIdentitySchema,
});

export const meOutput = z.object({
  member: memberIdentitySchema,
  organization: organizationIdentitySchema.extend({
    /** The IANA time zone the organization's dates are read in (its "today", month filters): the console shows instants in it. */
    time_zone: z.string(),
    /** The languages the organization's records are written in (ISO 639-1, e.g. en, ms). */
    record_languages: z.array(z.string()),
  }),
  /** The caller's effective permissions, sorted (an API key's: its own ∩ its owner's). */
  permissions: z.array(z.string()),
  via: z.enum(['session', 'api_key']),
});

export const changePasswordInput = z.strictObject({
  current_password: z.string().max(1024, { message: 'must be at most 1024 characters' }),
  // The policy (12 to 256 characters, not blank) is the service's 422, as organization.members.add has it.
  new_password: z.string().max(1024, { message: 'must be at most 1024 characters' }),
});

export const changePasswordOutput = z.object({
  changed: z.literal(true),
  /** How many other sessions of the member ended (the one that changed the password is kept). */
  sessions_ended: z.int(),
});

/** A one-time link's token as it appears in the link (invitation or password reset). */
const linkToken = z.string().min(1, { message: 'must not be empty' }).max(200, { message: 'must be at most 200 characters' });

export const requestPasswordResetInput = z.strictObject({ email: z.string().max(254, { message: 'must be at most 254 characters' }) });

export const requestPasswordResetOutput = z.object({
  /** Always true: the answer is the same whether or not anybody has the address. */
  requested: z.literal(true),
});

export const readLinkInput = z.strictObject({ token: linkToken });

export const readLinkOutput = z.object({
  purpose: z.enum(['invitation', 'password_reset']),
  member: z.object({ name: z.string(), email: z.string().nullable() }),
  organization: z.object({ name: z.string() }),
  expires_at: z.string(),
});

/** Accepting an invitation or resetting a password: the link's token and the new password; signs in. */
export const useLinkInput = z.strictObject({
  token: linkToken,
  // The policy (12 to 256 characters, not blank) is the service's 422 at /password.
  password: z.string().max(1024, { message: 'must be at most 1024 characters' }),
  /** true (the console): the session goes into the HttpOnly `fs_session` cookie, as auth.login's. */
  cookie: z.boolean().optional(),
});

export const useLinkOutput = loginOutput.extend({
  /** Sessions of the member that ended (a password reset ends every one). */
  sessions_ended: z.int(),
});
