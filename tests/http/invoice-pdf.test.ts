import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { customers } from '../../src/db/schema';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { createInvoiceWorld, issueTestDocument, type InvoiceWorld } from '../factories/receivables';
import { useTestApp } from '../helpers/app';
import { COMPLETE_SELLER, setSeller } from '../helpers/einvoicing';
import { httpHelpers } from '../helpers/http';
import { pdfQrCodes, pdfText } from '../helpers/pdf';
import { expectProblem } from '../helpers/problem';

/**
 * GET /v1/receivables/invoices/{id}/pdf: the document a customer receives, read back as text the way
 * a person reads it (the QR code's case, with LHDN's facts, is in tests/unit/document-pdf.test.ts).
 */
const t = useTestApp();
const { post, get } = httpHelpers(t);
const URL = '/v1/receivables/invoices';

const BUYER_TIN = 'C9876543210';

async function world() {
  const w = await createInvoiceWorld(t.db);
  await setSeller(t.db, w.org.id);
  await t.db
    .update(customers)
    .set({ tin: BUYER_TIN, registrationType: 'brn', registrationNo: '201901234567', phone: '+60355551234', address: { line1: 'No. 1, Jalan Plumbum', city: 'Shah Alam', state: '10' } })
    .where(eq(customers.id, w.customer.id));
  const accountant = await createTestMember(t.db, w.org.id, { role: 'accountant' });
  return { ...w, accountant };
}

async function draft(w: InvoiceWorld, over: Record<string, unknown> = {}) {
  const res = await post(URL, w.body(over), w.org.owner.apiKey);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function issued(w: Awaited<ReturnType<typeof world>>, over: Record<string, unknown> = {}) {
  const doc = await draft(w, over);
  await issueTestDocument(t.db, w.org.id, doc.id, w.accountant.id);
  const res = await get(`${URL}/${doc.id}`, w.org.owner.apiKey);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function pdfOf(id: string, token: string) {
  const res = await get(`${URL}/${id}/pdf`, token);
  expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
  return res;
}

const TWO_LINES = (w: InvoiceWorld) => [
  w.line({ description: 'Consulting', quantity: '3', unit_price: '120.50', discount_amount: '10.00' }),
  w.line({ description: 'Fuel surcharge', quantity: '12.5', unit_price: '2.055', discount_amount: '0' }),
];

describe('GET /v1/receivables/invoices/{id}/pdf', () => {
  it("an issued invoice: a PDF named by its number, with both parties' TINs, each line and the totals exactly as the document answers them", async () => {
    const w = await world();
    const doc = await issued(w, { lines: TWO_LINES(w) });
    expect(doc.reference).toMatch(/^INV-/);
    const res = await pdfOf(doc.id, w.org.owner.apiKey);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`inline; filename="${doc.reference}.pdf"`);
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const text = await pdfText(res.rawPayload);
    expect(text).toContain(`TIN: ${COMPLETE_SELLER.tin}`);
    expect(text).toContain(`TIN: ${BUYER_TIN}`);
    expect(text).toContain(COMPLETE_SELLER.name);
    expect(text).toContain(doc.buyer.name);
    expect(text).toContain(`Invoice No.: ${doc.reference}`);
    expect(text).toContain(`Invoice date: ${doc.invoice_date}`);
    expect(text).toContain(`Due date: ${doc.due_on}`);
    expect(text).not.toContain('DRAFT');
    expect(doc.lines).toHaveLength(2);
    for (const l of doc.lines) {
      // No., description, classification, quantity, unit price, discount, tax type and rate, tax, amount.
      const row = [l.line_no, l.description, l.classification_code, l.quantity, l.unit_price, l.discount_amount, `02 ${l.tax_rate}%`, l.tax_amount, l.net_amount].join(' ');
      expect(text.split('\n')).toContain(row);
    }
    expect(doc.lines[1].unit_price).toBe('2.055');
    expect(text.split('\n')).toEqual(
      expect.arrayContaining([
        `Subtotal excl. tax (MYR) ${doc.net_total}`,
        `Tax (MYR) ${doc.tax_total}`,
        `Total payable (MYR) ${doc.gross_amount}`,
        `02 Service Tax 8% ${doc.net_total} ${doc.tax_total}`,
      ]),
    );
    expect(text).not.toContain('Exchange rate');
    // Not submitted to LHDN: no e-invoice facts, no QR code.
    expect(text).not.toContain('UUID');
    expect(await pdfQrCodes(res.rawPayload)).toEqual([]);
  });

  it('a draft is stamped DRAFT, named by its id, printed with the customer as it reads now, and carries no QR code', async () => {
    const w = await world();
    const doc = await draft(w, { currency: 'USD', fx_rate: '4.4712' });
    const res = await pdfOf(doc.id, w.org.owner.apiKey);
    expect(res.headers['content-disposition']).toBe(`inline; filename="${doc.id}.pdf"`);
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('DRAFT Invoice');
    expect(text).toContain(`TIN: ${BUYER_TIN}`);
    expect(text).toContain(`TIN: ${COMPLETE_SELLER.tin}`);
    expect(text).toContain(`Total payable (USD) ${doc.gross_amount}`);
    expect(text).toContain('Exchange rate: 1 USD = 4.4712 MYR');
    expect(text).toContain(`Total (MYR) ${doc.gross_base}`);
    expect(await pdfQrCodes(res.rawPayload)).toEqual([]);
  });

  it('a credit note is titled so and names the invoice it credits', async () => {
    const w = await world();
    const invoice = await issued(w);
    const cn = await issued(w, {
      kind: 'customer_credit_note',
      original_invoice_id: invoice.id,
      reason: 'Returned goods',
      lines: [w.line({ quantity: '1', unit_price: '10.00', discount_amount: '0.00' })],
    });
    const text = await pdfText((await pdfOf(cn.id, w.org.owner.apiKey)).rawPayload);
    expect(text).toContain(`Credit Note No.: ${cn.reference}`);
    expect(text).toContain(`Original invoice: ${invoice.reference}`);
    expect(text).toContain('Reason: Returned goods');
    expect(text).toContain(`Total credit (MYR) ${cn.gross_amount}`);
  });

  it('404 for another organization’s document and a random id, 400 for a malformed id, 403 without receivables.invoice.read, 401 without credentials', async () => {
    const w = await world();
    const doc = await draft(w);
    const other = await createTestOrganization(t.db);
    expectProblem(await get(`${URL}/${doc.id}/pdf`, other.owner.apiKey), 404, 'not_found');
    expectProblem(await get(`${URL}/${randomUUID()}/pdf`, w.org.owner.apiKey), 404, 'not_found');
    expectProblem(await get(`${URL}/nope/pdf`, w.org.owner.apiKey), 400, 'invalid_request');
    const employee = await createTestMember(t.db, w.org.id, { role: 'employee' });
    expectProblem(await get(`${URL}/${doc.id}/pdf`, employee.apiKey), 403, 'forbidden');
    expectProblem(await get(`${URL}/${doc.id}/pdf`), 401, 'unauthenticated');
    const viewer = await createTestMember(t.db, w.org.id, { role: 'viewer' });
    const res = await pdfOf(doc.id, viewer.apiKey);
    expect(res.headers['ratelimit-limit']).toBeDefined();
  });

  it('is described in the OpenAPI document as an application/pdf answer', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const op = doc.paths['/receivables/invoices/{id}/pdf'].get;
    expect(Object.keys(op.responses['200'].content)).toEqual(['application/pdf']);
    expect(op.responses['404']).toEqual({ $ref: '#/components/responses/Problem404' });
  });
});
