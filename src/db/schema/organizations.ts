import { sql } from 'drizzle-orm';
import {
  integer,
  boolean,
  check,
  foreignKey,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * The seller identity printed on e-invoices (MyInvois supplier fields), kept up to date by
 * organization.profile.update. Every field is optional so identities stored before a field existed
 * still read; `name` mirrors the organization's name.
 */
export interface SellerIdentity {
  name?: string | null;
  /** How customers pay, printed on invoices and statements (organization.profile); optional. */
  bank_name?: string | null;
  bank_account_no?: string | null;
  duitnow_id?: string | null;
  jompay_biller_code?: string | null;
  tin?: string | null;
  /** Business registration number (BRN). */
  registration_no?: string | null;
  sst_no?: string | null;
  tourism_tax_no?: string | null;
  /** MSIC 2008 sub-category code (data/msic-codes.json). */
  msic?: string | null;
  /** Description of the business activity, as MyInvois prints it beside the MSIC code. */
  business_activity?: string | null;
  address?: {
    line1?: string | null;
    line2?: string | null;
    line3?: string | null;
    city?: string | null;
    postcode?: string | null;
    /** MyInvois state code 01-17 (data/state-codes.json). */
    state?: string | null;
    /** ISO 3166-1 alpha-2. */
    country_code?: string | null;
  } | null;
  phone?: string | null;
  email?: string | null;
}

export const organizations = pgTable('organizations', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  baseCurrency: text('base_currency').notNull().default('MYR'),
  timeZone: text('time_zone').notNull().default('Asia/Kuala_Lumpur'),
  recordLanguages: text('record_languages').array().notNull().default(sql`ARRAY['en','ms']::text[]`),
  seller: jsonb('seller').$type<SellerIdentity>().notNull().default({}),
  revision: integer('revision').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** When the start-up journal backfill completed for the organization (null: not yet; it runs once). */
  journalBackfilledAt: timestamp('journal_backfilled_at', { withTimezone: true }),
});

/**
 * A group of companies (organizations) consolidated together. Not a tenant table: it links
 * organizations, and only the counterparty map of an organization reads it. The organization that
 * created it manages it (name, invitations, members, deactivation); every other organization joins
 * only by accepting an invitation, and may leave.
 */
export const companyGroups = pgTable('company_groups', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  /** The organization that created the group and alone manages it. Null only on groups no backfill could attribute. */
  createdByOrganizationId: uuid('created_by_organization_id').references(() => organizations.id),
  /** An inactive group no longer makes its members group companies of each other. */
  active: boolean('active').notNull().default(true),
  revision: integer('revision').notNull().default(1),
});

/**
 * An organization's place in a group: `invited` until a person of that organization accepts
 * (an invitation grants nothing), then `accepted`. Declining or leaving deletes the row.
 */
export const companyGroupMembers = pgTable(
  'company_group_members',
  {
    groupId: uuid('group_id').notNull().references(() => companyGroups.id),
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    status: text('status').$type<'invited' | 'accepted'>().notNull().default('invited'),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.organizationId] }),
    check('company_group_members_status_known', sql`${t.status} in ('invited', 'accepted')`),
  ],
);

export const members = pgTable(
  'members',
  {
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    id: uuid('id').notNull().defaultRandom(),
    name: text('name').notNull(),
    email: text('email'),
    /** argon2id (PHC string) of the member's password; null until one is set (no login then). */
    passwordHash: text('password_hash'),
    active: boolean('active').notNull().default(true),
    /** The language of the e-mail the member is sent (en, ms); the console's language choice sets it. */
    language: text('language').$type<'en' | 'ms'>().notNull().default('en'),
    /** The notification kinds the member switched off (src/services/mail/kinds.ts); invitations and resets always go. */
    mailOff: text('mail_off').array().notNull().default(sql`ARRAY[]::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revision: integer('revision').notNull().default(1),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    check('members_language_known', sql`${t.language} in ('en', 'ms')`),
    uniqueIndex('members_id_key').on(t.id),
    // One member per e-mail in an organization; a person may be a member of several organizations.
    uniqueIndex('members_org_email').on(t.organizationId, sql`lower(${t.email})`),
    index('members_email_idx').on(sql`lower(${t.email})`),
  ],
);

/** A named set of permissions of one organization. */
export const roles = pgTable(
  'roles',
  {
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    id: uuid('id').notNull().defaultRandom(),
    key: text('key').notNull(),
    name: text('name').notNull(),
    permissions: text('permissions').array().notNull(),
    revision: integer('revision').notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] }), uniqueIndex('roles_org_key').on(t.organizationId, t.key)],
);

export const memberRoles = pgTable(
  'member_roles',
  {
    organizationId: uuid('organization_id').notNull(),
    memberId: uuid('member_id').notNull(),
    roleId: uuid('role_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.memberId, t.roleId] }),
    foreignKey({ columns: [t.organizationId, t.memberId], foreignColumns: [members.organizationId, members.id] }),
    foreignKey({ columns: [t.organizationId, t.roleId], foreignColumns: [roles.organizationId, roles.id] }),
  ],
);

/** API keys: the token is `fk_<id>_<secret>`; only SHA-256 of the secret is kept. */
export const apiKeys = pgTable(
  'api_keys',
  {
    organizationId: uuid('organization_id').notNull(),
    id: uuid('id').notNull().defaultRandom(),
    ownerMemberId: uuid('owner_member_id').notNull(),
    name: text('name').notNull(),
    secretHash: text('secret_hash').notNull(),
    permissions: text('permissions').array().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    uniqueIndex('api_keys_id_key').on(t.id),
    foreignKey({ columns: [t.organizationId, t.ownerMemberId], foreignColumns: [members.organizationId, members.id] }),
  ],
);

/** Sessions of people: bearer `fs_<random>`; only SHA-256 of the token is kept. */
export const sessions = pgTable(
  'sessions',
  {
    organizationId: uuid('organization_id').notNull(),
    id: uuid('id').notNull().defaultRandom(),
    memberId: uuid('member_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** Sliding lifetime: each use (at most once a minute) moves expires_at to this many seconds after it. */
    idleSeconds: integer('idle_seconds').notNull().default(43_200),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    uniqueIndex('sessions_token_hash_key').on(t.tokenHash),
    index('sessions_member_idx').on(t.organizationId, t.memberId),
    foreignKey({ columns: [t.organizationId, t.memberId], foreignColumns: [members.organizationId, members.id] }),
  ],
);
