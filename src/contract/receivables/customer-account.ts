/**
 * The shapes of a customer's account (tRPC): its open items (a keyset page, oldest first), the sums
 * of what is open per currency, and its MyInvois readiness as a buyer. Shapes only; what is open and
 * what LHDN would refuse are the services' rules.
 */
import { z } from 'zod';
import { amountOut, uuid } from '../fields';
import { documentListItemSchema, limitParam } from './document-list';

export const customerOpenItemsInput = z.strictObject({
  id: uuid().describe('The customer id'),
  currency: z.string().regex(/^[A-Z]{3}$/, { message: 'must be an ISO 4217 code' }).optional().describe('Only documents in this currency'),
  side: z.enum(['debit', 'credit']).optional().describe('debit: invoices and debit notes; credit: credit notes; both by default'),
  limit: limitParam.optional(),
  cursor: z.string().max(2000).optional().describe("The previous page's next_cursor, with the same customer and filters"),
});

export const customerOpenItemsSchema = z.object({
  documents: z.array(documentListItemSchema).describe('Issued documents that can still be settled with something outstanding, oldest invoice date first'),
  next_cursor: z.string().nullable(),
});

export const customerBalanceSchema = z.object({
  customer_id: uuid(),
  base_currency: z.string(),
  currencies: z.array(
    z.object({
      currency: z.string(),
      open_documents: amountOut().describe('Σ outstanding of open invoices and debit notes'),
      open_documents_count: z.int(),
      open_credit_notes: amountOut().describe('Σ outstanding of credit notes not yet applied'),
      open_credit_notes_count: z.int(),
      unallocated_receipts: amountOut().describe('Σ unallocated of receipts with something left'),
      unallocated_receipts_count: z.int(),
      balance: amountOut().describe('open_documents less open_credit_notes less unallocated_receipts'),
    }),
  ),
  outstanding_base: amountOut().describe('Σ outstanding_base of open invoices and debit notes less that of open credit notes, in the base currency'),
});

export const customerReadinessSchema = z.object({
  customer_id: uuid(),
  ready: z.boolean().describe("True when nothing in the customer's identity would make LHDN MyInvois refuse a document to them"),
  problems: z.array(z.object({ pointer: z.string(), code: z.string().describe('A stable code per rule (buyer_tin_missing, phone_not_e164, ...)'), detail: z.string() })),
});

export type CustomerBalance = z.output<typeof customerBalanceSchema>;
export type CustomerOpenItems = z.output<typeof customerOpenItemsSchema>;
export type CustomerReadiness = z.output<typeof customerReadinessSchema>;
