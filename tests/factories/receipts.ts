import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { TestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';
import { createTestCustomer } from './customer';
import { createTestMember } from './organization';
import { createInvoiceWorld, issueTestDocument } from './receivables';

/**
 * An organization ready to take receipts: a MYR customer and a USD one, an accountant who issues,
 * and builders of issued documents made through POST /v1/receivables/invoices and the issue service.
 */
export async function createReceiptWorld(t: TestApp) {
  const { post, get } = httpHelpers(t);
  const w = await createInvoiceWorld(t.db);
  const issuer = await createTestMember(t.db, w.org.id, { role: 'accountant' });
  const usdCustomer = await createTestCustomer(t.db, w.org.id, { currency: 'USD', paymentTermsDays: 30 });
  const token = w.org.owner.apiKey;

  /** Prepares (as the owner) and issues (as the accountant) a document; answers it as GET does. */
  async function issued(over: Record<string, unknown> = {}) {
    const res = await post('/v1/receivables/invoices', w.body(over), token);
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as string;
    await issueTestDocument(t.db, w.org.id, id, issuer.id);
    const doc = await get(`/v1/receivables/invoices/${id}`, token);
    expect(doc.statusCode).toBe(200);
    return doc.json();
  }
  /** A MYR invoice of 379.62 (3 × 120.50 less 10.00, SST 8%). */
  const invoice = () => issued();
  /** A USD invoice of exactly 1000.00 at 4.4712: 925.93 net + 74.07 service tax; base 4140.02 + 331.18. */
  const usdInvoice = () =>
    issued({ customer_id: usdCustomer.id, currency: 'USD', fx_rate: '4.4712', lines: [w.line({ quantity: '1', unit_price: '925.93', discount_amount: '0' })] });
  /** An issued credit note of `amount` + 8% against an issued invoice. */
  const creditNote = (invoiceId: string, net = '50.00', over: Record<string, unknown> = {}) =>
    issued({
      kind: 'customer_credit_note',
      reason: 'Goods returned',
      original_invoice_id: invoiceId,
      lines: [w.line({ quantity: '1', unit_price: net, discount_amount: '0' })],
      ...over,
    });

  const receiptBody = (over: Record<string, unknown> = {}) => ({
    customer_id: w.customer.id,
    amount: '100.00',
    received_on: '2025-03-01',
    method: 'bank_transfer',
    reference: `OR-${randomUUID().slice(0, 8)}`,
    ...over,
  });
  return { ...w, issuer, usdCustomer, token, issued, invoice, usdInvoice, creditNote, receiptBody };
}

export type ReceiptWorld = Awaited<ReturnType<typeof createReceiptWorld>>;

/** tRPC over HTTP: a mutation with its raw input, an Idempotency-Key unless `headers` say otherwise. */
export function trpcHelpers(t: TestApp) {
  const { post } = httpHelpers(t);
  const call = async (path: string, input: unknown, token: string, headers: Record<string, string> = {}) => {
    const res = await post(`/trpc/${path}`, input, token, headers);
    const json = res.json();
    return { statusCode: res.statusCode, headers: res.headers, data: json.result?.data, problem: json.error?.data?.problem, body: res.body };
  };
  return { call };
}
