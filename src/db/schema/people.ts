import { sql } from 'drizzle-orm';
import {
  integer,
  boolean,
  date,
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
import { members, organizations } from './organizations';

/**
 * A unit of the organization chart (department, branch); units nest through parent_id (never in a
 * cycle: the set-up service refuses one). Its head is the holder of its position flagged
 * is_unit_head. A deactivated unit keeps its history and takes no new positions or sub-units.
 */
export const orgUnits = pgTable(
  'org_units',
  {
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    id: uuid('id').notNull().defaultRandom(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    parentId: uuid('parent_id'),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revision: integer('revision').notNull().default(1),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    uniqueIndex('org_units_org_code').on(t.organizationId, t.code),
    foreignKey({ columns: [t.organizationId, t.parentId], foreignColumns: [t.organizationId, t.id] }),
  ],
);

/**
 * A position in a unit (a seat people are assigned to); retired positions stay for history. The walk
 * up to a superior goes to reports_to_position_id, else to the unit's head (docs/design.md §17).
 */
export const positions = pgTable(
  'positions',
  {
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    id: uuid('id').notNull().defaultRandom(),
    orgUnitId: uuid('org_unit_id').notNull(),
    title: text('title').notNull(),
    isUnitHead: boolean('is_unit_head').notNull().default(false),
    reportsToPositionId: uuid('reports_to_position_id'),
    retiredAt: timestamp('retired_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revision: integer('revision').notNull().default(1),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    index('positions_unit_idx').on(t.organizationId, t.orgUnitId),
    foreignKey({ columns: [t.organizationId, t.orgUnitId], foreignColumns: [orgUnits.organizationId, orgUnits.id] }),
    foreignKey({ columns: [t.organizationId, t.reportsToPositionId], foreignColumns: [t.organizationId, t.id] }),
  ],
);

/**
 * A member holding a position for a dated period (valid_to inclusive, null = open). At most one
 * primary assignment per member on any day: the service ends the previous one when a new one starts.
 * A withdrawn assignment (withdrawn before it began) counts for no day.
 */
export const positionAssignments = pgTable(
  'position_assignments',
  {
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    id: uuid('id').notNull().defaultRandom(),
    memberId: uuid('member_id').notNull(),
    positionId: uuid('position_id').notNull(),
    isPrimary: boolean('is_primary').notNull().default(true),
    validFrom: date('valid_from', { mode: 'string' }).notNull(),
    validTo: date('valid_to', { mode: 'string' }),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revision: integer('revision').notNull().default(1),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    index('position_assignments_member_idx').on(t.organizationId, t.memberId, t.validFrom),
    foreignKey({ columns: [t.organizationId, t.memberId], foreignColumns: [members.organizationId, members.id] }),
    foreignKey({ columns: [t.organizationId, t.positionId], foreignColumns: [positions.organizationId, positions.id] }),
  ],
);

/** One field of a payout channel as answered: the masked form only. */
export interface MaskedPayoutField {
  key: string;
  label: { en: string; ms: string; zh?: string };
  display: string;
}

/**
 * Where a member wants to be paid (bank account, DuitNow). The values are encrypted at rest
 * (AES-256-GCM under PAYOUT_ENCRYPTION_KEY); only their masked form is stored in clear.
 */
export const payoutChannels = pgTable(
  'payout_channels',
  {
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    id: uuid('id').notNull().defaultRandom(),
    memberId: uuid('member_id').notNull(),
    /** The kind of channel: bank_transfer, duitnow. */
    channelKey: text('channel_key').notNull(),
    name: text('name').notNull(),
    /** AES-256-GCM of the JSON object of field values: v1.<iv>.<tag>.<ciphertext>, base64url. */
    fieldsCiphertext: text('fields_ciphertext').notNull(),
    fieldsMasked: jsonb('fields_masked').$type<MaskedPayoutField[]>().notNull(),
    accountTail: text('account_tail'),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revision: integer('revision').notNull().default(1),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    index('payout_channels_member_idx').on(t.organizationId, t.memberId).where(sql`${t.active}`),
    foreignKey({ columns: [t.organizationId, t.memberId], foreignColumns: [members.organizationId, members.id] }),
  ],
);
