import { sql } from 'drizzle-orm';
import type { DescriptorGap } from '../../domain/workflow';
import {
  boolean,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { members, organizations } from './organizations';
import { fileAttachments, files } from './files';
import { payoutChannels, type MaskedPayoutField } from './people';
import { analyticAccounts, analyticAxes, taxCodes } from './reference-data';

/** What a claim line is spent on (meals, travel, mileage, ...). */
export const expenseCategories = pgTable(
  'expense_categories',
  {
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    id: uuid('id').notNull().defaultRandom(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    revision: integer('revision').notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] }), uniqueIndex('expense_categories_org_code').on(t.organizationId, t.code)],
);

/** A grouping claims may be filed under (a trip, an event); retired groups take no new claims. */
export const claimGroups = pgTable(
  'claim_groups',
  {
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    id: uuid('id').notNull().defaultRandom(),
    name: text('name').notNull(),
    retiredAt: timestamp('retired_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revision: integer('revision').notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

/** A mileage rate (per km) effective from a date, with bands (e.g. first 500 km, beyond). */
export const mileageRates = pgTable(
  'mileage_rates',
  {
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    id: uuid('id').notNull().defaultRandom(),
    name: text('name').notNull(),
    currency: text('currency').notNull(),
    validFrom: date('valid_from', { mode: 'string' }).notNull(),
    validTo: date('valid_to', { mode: 'string' }),
    /** A deactivated rate is offered to no new claim line; lines already priced keep it. */
    active: boolean('active').notNull().default(true),
    revision: integer('revision').notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const mileageRateBands = pgTable(
  'mileage_rate_bands',
  {
    organizationId: uuid('organization_id').notNull(),
    rateId: uuid('rate_id').notNull(),
    band: text('band').notNull(),
    fromKm: numeric('from_km', { precision: 20, scale: 10 }).notNull(),
    /** Exclusive upper bound; null = no limit. */
    toKm: numeric('to_km', { precision: 20, scale: 10 }),
    ratePerKm: numeric('rate_per_km', { precision: 20, scale: 10 }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.rateId, t.band] }),
    foreignKey({ columns: [t.organizationId, t.rateId], foreignColumns: [mileageRates.organizationId, mileageRates.id] }),
  ],
);

/** A per-diem (daily allowance) rate effective from a date, with bands (domestic, overseas, ...). */
export const perDiemRates = pgTable(
  'per_diem_rates',
  {
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    id: uuid('id').notNull().defaultRandom(),
    name: text('name').notNull(),
    currency: text('currency').notNull(),
    validFrom: date('valid_from', { mode: 'string' }).notNull(),
    validTo: date('valid_to', { mode: 'string' }),
    /** A deactivated rate is offered to no new claim line; lines already priced keep it. */
    active: boolean('active').notNull().default(true),
    revision: integer('revision').notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const perDiemRateBands = pgTable(
  'per_diem_rate_bands',
  {
    organizationId: uuid('organization_id').notNull(),
    rateId: uuid('rate_id').notNull(),
    band: text('band').notNull(),
    amountPerDay: numeric('amount_per_day', { precision: 20, scale: 4 }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.rateId, t.band] }),
    foreignKey({ columns: [t.organizationId, t.rateId], foreignColumns: [perDiemRates.organizationId, perDiemRates.id] }),
  ],
);

export const claims = pgTable(
  'claims',
  {
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    id: uuid('id').notNull().defaultRandom(),
    reference: text('reference').notNull(),
    title: text('title').notNull(),
    claimantMemberId: uuid('claimant_member_id').notNull(),
    groupId: uuid('group_id'),
    payoutChannelId: uuid('payout_channel_id'),
    currency: text('currency').notNull(),
    state: text('state').notNull(),
    revision: integer('revision').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    /**
     * The approval round: 0 while never submitted, + 1 on every submission and on every referral of
     * a bank difference (`difference`). Returning, withdrawing and amending end a round; sign-offs of an earlier round stay for the record and no longer count.
     */
    round: integer('round').notNull().default(0),
    /** The claimant's primary position and its unit's name on the day of the latest submission. */
    claimantPositionId: uuid('claimant_position_id'),
    claimantUnitName: text('claimant_unit_name'),
    /** Who raised the claim's current dispute (the `dispute_raiser` rule), and on which sign-off. */
    disputeRaisedBy: uuid('dispute_raised_by'),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    uniqueIndex('claims_org_reference').on(t.organizationId, t.reference),
    index('claims_org_claimant_idx').on(t.organizationId, t.claimantMemberId, t.createdAt),
    // The claim list's order (created_at, id) descending: a page reads its rows off this index, never sorts the organization's claims.
    index('claims_org_created_idx').on(t.organizationId, t.createdAt, t.id),
    foreignKey({ columns: [t.organizationId, t.claimantMemberId], foreignColumns: [members.organizationId, members.id] }),
    foreignKey({ columns: [t.organizationId, t.groupId], foreignColumns: [claimGroups.organizationId, claimGroups.id] }),
    foreignKey({ columns: [t.organizationId, t.payoutChannelId], foreignColumns: [payoutChannels.organizationId, payoutChannels.id] }),
  ],
);

import { CLAIM_LINE_TYPES, DOCUMENT_BASES, FX_RATE_SOURCES, REIMBURSEMENT_BASES } from '../../domain/expenses';
export { CLAIM_LINE_TYPES, DOCUMENT_BASES, FX_RATE_SOURCES, REIMBURSEMENT_BASES };

export const claimLines = pgTable(
  'claim_lines',
  {
    organizationId: uuid('organization_id').notNull(),
    id: uuid('id').notNull().defaultRandom(),
    claimId: uuid('claim_id').notNull(),
    lineNo: integer('line_no').notNull(),
    type: text('type', { enum: CLAIM_LINE_TYPES }).notNull(),
    withdrawn: boolean('withdrawn').notNull().default(false),
    expenseDate: date('expense_date', { mode: 'string' }).notNull(),
    categoryId: uuid('category_id').notNull(),
    description: text('description').notNull(),
    currency: text('currency').notNull(),
    amount: numeric('amount', { precision: 20, scale: 4 }).notNull(),
    baseAmount: numeric('base_amount', { precision: 20, scale: 4 }).notNull(),
    fxRate: numeric('fx_rate', { precision: 20, scale: 10 }).notNull(),
    fxRateSource: text('fx_rate_source', { enum: FX_RATE_SOURCES }).notNull(),
    /** Why the claimant overrode the reference rate (fx_rate_source override); not in the line answer. */
    fxRateReason: text('fx_rate_reason'),
    reimbursementBasis: text('reimbursement_basis', { enum: REIMBURSEMENT_BASES }).notNull(),
    quantity: numeric('quantity', { precision: 20, scale: 10 }).notNull(),
    rateId: uuid('rate_id'),
    band: text('band'),
    taxAmount: numeric('tax_amount', { precision: 20, scale: 4 }).notNull(),
    taxCodeId: uuid('tax_code_id'),
    supplierName: text('supplier_name'),
    supplierTin: text('supplier_tin'),
    /** ISO 3166-1 alpha-2 of a foreign supplier (document_basis foreign_supplier on a MYR line). */
    supplierCountry: text('supplier_country'),
    documentBasis: text('document_basis', { enum: DOCUMENT_BASES }).notNull(),
    einvoiceUuid: text('einvoice_uuid'),
    einvoiceValidatedAt: timestamp('einvoice_validated_at', { withTimezone: true }),
    /**
     * The MyInvois check of an `einvoice_company` line (docs/myinvois.md point 7): when it is due next
     * (now on a new UUID; again once the supplier's 72-hour cancellation window has closed), when it
     * last ran, and what it found (`einvoice_validated_at` is set only when it found the line fits).
     */
    einvoiceCheckDueAt: timestamp('einvoice_check_due_at', { withTimezone: true }),
    einvoiceCheckedAt: timestamp('einvoice_checked_at', { withTimezone: true }),
    einvoiceCheckDetail: text('einvoice_check_detail'),
    relaxationReason: text('relaxation_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * A bank-charged line's bank figure the payer referred for approval of its difference over the
     * approved base amount, while the claim is in `difference`: on approval it becomes the line's
     * base amount (and its rate the figure over the amount); declined, it is dropped. Not answered.
     */
    referredBankAmount: numeric('referred_bank_amount', { precision: 20, scale: 4 }),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    uniqueIndex('claim_lines_claim_line_no').on(t.organizationId, t.claimId, t.lineNo),
    index('claim_lines_einvoice_check_due').on(t.einvoiceCheckDueAt).where(sql`einvoice_check_due_at is not null`),
    foreignKey({ columns: [t.organizationId, t.claimId], foreignColumns: [claims.organizationId, claims.id] }),
    foreignKey({ columns: [t.organizationId, t.categoryId], foreignColumns: [expenseCategories.organizationId, expenseCategories.id] }),
    foreignKey({ columns: [t.organizationId, t.taxCodeId], foreignColumns: [taxCodes.organizationId, taxCodes.id] }),
  ],
);

export const claimLineShares = pgTable(
  'claim_line_shares',
  {
    organizationId: uuid('organization_id').notNull(),
    lineId: uuid('line_id').notNull(),
    analyticAccountId: uuid('analytic_account_id').notNull(),
    percentage: numeric('percentage', { precision: 20, scale: 10 }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.lineId, t.analyticAccountId] }),
    foreignKey({ columns: [t.organizationId, t.lineId], foreignColumns: [claimLines.organizationId, claimLines.id] }),
    foreignKey({
      columns: [t.organizationId, t.analyticAccountId],
      foreignColumns: [analyticAccounts.organizationId, analyticAccounts.id],
    }),
  ],
);

/**
 * A document that stopped supporting a claim line. The document stays bound to the line in
 * `file_attachments` (record_type 'expense_claim_line'; a binding is never removed, so the file can
 * back no other record), but it no longer appears in the line's `documents` nor counts for the
 * duplicate signal. This is the one thing the shared binding table does not carry.
 */
export const claimLineDocumentDetachments = pgTable(
  'claim_line_document_detachments',
  {
    organizationId: uuid('organization_id').notNull(),
    fileId: uuid('file_id').notNull(),
    detachedAt: timestamp('detached_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.fileId] }),
    foreignKey({ columns: [t.organizationId, t.fileId], foreignColumns: [fileAttachments.organizationId, fileAttachments.fileId] }),
  ],
);

import { DECISION_VIAS } from '../../domain/expenses';
export { DECISION_VIAS };

/** The claim's decision log: every transition, oldest first, never rewritten. */
export const claimDecisions = pgTable(
  'claim_decisions',
  {
    organizationId: uuid('organization_id').notNull(),
    id: uuid('id').notNull().defaultRandom(),
    claimId: uuid('claim_id').notNull(),
    seq: integer('seq').notNull(),
    actionKey: text('action_key').notNull(),
    actorMemberId: uuid('actor_member_id').notNull(),
    authorityMemberId: uuid('authority_member_id').notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }).notNull(),
    fromState: text('from_state').notNull(),
    toState: text('to_state').notNull(),
    reason: text('reason').notNull().default(''),
    via: text('via', { enum: DECISION_VIAS }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    uniqueIndex('claim_decisions_claim_seq').on(t.organizationId, t.claimId, t.seq),
    foreignKey({ columns: [t.organizationId, t.claimId], foreignColumns: [claims.organizationId, claims.id] }),
    foreignKey({ columns: [t.organizationId, t.actorMemberId], foreignColumns: [members.organizationId, members.id] }),
    foreignKey({ columns: [t.organizationId, t.authorityMemberId], foreignColumns: [members.organizationId, members.id] }),
  ],
);

/**
 * A payout of a claim. The channel's values at the time are kept encrypted (snapshot); only the
 * masked form is stored in clear and ever answered.
 */
export const claimSettlements = pgTable(
  'claim_settlements',
  {
    organizationId: uuid('organization_id').notNull(),
    id: uuid('id').notNull().defaultRandom(),
    claimId: uuid('claim_id').notNull(),
    channelId: uuid('channel_id').notNull(),
    channelKey: text('channel_key').notNull(),
    channelName: text('channel_name').notNull(),
    amount: numeric('amount', { precision: 20, scale: 4 }).notNull(),
    currency: text('currency').notNull(),
    settledAt: timestamp('settled_at', { withTimezone: true }).notNull(),
    settledBy: uuid('settled_by').notNull(),
    proofDocumentId: uuid('proof_document_id'),
    accountTail: text('account_tail'),
    fieldsCiphertext: text('fields_ciphertext').notNull(),
    fieldsMasked: jsonb('fields_masked').$type<MaskedPayoutField[]>().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    index('claim_settlements_claim_idx').on(t.organizationId, t.claimId, t.settledAt),
    foreignKey({ columns: [t.organizationId, t.claimId], foreignColumns: [claims.organizationId, claims.id] }),
    foreignKey({ columns: [t.organizationId, t.channelId], foreignColumns: [payoutChannels.organizationId, payoutChannels.id] }),
    foreignKey({ columns: [t.organizationId, t.settledBy], foreignColumns: [members.organizationId, members.id] }),
    foreignKey({ columns: [t.organizationId, t.proofDocumentId], foreignColumns: [files.organizationId, files.id] }),
  ],
);

/** One way a member may sign a sign-off (the engine's resolution, kept on the sign-off). */
export interface SignoffAuthority {
  member_id: string;
  /** grant: the natural approver; escalation: a fallback grant or an escalation hop. */
  via: 'grant' | 'escalation';
  grant_id: string;
  approver_assignment_id: string | null;
  /** The escalation hop that added this member (1, 2, …); absent for the resolution at opening. */
  hop?: number;
}

/** A member with authority on a sign-off whose band does not cover its amount. */
export interface PassedOverApprover {
  member_id: string;
  grant_id: string;
  approver_assignment_id: string | null;
  /** Which band, in words: "band 0.00 to 5000.00 does not cover 7200.00". */
  band: string;
}

/** A sign-off's gap: the contract's gap object (2.5), one shape for the stored row and the descriptor. */
export type SignoffGap = DescriptorGap;

/**
 * A sign-off a claim needs to leave a sign-off step (one per analytic account its shares charge),
 * with its signature once signed. Opened for a state; listed while the claim is in that state.
 * `account_code` / `account_name` are the analytic account's (shared `analytic_accounts`) code and
 * name as they were when the sign-off was opened: what the signer was asked to sign for. They are not
 * general-ledger accounts (`accounts`): a sign-off is per analytic account, never per GL account.
 */
export const claimSignoffs = pgTable(
  'claim_signoffs',
  {
    organizationId: uuid('organization_id').notNull(),
    id: uuid('id').notNull().defaultRandom(),
    claimId: uuid('claim_id').notNull(),
    state: text('state').notNull(),
    analyticAccountId: uuid('analytic_account_id').notNull(),
    axisId: uuid('axis_id').notNull(),
    accountCode: text('account_code').notNull(),
    accountName: text('account_name').notNull(),
    amount: numeric('amount', { precision: 20, scale: 4 }).notNull(),
    currency: text('currency').notNull(),
    eligible: text('eligible').array().notNull(),
    gap: jsonb('gap').$type<SignoffGap>(),
    signatureId: uuid('signature_id'),
    signedActorMemberId: uuid('signed_actor_member_id'),
    signedAuthorityMemberId: uuid('signed_authority_member_id'),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    signedVia: text('signed_via', { enum: ['grant', 'delegation', 'escalation'] }),
    approverAssignmentId: uuid('approver_assignment_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The claim's approval round this sign-off belongs to (claims.round). */
    round: integer('round').notNull().default(1),
    /**
     * Who may sign and on what authority, as resolved when the step was entered (and grown by
     * escalation hops): `eligible` holds the same member ids, for queries.
     */
    authorities: jsonb('authorities').$type<SignoffAuthority[]>().notNull().default([]),
    /** Members with authority on this sign-off whose band does not cover its amount (`not_in_band`). */
    passedOver: jsonb('passed_over').$type<PassedOverApprover[]>().notNull().default([]),
    /** Escalation hops added so far, and when the last one was (or when the sign-off was opened). */
    escalationHops: integer('escalation_hops').notNull().default(0),
    escalatedAt: timestamp('escalated_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    uniqueIndex('claim_signoffs_claim_round_state_account').on(t.organizationId, t.claimId, t.round, t.state, t.analyticAccountId),
    index('claim_signoffs_open_idx').on(t.organizationId, t.createdAt).where(sql`${t.signatureId} is null`),
    // `to_act` starts from the open sign-offs that name the caller (or a delegator to the caller) in `eligible`.
    index('claim_signoffs_open_eligible_idx').using('gin', t.eligible).where(sql`${t.signatureId} is null`),
    foreignKey({ columns: [t.organizationId, t.claimId], foreignColumns: [claims.organizationId, claims.id] }),
    foreignKey({
      columns: [t.organizationId, t.analyticAccountId],
      foreignColumns: [analyticAccounts.organizationId, analyticAccounts.id],
    }),
    foreignKey({ columns: [t.organizationId, t.axisId], foreignColumns: [analyticAxes.organizationId, analyticAxes.id] }),
  ],
);

/**
 * One row per member named in an open (unsigned) sign-off's `eligible`, with its claim's created_at:
 * what `scope=to_act` walks, newest claim first, for the caller and each member who delegated to them,
 * so a page reads about as many entries as it lists whatever the number of sign-offs naming the caller.
 * Kept by triggers (migration 0042): written when a sign-off is opened, rewritten when its `eligible`,
 * signature, round or state change, gone once it is signed (or deleted), and following its claim's
 * created_at. Never written by the service; `round` and `state` are the sign-off's, compared with the
 * claim's when read.
 */
export const claimSignoffEligibles = pgTable(
  'claim_signoff_eligibles',
  {
    organizationId: uuid('organization_id').notNull(),
    memberId: text('member_id').notNull(),
    claimCreatedAt: timestamp('claim_created_at', { withTimezone: true }).notNull(),
    claimId: uuid('claim_id').notNull(),
    signoffId: uuid('signoff_id').notNull(),
    round: integer('round').notNull(),
    state: text('state').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.memberId, t.claimCreatedAt, t.claimId, t.signoffId] }),
    index('claim_signoff_eligibles_signoff_idx').on(t.organizationId, t.signoffId),
    foreignKey({ columns: [t.organizationId, t.signoffId], foreignColumns: [claimSignoffs.organizationId, claimSignoffs.id] }).onDelete('cascade'),
  ],
);
