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

  it('the most lines a document may have (200), each numbered in the order sent', async () => {
    const w = await createInvoiceWorld(t.db);
    const lines = Array.from({ length: 200 }, (_, i) => w.line({ description: `Line ${i + 1} "quoted" \\ ü`, quantity: `${i + 1}.5`, unit_price: '0.10', discount_amount: '0' }));
    const doc = await createThenRead(w.org.owner.apiKey, w.body({ lines }));
    expect(doc.lines).toHaveLength(200);
    expect(doc.lines.map((l: { line_no: number }) => l.line_no)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(doc.lines[199]).toMatchObject({ description: 'Line 200 "quoted" \\ ü', quantity: '200.5', unit_price: '0.10', discount_amount: '0.00', net_amount: '20.05' });
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

describe("a create's event", () => {
  it('is one receivables.invoice.created about the draft at its revision, by the caller, at the creation instant; a refused create leaves none', async () => {
    const w = await createInvoiceWorld(t.db);
    const doc = await createThenRead(w.org.owner.apiKey, w.body({ lines: [w.line(), w.line({ description: 'Second' })] }));
    const events = await get(`/v1/events?subject_id=${doc.id}`, w.org.owner.apiKey);
    expect(events.statusCode, events.body).toBe(200);
    expect(events.json().events).toEqual([
      {
        id: expect.any(String),
        type: 'receivables.invoice.created',
        occurred_at: doc.created_at,
        organization_id: w.org.id,
        actor_member_id: doc.prepared_by,
        subject: { type: 'receivable_document', id: doc.id, revision: doc.revision },
        data: { kind: 'sales_invoice', state: 'draft', semantic: 'draft' },
      },
    ]);
    const before = (await get('/v1/events?type=receivables.invoice.created', w.org.owner.apiKey)).json().events.length;
    const refused = await post(URL, w.body({ lines: [w.line(), w.line({ tax_code_id: '00000000-0000-4000-8000-000000000000' })] }), w.org.owner.apiKey);
    expect(refused.statusCode, refused.body).toBe(422);
    expect((await get('/v1/events?type=receivables.invoice.created', w.org.owner.apiKey)).json().events).toHaveLength(before);
  });
});
