import { z } from 'zod';
import { INVOICE_TABS } from './invoice-states';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** The list's address: a saved tab, the list's own filters, and the page's cursor. */
export const invoiceListSearch = z.object({
  tab: z.enum(INVOICE_TABS).optional().catch(undefined),
  /** The To do screen's links (drafts, overdue, e-invoices needing attention). */
  view: z.enum(['drafts', 'overdue', 'einvoice_attention']).optional().catch(undefined),
  state: z.string().max(100).optional().catch(undefined),
  customer_id: z.uuid().optional().catch(undefined),
  currency: z.string().regex(/^[A-Z]{3}$/).optional().catch(undefined),
  kind: z.enum(['sales_invoice', 'customer_credit_note', 'customer_debit_note']).optional().catch(undefined),
  q: z.string().min(1).max(100).optional().catch(undefined),
  invoice_date_from: isoDate.optional().catch(undefined),
  invoice_date_to: isoDate.optional().catch(undefined),
  group: z.enum(['only', 'none']).optional().catch(undefined),
  project_id: z.uuid().optional().catch(undefined),
  outstanding: z.enum(['true', 'false']).optional().catch(undefined),
  overdue: z.enum(['true']).optional().catch(undefined),
  cursor: z.string().max(2000).optional().catch(undefined),
});
export type InvoiceListSearch = z.infer<typeof invoiceListSearch>;
