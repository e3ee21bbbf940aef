/** The shapes of the journal export: control accounts, batches (JSON layout), the trial balance. Shapes only. */
import { z } from 'zod';
import { JOURNAL_ACCOUNT_ROLES, JOURNAL_ENTRY_KINDS, JOURNAL_EXPORT_FORMATS, JOURNAL_SOURCE_TYPES } from '../domain/journal';
import { amountOut, isoDate, isoDateInput, timestamp, uuid } from './fields';

export const journalAccountSchema = z.object({
  role: z.enum(JOURNAL_ACCOUNT_ROLES),
  key: z.string().describe("A receipt method, a payout channel kind or an expense category id; '' for the role itself"),
  account_id: uuid().nullable(),
  account_code: z.string().nullable(),
  source: z.enum(['setup', 'default', 'missing']).describe("setup: chosen; default: the default chart's account; missing: neither (events that post to it are refused)"),
});
export const journalAccountsSchema = z.object({ items: z.array(journalAccountSchema) });

export const setJournalAccountInput = z.strictObject({
  role: z.enum(JOURNAL_ACCOUNT_ROLES),
  key: z.string().max(100).optional().describe("receipt_clearing: a receipt method; payout_clearing: bank_transfer or duitnow; claim_expense: an expense category id; absent: the role's own"),
  account_id: uuid().nullable().describe("An active account of the chart; null goes back to the default chart's account"),
});

export const createExportInput = z.strictObject({
  up_to: isoDateInput().describe('Every entry dated on or before this day and in no batch yet is taken'),
});

const lineSchema = z.object({
  account_id: uuid(),
  account_code: z.string(),
  debit: amountOut().describe('In the base currency; zero when the line is a credit'),
  credit: amountOut().describe('In the base currency; zero when the line is a debit'),
  currency: z.string().describe("The source's currency"),
  amount: amountOut().describe('The line in that currency'),
  analytic_account_id: uuid().nullable(),
});

export const journalEntrySchema = z.object({
  id: uuid(),
  date: isoDate(),
  kind: z.enum(JOURNAL_ENTRY_KINDS),
  source: z.object({ type: z.enum(JOURNAL_SOURCE_TYPES), id: uuid() }),
  lines: z.array(lineSchema),
});

export const journalBatchSchema = z.object({
  number: z.number().int(),
  up_to: isoDate(),
  created_at: timestamp(),
  entries: z.array(journalEntrySchema),
});

export const journalBatchSummarySchema = z.object({ number: z.number().int(), up_to: isoDate(), created_at: timestamp(), entry_count: z.number().int() });

export const listExportsInput = z.strictObject({
  before: z.coerce.number().int().min(1).max(2_147_483_647).optional().describe('Batches numbered below this one (the next page: the last number of this one)'),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});
export const listExportsSchema = z.object({ items: z.array(journalBatchSummarySchema), next_before: z.number().int().nullable() });

export const getExportInput = z.strictObject({
  number: z.coerce.number().int().min(1).max(2_147_483_647),
  format: z.enum(JOURNAL_EXPORT_FORMATS).optional().describe('json by default; csv, sql_account, autocount and xero (REST only) answer the file'),
});

export const trialBalanceInput = z.strictObject({ as_of: isoDateInput().describe('Entries dated on or before this day, exported or not') });
export const trialBalanceSchema = z.object({
  as_of: isoDate(),
  accounts: z.array(z.object({ account_id: uuid(), account_code: z.string(), debit: amountOut(), credit: amountOut(), balance: amountOut().describe('debit less credit') })),
});
