/**
 * The shape of a customer statement: open items as at a day, or the activity of a period with its
 * opening and closing balance, one section per currency. Shapes only; what counts on a day is the
 * service's rule.
 */
import { z } from 'zod';
import { amountOut, isoDate, isoDateInput, uuid } from '../fields';

export const STATEMENT_TYPES = ['open_items', 'activity'] as const;
export type StatementType = (typeof STATEMENT_TYPES)[number];

export const STATEMENT_LINE_KINDS = ['sales_invoice', 'customer_debit_note', 'customer_credit_note', 'receipt', 'allocation', 'allocation_reversal'] as const;

export const statementInput = z.strictObject({
  id: uuid().describe('The customer'),
  type: z.enum(STATEMENT_TYPES).optional().describe('open_items (default): what is open as at `to`; activity: everything from `from` to `to` with opening and closing balance'),
  from: isoDateInput().optional().describe('activity only: the first day of the period (YYYY-MM-DD); the first day of the month of `to` by default'),
  to: isoDateInput().optional().describe("The last day (YYYY-MM-DD): open items as at it, or the end of the period; the organization's today by default, never after it"),
});

const lineSchema = z.object({
  kind: z.enum(STATEMENT_LINE_KINDS),
  id: uuid().describe('The document, receipt or allocation'),
  date: isoDate().describe('Invoice date, day received, or the day an allocation took effect'),
  reference: z.string().describe("The document's or receipt's number; for an allocation, the receipt's or credit note's"),
  applied_to: z.string().nullable().describe('For an allocation: the number of the invoice or debit note it applied to'),
  customer_reference: z.string().nullable().describe("The customer's own reference (their PO), for documents"),
  due_on: isoDate().nullable(),
  days_overdue: z.number().int().nullable().describe('Open items: days past the due day on `to` (0 when not yet due); null for credits'),
  amount: amountOut().describe('Signed from the organization: invoices and debit notes positive, credit notes and receipts negative; allocations 0 (they move nothing owed)'),
  applied: amountOut().nullable().describe('For an allocation: the amount applied (a reversal negative)'),
  open: amountOut().nullable().describe('Open items: what was left open on `to`, signed as amount'),
  balance: amountOut().nullable().describe('Activity: the running balance after this line'),
});

export const statementSchema = z
  .object({
    type: z.enum(STATEMENT_TYPES),
    from: isoDate().nullable().describe('Activity: the first day of the period; null for open items'),
    to: isoDate(),
    customer: z.object({ id: uuid(), code: z.string(), legal_name: z.string(), email: z.string().nullable() }),
    currencies: z
      .array(
        z.object({
          currency: z.string(),
          opening_balance: amountOut().nullable().describe('Activity: what was owed at the end of the day before `from`; null for open items'),
          lines: z.array(lineSchema),
          closing_balance: amountOut().describe('What was owed at the end of `to`: opening plus the period, or Σ open'),
          overdue: amountOut().nullable().describe('Open items: the part invoices and debit notes had open on `to` past their due day; null for activity'),
        }),
      )
      .describe('One section per currency the customer had anything in, by currency code'),
  })
  .meta({ id: 'CustomerStatement' });

export type CustomerStatement = z.output<typeof statementSchema>;
export type StatementLine = z.output<typeof lineSchema>;
export type StatementInput = z.input<typeof statementInput>;
