import { z } from 'zod';
import { uuid } from '../fields';
import { MAIL_LANGUAGES, NOTIFICATION_KINDS } from '../../domain/mail';

const text = (max: number) => z.string().max(max, { message: `must be at most ${max} characters` });

/** A role key as sent (its format is checked by the service: 422 at /roles/<i> when unknown). */
const roleKeys = z.array(text(50)).max(50, { message: 'must list at most 50 roles' });

export const memberSchema = z
  .object({
    id: uuid(),
    name: z.string(),
    email: z.string().nullable(),
    active: z.boolean(),
    /** Keys of the member's roles, sorted. */
    roles: z.array(z.string()),
    revision: z.int(),
  })
  .meta({ id: 'Member' });

export const addMemberInput = z.strictObject({
  name: text(200),
  email: text(254),
  /** 12 to 256 characters; without one the member cannot log in until a password is set. */
  password: text(256).optional(),
  roles: roleKeys,
});

export const updateMemberInput = z.strictObject({
  id: uuid(),
  name: text(200).optional(),
  email: text(254).optional(),
});

export const setMemberRolesInput = z.strictObject({ id: uuid(), roles: roleKeys });

export const inviteMemberInput = z.strictObject({
  name: text(200),
  email: text(254),
  roles: roleKeys,
  /** The language of the invitation and of the member's e-mail later (en by default). */
  language: z.enum(MAIL_LANGUAGES).optional(),
});

export const invitedMemberSchema = memberSchema.extend({
  /** When the invitation's link stops working (7 days). */
  invitation_expires_at: z.string(),
});

/** me.notifications: the member's e-mail language and each notification kind on or off. */
export const mailSettingsSchema = z.object({
  language: z.enum(MAIL_LANGUAGES),
  kinds: z.array(z.object({ kind: z.enum(NOTIFICATION_KINDS), enabled: z.boolean() })),
});

export const updateMailSettingsInput = z.strictObject({
  language: z.enum(MAIL_LANGUAGES).optional(),
  /** The kinds to switch on or off; the others stay as they are. */
  kinds: z.array(z.object({ kind: z.enum(NOTIFICATION_KINDS), enabled: z.boolean() })).max(NOTIFICATION_KINDS.length).optional(),
});
