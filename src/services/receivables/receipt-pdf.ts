/**
 * The official receipt the customer receives for a receipt (GET /v1/receivables/receipts/{id}/pdf):
 * the receipt as getReceipt answers it (404 for another organization's), what it settled (the
 * allocations that count: neither reversed nor a reversal) with each document's number and date,
 * and what it left on account. Read only.
 */
import { findCustomer } from '../../db/queries/customers';
import { findDocumentReferences } from '../../db/queries/receivable-documents';
import { countryAlpha2 } from '../../lib/code-lists';
import { Dec, formatAmount } from '../../lib/money';
import { notFound } from '../../lib/errors';
import type { ServiceContext } from '../context';
import type { DocumentPdf } from './document-pdf';
import { getReceipt } from './receipts';

export async function receiptPdf(ctx: ServiceContext, input: { id: string }): Promise<DocumentPdf> {
  const receipt = await getReceipt(ctx, input);
  const customer = await findCustomer(ctx.db, { organizationId: ctx.org.id, id: receipt.customer_id, today: ctx.today });
  if (!customer) throw notFound('receipt');
  const counting = receipt.allocations.filter((a) => a.reverses_id === null && a.reversed_by_id === null);
  const docs = new Map((await findDocumentReferences(ctx.db, { organizationId: ctx.org.id, ids: [...new Set(counting.map((a) => a.invoice_id))] })).map((d) => [d.id, d]));
  // One line per document settled, however many allocations made it up.
  const settled = new Map<string, { reference: string; invoice_date: string; amount: Dec }>();
  for (const a of counting) {
    const d = docs.get(a.invoice_id);
    const line = settled.get(a.invoice_id) ?? { reference: d?.reference ?? '', invoice_date: d?.invoiceDate ?? '', amount: new Dec(0) };
    line.amount = line.amount.plus(a.amount);
    settled.set(a.invoice_id, line);
  }
  const { renderReceiptPdf } = await import('./pdf/render-receipt-pdf');
  const content = await renderReceiptPdf({
    receipt: { reference: receipt.reference, received_on: receipt.received_on, method: receipt.method, currency: receipt.currency, amount: receipt.amount, unallocated: receipt.unallocated },
    settled: [...settled.values()].map((s) => ({ reference: s.reference, invoice_date: s.invoice_date, amount: formatAmount(s.amount, receipt.currency) })),
    customer: { name: customer.legalName, code: customer.code, address: { ...customer.address, country_code: customer.countryCode ? countryAlpha2(customer.countryCode) : null } },
    seller: { ...ctx.org.seller, name: ctx.org.seller.name ?? ctx.org.name },
    created_at: ctx.now,
  });
  return { filename: `receipt-${receipt.reference}.pdf`, content };
}
