/**
 * Who may approve what (docs/design.md §17): grants, approver assignments on analytic accounts,
 * delegations and the organization's claim policy. Sign-offs (expenses.ts) are derived from these
 * when a claim enters a sign-off step; nothing here is ever written by a claim decision.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, date, foreignKey, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { APPROVAL_GRANT_KINDS, APPROVAL_STEPS, DELEGATION_SCOPES } from '../../domain/approvals';
import { members, organizations } from './organizations';
import { positions } from './people';
import { analyticAccounts, analyticAxes } from './reference-data';

/**
 * An amount range an approver may sign: `min_amount` ≤ amount ≤ `max_amount` (null: no upper limit),
 * in the base currency. On a superior grant `level` says which step up the chain it applies to
 * (1 = the claimant's direct superior; absent: every level).
 */
export interface ApprovalBand {
  level?: number;
  min_amount: string;
  max_amount: string | null;
}

/**
 * A source of approval authority for one step:
 * - `superior` (review): the claimant's line of superiors, walked up from their primary position, at
 *   most `max_levels` steps (null: to the root);
 * - `account_approver` (finance): the approver assignments on each analytic account (on `axis_id`,
 *   or any axis when null);
 * - `default`: a named position's holders or a named member (the finance controller), used as a
 *   fallback or as an axis's primary grant.
 * `fallback_grant_id` is where the engine goes when this grant leaves a sign-off without anyone.
 * Bands (jsonb, replaced whole on update) limit the amounts; no bands: no limit.
 */
export const approvalGrants = pgTable(
  'approval_grants',
  {
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    id: uuid('id').notNull().defaultRandom(),
    name: text('name').notNull(),
    kind: text('kind', { enum: APPROVAL_GRANT_KINDS }).notNull(),
    step: text('step', { enum: APPROVAL_STEPS }).notNull(),
    axisId: uuid('axis_id'),
    holderPositionId: uuid('holder_position_id'),
    holderMemberId: uuid('holder_member_id'),
    maxLevels: integer('max_levels'),
    fallbackGrantId: uuid('fallback_grant_id'),
    bands: jsonb('bands').$type<ApprovalBand[]>().notNull().default([]),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revision: integer('revision').notNull().default(1),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    index('approval_grants_step_idx').on(t.organizationId, t.step),
    foreignKey({ columns: [t.organizationId, t.axisId], foreignColumns: [analyticAxes.organizationId, analyticAxes.id] }),
    foreignKey({ columns: [t.organizationId, t.holderPositionId], foreignColumns: [positions.organizationId, positions.id] }),
    foreignKey({ columns: [t.organizationId, t.holderMemberId], foreignColumns: [members.organizationId, members.id] }),
    foreignKey({ columns: [t.organizationId, t.fallbackGrantId], foreignColumns: [t.organizationId, t.id] }),
  ],
);

/**
 * A member approving one analytic account's shares (a project's manager) for a dated period
 * (valid_to inclusive, null = open), within their own band.
 */
export const approverAssignments = pgTable(
  'approver_assignments',
  {
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    id: uuid('id').notNull().defaultRandom(),
    analyticAccountId: uuid('analytic_account_id').notNull(),
    memberId: uuid('member_id').notNull(),
    validFrom: date('valid_from', { mode: 'string' }).notNull(),
    validTo: date('valid_to', { mode: 'string' }),
    minAmount: numeric('min_amount', { precision: 20, scale: 4 }).notNull().default('0'),
    maxAmount: numeric('max_amount', { precision: 20, scale: 4 }),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revision: integer('revision').notNull().default(1),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    index('approver_assignments_account_idx').on(t.organizationId, t.analyticAccountId),
    foreignKey({ columns: [t.organizationId, t.analyticAccountId], foreignColumns: [analyticAccounts.organizationId, analyticAccounts.id] }),
    foreignKey({ columns: [t.organizationId, t.memberId], foreignColumns: [members.organizationId, members.id] }),
  ],
);

/**
 * A member lending their approval authority to another for a dated period (inclusive, at most 90
 * days): all of it, or one grant's, one axis's or one analytic account's. One hop only: a delegate
 * never passes on what was delegated to them. The delegator keeps their own authority.
 */
export const delegations = pgTable(
  'delegations',
  {
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    id: uuid('id').notNull().defaultRandom(),
    delegatorMemberId: uuid('delegator_member_id').notNull(),
    delegateMemberId: uuid('delegate_member_id').notNull(),
    validFrom: date('valid_from', { mode: 'string' }).notNull(),
    validTo: date('valid_to', { mode: 'string' }).notNull(),
    scope: text('scope', { enum: DELEGATION_SCOPES }).notNull().default('all'),
    grantId: uuid('grant_id'),
    axisId: uuid('axis_id'),
    analyticAccountId: uuid('analytic_account_id'),
    reason: text('reason'),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revision: integer('revision').notNull().default(1),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    index('delegations_delegate_idx').on(t.organizationId, t.delegateMemberId),
    check('delegations_not_self', sql`${t.delegatorMemberId} <> ${t.delegateMemberId}`),
    foreignKey({ columns: [t.organizationId, t.delegatorMemberId], foreignColumns: [members.organizationId, members.id] }),
    foreignKey({ columns: [t.organizationId, t.delegateMemberId], foreignColumns: [members.organizationId, members.id] }),
    foreignKey({ columns: [t.organizationId, t.grantId], foreignColumns: [approvalGrants.organizationId, approvalGrants.id] }),
    foreignKey({ columns: [t.organizationId, t.axisId], foreignColumns: [analyticAxes.organizationId, analyticAxes.id] }),
    foreignKey({ columns: [t.organizationId, t.analyticAccountId], foreignColumns: [analyticAccounts.organizationId, analyticAccounts.id] }),
  ],
);

/**
 * The organization's claim rules (one row; defaults when absent): escalation of unsigned sign-offs
 * after a number of working days, up to a number of hops, and whether a sole owner may decide their
 * own claim (off by default: the sole-owner exception is the receivables documents' rule).
 */
export const claimPolicies = pgTable('claim_policies', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id),
  escalationWorkingDays: integer('escalation_working_days').notNull().default(3),
  escalationMaxHops: integer('escalation_max_hops').notNull().default(2),
  /** Weekend days (ISO weekday numbers, 1 = Monday … 7 = Sunday); null: by the seller address' state. */
  weekendDays: integer('weekend_days').array(),
  soleOwnerException: boolean('sole_owner_exception').notNull().default(false),
  /** How far (percent of the approved base amount) a bank-charged line's bank figure may differ at payout. */
  payoutTolerancePercent: numeric('payout_tolerance_percent', { precision: 5, scale: 2 }).notNull().default('5'),
  revision: integer('revision').notNull().default(1),
});

/**
 * The organization's day as of which its open sign-offs were last refreshed by the calendar
 * (services/workflow/approvals/dated-refresh.ts): a dated start or end of an approver assignment or
 * a position assignment passing after that day makes them due again.
 */
export const signoffRefreshDays = pgTable('signoff_refresh_days', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id),
  refreshedOn: date('refreshed_on', { mode: 'string' }).notNull(),
});
