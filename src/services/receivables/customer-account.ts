/**
 * A customer's account as the accountant reads it: open items oldest first (what a receipt is
 * allocated over), the sums of what is open per currency, and whether the customer's identity is
 * complete enough for MyInvois (the buyer part of the same preflight issuing runs). Read only.
 */
import { listOpenItems, sumOpenItems, sumUnallocatedReceipts } from '../../db/queries/customer-account';
import { findCustomer } from '../../db/queries/customers';
import { KEY_VALUE_PATTERN } from '../../db/queries/keyset';
import type { CursorBinding } from '../../lib/cursor';
import { notFound } from '../../lib/errors';
import { Dec, formatAmount } from '../../lib/money';
import type { CustomerBalance, CustomerOpenItems, CustomerReadiness } from '../../contract/receivables/customer-account';
import type { ServiceContext } from '../context';
import { customerReadiness } from '../einvoicing/readiness';
import { keysetPage } from '../keyset-page';
import { cachedWorkflow } from '../org-config-cache';
import { SETTLEABLE } from './allocations';
import { documentHeaderView } from './document-view';

const DEFAULT_LIMIT = 25;

async function customerOr404(ctx: ServiceContext, id: string) {
  const customer = await findCustomer(ctx.db, { organizationId: ctx.org.id, id, today: ctx.today });
  if (!customer) throw notFound('customer');
  return customer;
}

/** The workflow states whose documents can still be settled (allocations' own rule). */
async function settleableStates(ctx: ServiceContext) {
  const def = await cachedWorkflow(ctx, 'receivable_document');
  return { def, states: def.states.filter((s) => SETTLEABLE.has(s.semantic)).map((s) => s.key) };
}

export interface OpenItemsInput {
  id: string;
  currency?: string | undefined;
  side?: 'debit' | 'credit' | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

export async function customerOpenItems(ctx: ServiceContext, input: OpenItemsInput): Promise<CustomerOpenItems> {
  const customer = await customerOr404(ctx, input.id);
  const { def, states } = await settleableStates(ctx);
  const filter = { organizationId: ctx.org.id, customerId: customer.id, states, currency: input.currency, side: input.side };
  const binding: CursorBinding = { sort: 'customer_open_items:invoice_date', order: 'asc', filters: { customer: customer.id, currency: input.currency, side: input.side } };
  const keyset = await keysetPage(ctx, { binding, cursor: input.cursor, limit: input.limit ?? DEFAULT_LIMIT, value: KEY_VALUE_PATTERN.date });
  const rows = await listOpenItems(ctx.db, { ...filter, today: ctx.today, after: keyset.after, take: keyset.take });
  const { page, next_cursor } = keyset.cut(rows, (row) => ({ value: row.invoiceDate, id: row.id }));
  return { documents: page.map((doc) => documentHeaderView(doc, { def, baseCurrency: ctx.org.baseCurrency, attachmentIds: doc.attachmentIds })), next_cursor };
}

export async function customerBalance(ctx: ServiceContext, input: { id: string }): Promise<CustomerBalance> {
  const customer = await customerOr404(ctx, input.id);
  const { states } = await settleableStates(ctx);
  const q = { organizationId: ctx.org.id, customerId: customer.id };
  const [open, receipts] = [await sumOpenItems(ctx.db, { ...q, states }), await sumUnallocatedReceipts(ctx.db, q)];
  const currencies = [...new Set([...open.map((o) => o.currency), ...receipts.map((r) => r.currency)])].sort();
  let base = new Dec(0);
  for (const o of open) base = o.credit ? base.minus(o.outstandingBase) : base.plus(o.outstandingBase);
  return {
    customer_id: customer.id,
    base_currency: ctx.org.baseCurrency,
    currencies: currencies.map((currency) => {
      const debit = open.find((o) => o.currency === currency && !o.credit);
      const credit = open.find((o) => o.currency === currency && o.credit);
      const received = receipts.find((r) => r.currency === currency);
      const balance = new Dec(debit?.outstanding ?? 0).minus(credit?.outstanding ?? 0).minus(received?.unallocated ?? 0);
      return {
        currency,
        open_documents: formatAmount(debit?.outstanding ?? '0', currency),
        open_documents_count: debit?.count ?? 0,
        open_credit_notes: formatAmount(credit?.outstanding ?? '0', currency),
        open_credit_notes_count: credit?.count ?? 0,
        unallocated_receipts: formatAmount(received?.unallocated ?? '0', currency),
        unallocated_receipts_count: received?.count ?? 0,
        balance: formatAmount(balance, currency),
      };
    }),
    outstanding_base: formatAmount(base, ctx.org.baseCurrency),
  };
}

export async function customerEinvoiceReadiness(ctx: ServiceContext, input: { id: string }): Promise<CustomerReadiness> {
  const problems = await customerReadiness(ctx, input.id);
  if (!problems) throw notFound('customer');
  return { customer_id: input.id, ready: problems.length === 0, problems };
}
