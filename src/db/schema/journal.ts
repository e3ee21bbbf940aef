/**
 * The journal handed to the organization's accounting system: the control accounts it posts to,
 * balanced entries written in the transaction of the event they record (never changed; a reversal is
 * a new entry), and numbered export batches. An entry belongs to at most one batch (`batch_number`,
 * set once by the export that takes it).
 */
import { sql } from 'drizzle-orm';
import { bigserial, date, foreignKey, index, integer, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { JOURNAL_ACCOUNT_ROLES, JOURNAL_ENTRY_KINDS, JOURNAL_SOURCE_TYPES } from '../../domain/journal';
import { organizations } from './organizations';
import { accounts, analyticAccounts } from './reference-data';

const money = (name: string) => numeric(name, { precision: 20, scale: 4 });

/** A control account chosen in set-up; a role without a row falls back to the default chart's account. */
export const journalAccounts = pgTable(
  'journal_accounts',
  {
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    role: text('role', { enum: JOURNAL_ACCOUNT_ROLES }).notNull(),
    /** A receipt method, a payout channel kind or an expense category id; '' for the role itself. */
    key: text('key').notNull().default(''),
    accountId: uuid('account_id').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.role, t.key] }),
    foreignKey({ columns: [t.organizationId, t.accountId], foreignColumns: [accounts.organizationId, accounts.id] }),
  ],
);

export const journalEntries = pgTable(
  'journal_entries',
  {
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    id: uuid('id').notNull().defaultRandom(),
    /** Order of writing; exports and trial balances list entries in it. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    entryDate: date('entry_date', { mode: 'string' }).notNull(),
    kind: text('kind', { enum: JOURNAL_ENTRY_KINDS }).notNull(),
    sourceType: text('source_type', { enum: JOURNAL_SOURCE_TYPES }).notNull(),
    sourceId: uuid('source_id').notNull(),
    /** A human reference of the source (document number, receipt reference, claim reference). */
    reference: text('reference').notNull().default(''),
    narration: text('narration').notNull().default(''),
    /** The entry this one reverses, when it is a reversal. */
    reversesId: uuid('reverses_id'),
    batchNumber: integer('batch_number'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    // One entry per event (a claim's bank difference may be approved more than once): writing it twice is a no-op.
    uniqueIndex('journal_entries_org_kind_source').on(t.organizationId, t.kind, t.sourceId).where(sql`kind <> 'claim_difference_approved'`),
    index('journal_entries_org_unexported').on(t.organizationId, t.entryDate, t.seq).where(sql`batch_number is null`),
    index('journal_entries_org_batch').on(t.organizationId, t.batchNumber, t.seq),
    index('journal_entries_org_date').on(t.organizationId, t.entryDate),
    index('journal_entries_org_source').on(t.organizationId, t.sourceId),
  ],
);

/** A line: debit or credit in base currency (one of them zero), the source's currency and amount beside. */
export const journalLines = pgTable(
  'journal_lines',
  {
    organizationId: uuid('organization_id').notNull(),
    entryId: uuid('entry_id').notNull(),
    lineNo: integer('line_no').notNull(),
    accountId: uuid('account_id').notNull(),
    /** The account's code when the entry was written: a batch downloads the same later. */
    accountCode: text('account_code').notNull(),
    debit: money('debit').notNull(),
    credit: money('credit').notNull(),
    currency: text('currency').notNull(),
    /** In `currency`, on the line's side (positive). */
    amount: money('amount').notNull(),
    analyticAccountId: uuid('analytic_account_id'),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.entryId, t.lineNo] }),
    index('journal_lines_org_account').on(t.organizationId, t.accountId),
    foreignKey({ columns: [t.organizationId, t.entryId], foreignColumns: [journalEntries.organizationId, journalEntries.id] }),
    foreignKey({ columns: [t.organizationId, t.accountId], foreignColumns: [accounts.organizationId, accounts.id] }),
    foreignKey({ columns: [t.organizationId, t.analyticAccountId], foreignColumns: [analyticAccounts.organizationId, analyticAccounts.id] }),
  ],
);

/** An export batch: numbered from 1 per organization without gaps. */
export const journalBatches = pgTable(
  'journal_batches',
  {
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    number: integer('number').notNull(),
    upTo: date('up_to', { mode: 'string' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: uuid('created_by').notNull(),
    entryCount: integer('entry_count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.number] })],
);
