import { sql } from 'drizzle-orm';
import { check, foreignKey, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { members, organizations } from './organizations';

/**
 * One-time links sent by e-mail: an invitation (a new member sets a password, valid 7 days) or a
 * password reset (valid 1 hour). Only the SHA-256 of the token is stored; the token itself is derived
 * from the row's id under a server secret when the message is written (src/services/mail/links.ts),
 * so neither the table nor the job that sends the message holds it. `used_at` set: spent.
 */
export const MEMBER_TOKEN_PURPOSES = ['invitation', 'password_reset'] as const;
export type MemberTokenPurpose = (typeof MEMBER_TOKEN_PURPOSES)[number];

export const memberTokens = pgTable(
  'member_tokens',
  {
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    id: uuid('id').notNull().defaultRandom(),
    memberId: uuid('member_id').notNull(),
    purpose: text('purpose').$type<MemberTokenPurpose>().notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    uniqueIndex('member_tokens_token_hash_key').on(t.tokenHash),
    index('member_tokens_member_idx').on(t.organizationId, t.memberId),
    foreignKey({ columns: [t.organizationId, t.memberId], foreignColumns: [members.organizationId, members.id] }),
    check('member_tokens_purpose_known', sql`${t.purpose} in ('invitation', 'password_reset')`),
  ],
);
