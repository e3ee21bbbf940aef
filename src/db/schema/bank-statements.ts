import { foreignKey, index, uniqueIndex, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, unique, uuid, date } from 'drizzle-orm/pg-core';
import { members, organizations } from './organizations';
import { accounts } from './reference-data';
import { receipts } from './receivables';
import type { StatementMapping } from '../../domain/bank-statements';

/**
 * A bank account whose statements the organization uploads: its currency, the chart-of-accounts
 * account it stands for (optional) and the column mapping its CSV exports are read with, saved once.
 */
export const bankAccounts = pgTable(
  'bank_accounts',
  {
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    id: uuid('id').notNull().defaultRandom(),
    name: text('name').notNull(),
    /** The bank's account number as printed (for people; never used to match). */
    accountNumber: text('account_number').notNull().default(''),
    currency: text('currency').notNull(),
    /** The ledger account (an asset) the bank account is; optional. */
    accountId: uuid('account_id'),
    /** The preset the mapping came from (`generic` when set by hand). */
    preset: text('preset').notNull(),
    mapping: jsonb('mapping').$type<StatementMapping>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revision: integer('revision').notNull().default(1),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    foreignKey({ columns: [t.organizationId, t.accountId], foreignColumns: [accounts.organizationId, accounts.id] }),
  ],
);

/**
 * One line of an uploaded statement, stored once: its identity is (account, date, amount, reference,
 * balance), so an overlapping upload adds only the lines not already there. `amount` is signed: a
 * credit (money in) is positive. A credit is `open` until a person accepts it (the receipt and the
 * allocations it wrote are kept here, and undone by reversal) or ignores it.
 */
export const bankStatementLines = pgTable(
  'bank_statement_lines',
  {
    organizationId: uuid('organization_id').notNull(),
    id: uuid('id').notNull().defaultRandom(),
    bankAccountId: uuid('bank_account_id').notNull(),
    lineDate: date('line_date', { mode: 'string' }).notNull(),
    amount: numeric('amount', { precision: 20, scale: 4 }).notNull(),
    description: text('description').notNull().default(''),
    reference: text('reference').notNull().default(''),
    balance: numeric('balance', { precision: 20, scale: 4 }),
    /** The row of the file it was first read from (1-based, header included). */
    sourceRow: integer('source_row').notNull(),
    status: text('status', { enum: ['open', 'matched', 'ignored'] }).notNull().default('open'),
    /** The receipt the line is (written when accepted; kept after an undo, its money still received). */
    receiptId: uuid('receipt_id'),
    /** The allocations the last accept wrote (reversed by an undo). */
    allocationIds: jsonb('allocation_ids').$type<string[]>().notNull().default([]),
    decidedBy: uuid('decided_by'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revision: integer('revision').notNull().default(1),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    unique('bank_statement_lines_identity').on(t.organizationId, t.bankAccountId, t.lineDate, t.amount, t.reference, t.balance).nullsNotDistinct(),
    // A receipt is the money of at most one line.
    uniqueIndex('bank_statement_lines_receipt').on(t.organizationId, t.receiptId),
    index('bank_statement_lines_account_date').on(t.organizationId, t.bankAccountId, t.lineDate, t.id),
    foreignKey({ columns: [t.organizationId, t.bankAccountId], foreignColumns: [bankAccounts.organizationId, bankAccounts.id] }),
    foreignKey({ columns: [t.organizationId, t.receiptId], foreignColumns: [receipts.organizationId, receipts.id] }),
    foreignKey({ columns: [t.organizationId, t.decidedBy], foreignColumns: [members.organizationId, members.id] }),
  ],
);
