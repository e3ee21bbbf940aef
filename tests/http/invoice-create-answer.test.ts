import { describe, expect, it } from 'vitest';
import { createTestCustomer } from '../factories/customer';
import { createInvoiceWorld, createTestCustomFields, issueTestDocument, uploadTestDocument } from '../factories/receivables';
import { useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';

/**
 * A create answers the document built from the rows it has just written, without reading them back
 * (issue 13): it must be exactly what a read of the same document answers, byte for byte, in every
 * shape a document can have when it is created.
 */
const t = useTestApp();
const { post, get } = httpHelpers(t);
const URL = '/v1/receivables/invoices';

async function createThenRead(token: string, body: Record<string, unknown>) {
  const created = await post(URL, body, token);
  expect(created.statusCode, created.body).toBe(201);
  const read = await get(`${URL}/${created.json().id}`, token);
  expect(read.statusCode, read.body).toBe(200);
  expect(created.json()).toEqual(read.json());
  expect(created.body).toBe(read.body);
  expect(created.headers.etag).toBe(read.headers.etag);
  return created.json();
}

describe('a create answers what a read of the document answers', () => {
  it('one line; five lines of mixed tax codes, units, discounts and an exempt line', async () => {
    const w = await createInvoiceWorld(t.db);
    await createThenRead(w.org.owner.apiKey, w.body());
    const doc = await createThenRead(
      w.org.owner.apiKey,
      w.body({
        customer_reference: 'PO-1',
        payment_terms_days: 14,
        lines: [
          w.line(),
          w.line({ tax_code_id: w.ref.st10.id, quantity: '2.5', unit_price: '19.99', discount_amount: '0', unit_code: 'H87' }),
          w.line({ tax_code_id: w.ref.exempt.id, tax_exemption_reason: 'Exempt under schedule A' }),
          w.line({ tax_code_id: w.ref.na.id, account_id: w.ref.services.id, description: 'Travel' }),
          w.line({ quantity: '0.0001', unit_price: '0.01', discount_amount: '0' }),
        ],
      }),
    );
    expect(doc.lines).toHaveLength(5);
  });

  it('shares on one project (the project shown) and on two (multiple projects), with a department split', async () => {
    const w = await createInvoiceWorld(t.db);
    const one = await createThenRead(
      w.org.owner.apiKey,
      w.body({
        lines: [
          w.line({ shares: [{ analytic_account_id: w.ref.alpha.id, percentage: '100' }] }),
          w.line({
            shares: [
              { analytic_account_id: w.ref.alpha.id, percentage: '100' },
              { analytic_account_id: w.ref.sales.id, percentage: '60' },
              { analytic_account_id: w.ref.ops.id, percentage: '40' },
            ],
          }),
        ],
      }),
    );
    expect(one.project).not.toBeNull();
    const two = await createThenRead(
      w.org.owner.apiKey,
      w.body({
        lines: [w.line({ shares: [{ analytic_account_id: w.ref.alpha.id, percentage: '100' }] }), w.line({ shares: [{ analytic_account_id: w.ref.beta.id, percentage: '100' }] })],
      }),
    );
    expect(two.multiple_projects).toBe(true);
  });

  it('attachments in the order sent, custom fields, and a foreign-currency customer', async () => {
    const w = await createInvoiceWorld(t.db);
    await createTestCustomFields(t.db, w.org.id);
    const a = await uploadTestDocument(t.db, w.org.id, w.org.owner.id, 'a.pdf');
    const b = await uploadTestDocument(t.db, w.org.id, w.org.owner.id, 'b.pdf');
    const doc = await createThenRead(
      w.org.owner.apiKey,
      w.body({ attachment_ids: [b.id, a.id], custom_fields: { po_number: 'PO-9', region: 'Borneo', weight_kg: '12.5', urgent: 'true' } }),
    );
    expect(doc.attachment_ids).toEqual([b.id, a.id]);
    const usd = await createTestCustomer(t.db, w.org.id, { currency: 'USD' });
    await createThenRead(w.org.owner.apiKey, { kind: 'sales_invoice', customer_id: usd.id, fx_rate: '4.4725', lines: [w.line()], custom_fields: { po_number: 'PO-10' } });
  });

  it('a credit note and a debit note against an issued invoice', async () => {
    const w = await createInvoiceWorld(t.db);
    const invoice = (await post(URL, w.body(), w.org.owner.apiKey)).json();
    await issueTestDocument(t.db, w.org.id, invoice.id, w.org.owner.id);
    await createThenRead(w.org.owner.apiKey, w.body({ kind: 'customer_credit_note', original_invoice_id: invoice.id, reason: 'Returned', lines: [w.line({ quantity: '1' })] }));
    await createThenRead(w.org.owner.apiKey, w.body({ kind: 'customer_debit_note', original_invoice_id: invoice.id, reason: 'Extra hours', lines: [w.line({ quantity: '1' })] }));
  });
});
