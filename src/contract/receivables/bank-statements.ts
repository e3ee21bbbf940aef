/**
 * The shapes of bank statements: bank accounts with their column mapping, the CSV upload, statement
 * lines with their suggested matches, and accept / ignore / undo. Shapes only; the rules are the
 * services' (src/services/bank-statements).
 */
import { z } from 'zod';
import { AMOUNT_LAYOUTS, STATEMENT_DATE_FORMATS, STATEMENT_LIMITS, STATEMENT_LINE_STATUSES, STATEMENT_PRESETS } from '../../domain/bank-statements';
import { decimalString } from '../../lib/decimal-string';
import { amountOut, currencyCode, timestamp, uuid } from '../fields';
import { limitParam } from './document-list';
import { receiptSchema } from './receipts';

const headings = z
  .array(z.string().trim().min(1, { message: 'must not be blank' }).max(100))
  .min(1)
  .max(10)
  .describe('The column headings this field may have, first found wins (compared case-insensitively)');

export const statementMappingSchema = z
  .strictObject({
    date: headings,
    date_format: z.enum(STATEMENT_DATE_FORMATS),
    amount_layout: z.enum(AMOUNT_LAYOUTS).describe('signed: one amount column; debit_credit: two columns; amount_type: an amount and a CR/DR column'),
    amount: headings.optional(),
    debit: headings.optional(),
    credit: headings.optional(),
    type: headings.optional(),
    description: z.array(headings).max(5).describe('Columns joined, in order, into the description'),
    reference: headings.optional(),
    balance: headings.optional(),
  })
  .meta({ id: 'StatementMapping' });

export const bankAccountInput = z
  .strictObject({
    name: z.string().max(100).describe('How people call the account, such as "Maybank current account"'),
    account_number: z.string().max(40).optional(),
    currency: currencyCode().optional().describe("The account's currency; the organization's base currency by default"),
    account_id: uuid().nullable().optional().describe('The ledger (asset) account the bank account is'),
    preset: z.enum(STATEMENT_PRESETS).describe("The bank export layout the mapping starts from"),
    mapping: statementMappingSchema.optional().describe("The preset's mapping when omitted"),
  })
  .meta({ id: 'BankAccountInput' });

export const updateBankAccountInput = z.strictObject({
  id: uuid(),
  name: z.string().max(100).optional(),
  account_number: z.string().max(40).optional(),
  account_id: uuid().nullable().optional(),
  preset: z.enum(STATEMENT_PRESETS).optional(),
  mapping: statementMappingSchema.optional(),
});

export const bankAccountSchema = z
  .object({
    id: uuid(),
    name: z.string(),
    account_number: z.string(),
    currency: z.string(),
    account_id: uuid().nullable(),
    preset: z.enum(STATEMENT_PRESETS),
    mapping: statementMappingSchema,
    created_at: timestamp(),
    revision: z.int(),
    open_credits: z.int().describe('Credit lines waiting for a decision'),
  })
  .meta({ id: 'BankAccount' });

export const bankAccountListSchema = z.object({ items: z.array(bankAccountSchema) });

export const presetListSchema = z.object({
  presets: z.array(z.object({ key: z.enum(STATEMENT_PRESETS), mapping: statementMappingSchema })),
  date_formats: z.array(z.enum(STATEMENT_DATE_FORMATS)),
});

export const uploadStatementInput = z
  .strictObject({
    id: uuid().describe('The bank account'),
    csv: z
      .string()
      .max(STATEMENT_LIMITS.bytes, { message: `must be at most ${STATEMENT_LIMITS.bytes} characters; upload the statement in parts` })
      .describe(`The CSV export as text, at most ${STATEMENT_LIMITS.bytes} bytes and ${STATEMENT_LIMITS.rows} rows`)
      .meta({ example: 'Tran Date,Description,Doc Ref No.,Tran Amt.,Tran Type,Balance\n05/03/2025,IBG CREDIT INV-000123,INV-000123,"1,060.00",CR,"12,450.00"\n' }),
  })
  .meta({ id: 'UploadStatement' });

export const uploadStatementSchema = z
  .object({
    bank_account_id: uuid(),
    lines_read: z.int(),
    added: z.int().describe('Lines stored by this upload'),
    already_there: z.int().describe('Lines of the file stored by an earlier upload (same date, amount, reference and balance)'),
    first_date: z.string().nullable().meta({ example: '2025-03-01' }),
    last_date: z.string().nullable().meta({ example: '2025-03-31' }),
  })
  .meta({ id: 'StatementUpload' });

export const SUGGESTION_REASONS = ['unique_exact_amount', 'exact_amount', 'document_number', 'customer_reference', 'jompay_ref1', 'receipt_reference', 'customer_name'] as const;

export const suggestionSchema = z
  .object({
    kind: z.enum(['document', 'receipt']),
    id: uuid().describe('The invoice or debit note, or the unallocated receipt'),
    reference: z.string().nullable(),
    customer_id: uuid(),
    customer_code: z.string().meta({ example: 'C-0001' }),
    customer_name: z.string().meta({ example: 'Syarikat Maju Jaya Sdn Bhd' }),
    open_amount: amountOut().describe("What the document has outstanding, or what the receipt has unallocated"),
    due_on: z.string().nullable().meta({ example: '2025-03-31' }),
    score: z.int().describe('0 to 100, higher is better'),
    reasons: z.array(z.enum(SUGGESTION_REASONS)),
  })
  .meta({ id: 'StatementSuggestion' });

export const statementLineSchema = z
  .object({
    id: uuid(),
    bank_account_id: uuid(),
    date: z.string().meta({ example: '2025-03-05' }),
    amount: amountOut().describe('Signed: money in is positive'),
    currency: z.string(),
    description: z.string(),
    reference: z.string(),
    balance: amountOut().nullable(),
    source_row: z.int(),
    status: z.enum(STATEMENT_LINE_STATUSES),
    receipt_id: uuid().nullable(),
    allocation_ids: z.array(uuid()),
    decided_by: uuid().nullable(),
    decided_at: timestamp().nullable(),
    revision: z.int(),
    available_transitions: z.array(z.enum(['accept', 'ignore', 'undo'])),
    suggestions: z.array(suggestionSchema).describe('Best first; only for open credits'),
  })
  .meta({ id: 'StatementLine' });

export const listStatementLinesInput = z.strictObject({
  id: uuid().describe('The bank account'),
  status: z.enum(STATEMENT_LINE_STATUSES).optional(),
  credits_only: z.union([z.stringbool({ truthy: ['true'], falsy: ['false'], case: 'sensitive' }), z.boolean()]).pipe(z.boolean()).optional(),
  limit: limitParam.optional(),
  cursor: z.string().min(1).max(1000).optional(),
});

export const statementLineListSchema = z.object({ lines: z.array(statementLineSchema), next_cursor: z.string().nullable() }).meta({ id: 'StatementLinePage' });

export const acceptLineInput = z
  .strictObject({
    id: uuid().describe('The statement line'),
    customer_id: uuid().optional().describe("Whose payment it is; the first allocated document's customer by default"),
    receipt_id: uuid().optional().describe('An unallocated receipt already recorded for this money, instead of a new one'),
    fx_rate: decimalString().optional().describe("Base-currency units per one unit of the account's currency; required when that is not the base currency"),
    allocations: z
      .array(z.strictObject({ invoice_id: uuid(), amount: decimalString() }))
      .max(100)
      .describe('Documents settled by the line (several to split it); what is left stays unallocated on the receipt'),
  })
  .meta({ id: 'AcceptStatementLine' });

export const lineIdInput = z.strictObject({ id: uuid().describe('The statement line') });

export const acceptedLineSchema = z.object({ line: statementLineSchema, receipt: receiptSchema }).meta({ id: 'AcceptedStatementLine' });
