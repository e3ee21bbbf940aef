/**
 * The shapes of the receipt operations (docs/design.md §16): inputs (strict: an unknown field is 400)
 * and the receipt answer, the one declaration the services' return types are inferred from. Shapes
 * only; the rules (blank, places, what is left to allocate) are the services'.
 */
import { z } from 'zod';
import { RECEIPT_METHODS } from '../../domain/receivables';
import { decimalString } from '../../lib/decimal-string';
import { amountOut, rateOut, uuid, isoDate } from '../fields';
import { booleanParam, limitParam } from './document-list';

const allocationItemInput = z
  .strictObject({
    invoice_id: uuid().describe('An issued invoice or debit note of the same customer and currency'),
    amount: decimalString().describe("Positive, at most the currency's minor units; at most what the document and the source have left"),
  })
  .meta({ id: 'AllocationInput' });

export const createReceiptInput = z
  .strictObject({
    customer_id: uuid(),
    amount: decimalString().describe("What the customer paid: positive, at most the currency's minor units"),
    currency: z.string().optional().describe("ISO 4217 code; the customer's currency by default"),
    fx_rate: decimalString()
      .optional()
      .describe('Base-currency units per one unit of currency, as on documents; required when currency is not the base currency, "1" otherwise'),
    received_on: isoDate().describe("The day the money was received; not after the organization's today"),
    method: z.enum(RECEIPT_METHODS),
    reference: z.string().max(100, { message: 'must be at most 100 characters' }).describe('The official receipt number, cheque number or bank reference; 1 to 100 characters'),
    allocations: z
      .array(allocationItemInput)
      .max(100)
      .optional()
      .describe('Allocated at once, in this order, in the same transaction; a refused allocation leaves no receipt'),
  })
  .meta({ id: 'CreateReceipt' });

export const allocateReceiptInput = z.strictObject({
  receipt_id: uuid(),
  allocations: z.array(allocationItemInput).min(1).max(100),
});

export const applyCreditNoteInput = z.strictObject({
  credit_note_id: uuid().describe('An issued credit note'),
  invoice_id: uuid().describe('An issued invoice or debit note of the same customer and currency'),
  amount: decimalString(),
});

export const reverseAllocationInput = z.strictObject({
  allocation_id: uuid(),
  reason: z.string().max(500, { message: 'must be at most 500 characters' }).optional().describe('Kept on the timeline of the documents involved'),
});

export const receiptAllocationSchema = z
  .object({
    id: uuid(),
    invoice_id: uuid(),
    created_by: uuid(),
    amount: amountOut(),
    base_amount: amountOut().describe("The amount at the allocated document's fx_rate, in the base currency"),
    exchange_difference: amountOut().describe(
      "Realized exchange difference in the base currency: the amount at the receipt's rate less base_amount; positive is a gain",
    ),
    currency: z.string(),
    effective_on: isoDate(),
    created_at: z.iso.datetime({ offset: true }),
    source_kind: z.enum(['receipt', 'credit_note']),
    receipt_id: uuid().nullable(),
    credit_note_id: uuid().nullable(),
    reverses_id: uuid().nullable(),
    reversed_by_id: uuid().nullable(),
  })
  .meta({ id: 'ReceiptAllocation' });

export const receiptSchema = z
  .object({
    id: uuid(),
    customer_id: uuid(),
    amount: amountOut(),
    currency: z.string(),
    fx_rate: rateOut(),
    received_on: isoDate(),
    method: z.enum(RECEIPT_METHODS),
    reference: z.string(),
    created_at: z.iso.datetime({ offset: true }),
    created_by: uuid(),
    revision: z.int(),
    allocated: amountOut().describe('Σ of the allocations that count (neither reversed nor a reversal)'),
    unallocated: amountOut().describe('amount less allocated'),
    allocations: z.array(receiptAllocationSchema).describe('Every allocation of the receipt, reversals included, oldest first'),
  })
  .meta({ id: 'Receipt' });

export const listReceiptsInput = z.strictObject({
  customer_id: uuid().optional().describe("Only this customer's receipts"),
  received_from: isoDate().optional().describe('Received on or after this day'),
  received_to: isoDate().optional().describe('Received on or before this day'),
  unallocated: booleanParam.optional().describe('true: receipts with something left to allocate; false: fully allocated ones'),
  sort: z.enum(['received_on', 'created_at']).optional().describe('Ordering key, then id; received_on by default'),
  order: z.enum(['asc', 'desc']).optional().describe('desc by default'),
  limit: limitParam.optional(),
  cursor: z.string().max(2000).optional().describe("The previous page's next_cursor, with the same sort, order and filters"),
});

export const receiptListSchema = z
  .object({
    receipts: z.array(receiptSchema),
    next_cursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page'),
  })
  .meta({ id: 'ReceiptList' });

export type ReceiptView = z.output<typeof receiptSchema>;
export type ReceiptListPage = z.output<typeof receiptListSchema>;
