import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestCustomer } from '../factories/customer';
import { createTestMember, createTestOrganization } from '../factories/organization';
import {
  createTestCustomFields,
  createTradeLine,
  issueTestDocument,
  uploadTestDocument,
  createInvoiceWorld,
  type InvoiceWorld,
} from '../factories/receivables';
import { useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';
import { expectProblem } from '../helpers/problem';
import { countTenantRows } from '../helpers/rows';

const t = useTestApp();
const { post, get } = httpHelpers(t);
const URL = '/v1/receivables/invoices';

const world = () => createInvoiceWorld(t.db);
type World = InvoiceWorld;

/** Prepares and issues an invoice of the world's customer; answers its id. */
async function issuedInvoice(w: World, over: Record<string, unknown> = {}) {
  const res = await post(URL, w.body(over), w.org.owner.apiKey);
  expect(res.statusCode, res.body).toBe(201);
  await issueTestDocument(t.db, w.org.id, res.json().id, w.org.owner.id);
  return res.json() as { id: string; gross_amount: string };
}

describe('POST /v1/receivables/invoices answers', () => {
  it('201 with the draft, Location and a quoted ETag; GET answers the same document with the same ETag', async () => {
    const w = await world();
    const res = await post(URL, w.body({ customer_reference: 'PO-7781' }), w.org.owner.apiKey);
    expect(res.statusCode, res.body).toBe(201);
    const doc = res.json();
    expect(res.headers.location).toBe(`/v1/receivables/invoices/${doc.id}`);
    expect(res.headers.etag).toBe('"1"');
    expect(doc).toMatchObject({
      kind: 'sales_invoice',
      state: 'draft',
      semantic: 'draft',
      revision: 1,
      reference: null,
      issued_at: null,
      buyer: null,
      seller: null,
      customer_id: w.customer.id,
      customer_reference: 'PO-7781',
      currency: 'MYR',
      fx_rate: '1',
      payment_terms_days: 30,
      prepared_by: w.org.owner.id,
      reason: null,
      original_invoice_id: null,
      is_group_transaction: false,
      multiple_projects: false,
      project: null,
      custom_fields: {},
      net_total: '351.50',
      tax_total: '28.12',
      gross_amount: '379.62',
      gross_base: '379.62',
      outstanding: '379.62',
      outstanding_base: '379.62',
      allocations: [],
      attachment_ids: [],
      timeline: [],
    });
    const days = (Date.parse(doc.due_on) - Date.parse(doc.invoice_date)) / 86_400_000;
    expect(days).toBe(30);

    const read = await get(res.headers.location as string, w.org.owner.apiKey);
    expect(read.statusCode).toBe(200);
    expect(read.headers.etag).toBe('"1"');
    expect(read.json()).toEqual(doc);
  });

  it("takes the customer's payment terms when none are sent, and the sent ones otherwise", async () => {
    const w = await world();
    const c = await createTestCustomer(t.db, w.org.id, { paymentTermsDays: 45 });
    const a = (await post(URL, w.body({ customer_id: c.id }), w.org.owner.apiKey)).json();
    expect(a.payment_terms_days).toBe(45);
    const b = (await post(URL, w.body({ customer_id: c.id, payment_terms_days: 7 }), w.org.owner.apiKey)).json();
    expect(b.payment_terms_days).toBe(7);
    expect((Date.parse(b.due_on) - Date.parse(b.invoice_date)) / 86_400_000).toBe(7);
  });

  it("uses the customer's default account and tax code when a line names none", async () => {
    const w = await world();
    const c = await createTestCustomer(t.db, w.org.id);
    const { customers } = await import('../../src/db/schema');
    const { and, eq } = await import('drizzle-orm');
    await t.db
      .update(customers)
      .set({ defaultRevenueAccountId: w.ref.services.id, defaultTaxCodeId: w.ref.st10.id })
      .where(and(eq(customers.organizationId, w.org.id), eq(customers.id, c.id)));
    const res = await post(URL, { kind: 'sales_invoice', customer_id: c.id, lines: [{ description: 'Widgets', quantity: '2', unit_price: '50.00' }] }, w.org.owner.apiKey);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().lines[0]).toMatchObject({ account_id: w.ref.services.id, tax_code_id: w.ref.st10.id, tax_code: 'ST10', tax_rate: '10', tax_amount: '10.00', discount_amount: '0.00' });
  });

  it('derives project and multiple_projects from the shares on the project axis', async () => {
    const w = await world();
    const one = await post(
      URL,
      w.body({
        lines: [
          w.line({ shares: [{ analytic_account_id: w.ref.alpha.id, percentage: '100' }, { analytic_account_id: w.ref.sales.id, percentage: '100' }] }),
          w.line({ shares: [{ analytic_account_id: w.ref.alpha.id, percentage: '100' }] }),
          w.line(),
        ],
      }),
      w.org.owner.apiKey,
    );
    expect(one.statusCode, one.body).toBe(201);
    expect(one.json().project).toEqual({ id: w.ref.alpha.id, code: 'P-ALPHA', name: 'Project Alpha' });
    expect(one.json().multiple_projects).toBe(false);
    expect(one.json().lines[0].shares).toEqual([
      { analytic_account_id: w.ref.alpha.id, percentage: '100' },
      { analytic_account_id: w.ref.sales.id, percentage: '100' },
    ]);

    const two = await post(
      URL,
      w.body({
        lines: [
          w.line({ shares: [{ analytic_account_id: w.ref.alpha.id, percentage: '60.5' }, { analytic_account_id: w.ref.beta.id, percentage: '39.5' }] }),
        ],
      }),
      w.org.owner.apiKey,
    );
    expect(two.statusCode, two.body).toBe(201);
    expect(two.json().project).toBeNull();
    expect(two.json().multiple_projects).toBe(true);
    expect(two.json().lines[0].shares[0].percentage).toBe('60.5');

    // Only department shares: no project.
    const none = await post(URL, w.body({ lines: [w.line({ shares: [{ analytic_account_id: w.ref.ops.id, percentage: '100' }] })] }), w.org.owner.apiKey);
    expect(none.json()).toMatchObject({ project: null, multiple_projects: false });
  });

  it('accepts custom fields checked against the active definitions', async () => {
    const w = await world();
    await createTestCustomFields(t.db, w.org.id);
    const res = await post(
      URL,
      w.body({ custom_fields: { po_number: 'PO-1', region: 'Borneo', weight_kg: '12.5', delivered_on: '2025-02-28', urgent: 'false' } }),
      w.org.owner.apiKey,
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().custom_fields).toEqual({ po_number: 'PO-1', region: 'Borneo', weight_kg: '12.5', delivered_on: '2025-02-28', urgent: 'false' });
  });

  it('takes quantity from a delivery line of the customer and records it as invoiced', async () => {
    const w = await world();
    const delivery = await createTradeLine(t.db, w.org.id, { customerId: w.customer.id, kind: 'delivery', reference: 'DO-1', description: 'Bolts', quantity: '100', quantityInvoiced: '40', unitCode: 'C62' });
    const ok = await post(URL, w.body({ lines: [w.line({ trade_line_id: delivery.id, quantity: '60', unit_code: 'C62', discount_amount: '0' })] }), w.org.owner.apiKey);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().lines[0]).toMatchObject({ trade_line_id: delivery.id, quantity: '60', unit_code: 'C62' });
    // Nothing left now: a second draft cannot take the same units.
    const again = await post(URL, w.body({ lines: [w.line({ trade_line_id: delivery.id, quantity: '0.5' })] }), w.org.owner.apiKey);
    const p = expectProblem(again, 422, 'validation');
    expect(p.errors).toEqual([{ pointer: '/lines/0/quantity', detail: expect.stringContaining('left on the trade line (0 base units)') }]);
  });

  it('attaches uploaded documents in the same step, in the order sent', async () => {
    const w = await world();
    const a = await uploadTestDocument(t.db, w.org.id, w.org.owner.id, 'a.pdf');
    const b = await uploadTestDocument(t.db, w.org.id, w.org.owner.id, 'b.pdf');
    const res = await post(URL, w.body({ attachment_ids: [b.id, a.id] }), w.org.owner.apiKey);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().attachment_ids).toEqual([b.id, a.id]);
  });

  it('works with an Idempotency-Key header present (idempotency itself is another step)', async () => {
    const w = await world();
    const res = await post(URL, w.body(), w.org.owner.apiKey, { 'idempotency-key': 'order-42' });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('is refused without authentication (401) and without receivables.invoice.create (403)', async () => {
    const w = await world();
    expectProblem(await post(URL, w.body()), 401, 'unauthenticated');
    const viewer = await createTestMember(t.db, w.org.id, { role: 'viewer' });
    const p = expectProblem(await post(URL, w.body(), viewer.apiKey), 403, 'forbidden');
    expect(p.detail).toContain('receivables.invoice.create');
  });
});

describe('GET /v1/receivables/invoices/{id}', () => {
  it('answers 404 for a random id, 400 for a malformed one, 403 without receivables.invoice.read', async () => {
    const w = await world();
    expectProblem(await get(`${URL}/${randomUUID()}`, w.org.owner.apiKey), 404, 'not_found');
    const bad = expectProblem(await get(`${URL}/nope`, w.org.owner.apiKey), 400, 'invalid_request');
    expect(bad.errors).toEqual([{ pointer: '/path/id', detail: 'must be a UUID' }]);
    const created = (await post(URL, w.body(), w.org.owner.apiKey)).json();
    const employee = await createTestMember(t.db, w.org.id, { role: 'employee' });
    expectProblem(await get(`${URL}/${created.id}`, employee.apiKey), 403, 'forbidden');
    const viewer = await createTestMember(t.db, w.org.id, { role: 'viewer' });
    expect((await get(`${URL}/${created.id}`, viewer.apiKey)).statusCode).toBe(200);
  });

  it('shows an issued invoice with reference, frozen buyer and seller, allocations, outstanding and timeline', async () => {
    const w = await world();
    const inv = await issuedInvoice(w);
    const { recordReceipt, allocate, reverseAllocation } = await import('../factories/receivables');
    const receipt = await recordReceipt(t.db, { organizationId: w.org.id, customerId: w.customer.id, reference: 'OR-1', currency: 'MYR', amount: '200.00', receivedOn: '2025-03-01', createdBy: w.org.owner.id });
    const first = await allocate(t.db, { organizationId: w.org.id, invoiceId: inv.id, receiptId: receipt.id, amount: '100.00', effectiveOn: '2025-03-01', createdBy: w.org.owner.id });
    await reverseAllocation(t.db, { organizationId: w.org.id, allocationId: first.id, effectiveOn: '2025-03-02', createdBy: w.org.owner.id });
    await allocate(t.db, { organizationId: w.org.id, invoiceId: inv.id, receiptId: receipt.id, amount: '79.62', effectiveOn: '2025-03-03', createdBy: w.org.owner.id });

    const res = await get(`${URL}/${inv.id}`, w.org.owner.apiKey);
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(res.headers.etag).toBe(`"${doc.revision}"`);
    expect(doc.revision).toBe(2);
    expect(doc).toMatchObject({ state: 'issued', semantic: 'accrual', gross_amount: '379.62', outstanding: '300.00', outstanding_base: '300.00' });
    expect(doc.reference).toMatch(/^INV-\d{4}-\d{5}$/);
    expect(doc.issued_at).toEqual(expect.any(String));
    expect(doc.buyer).toMatchObject({ name: expect.any(String), address: { country_code: 'MY' } });
    expect(doc.seller).toMatchObject({ name: expect.any(String) });
    expect(doc.timeline[0]).toEqual({ action_key: 'issue', actor_member_id: w.org.owner.id, decided_at: doc.issued_at, from: 'draft', to: 'issued', reason: 'Issued in a test' });
    // Every allocation write appends an entry (docs/design.md §16); the state stays.
    expect(doc.timeline.slice(1).map((e: any) => [e.action_key, e.from, e.to])).toEqual([
      ['allocate', 'issued', 'issued'],
      ['reverse_allocation', 'issued', 'issued'],
      ['allocate', 'issued', 'issued'],
    ]);
    expect(doc.allocations.map((a: any) => [a.amount, a.base_amount, a.source_kind, a.receipt_id, Boolean(a.reverses_id), Boolean(a.reversed_by_id)])).toEqual([
      ['100.00', '100.00', 'receipt', receipt.id, false, true],
      ['-100.00', '-100.00', 'receipt', receipt.id, true, false],
      ['79.62', '79.62', 'receipt', receipt.id, false, false],
    ]);
    expect(doc.allocations[0].reversed_by_id).toBe(doc.allocations[1].id);
    expect(doc.allocations[1].reverses_id).toBe(doc.allocations[0].id);
    // Issued: it may be disputed, or cancelled once nothing is allocated (an allocation is live here).
    expect(doc.available_transitions.map((x: any) => [x.action_key, x.allowed])).toEqual([
      ['dispute', true],
      ['cancel', false],
    ]);

    // The header keeps the same balance for lists.
    const { receivableDocuments } = await import('../../src/db/schema');
    const { and, eq } = await import('drizzle-orm');
    const [row] = await t.db
      .select({ o: receivableDocuments.outstanding, ob: receivableDocuments.outstandingBase })
      .from(receivableDocuments)
      .where(and(eq(receivableDocuments.organizationId, w.org.id), eq(receivableDocuments.id, inv.id)));
    expect([Number(row!.o).toFixed(2), Number(row!.ob).toFixed(2)]).toEqual(['300.00', '300.00']);
  });

  it('derives is_group_transaction from the counterparty map as at today', async () => {
    const w = await world();
    const sibling = await createTestOrganization(t.db);
    const { createCompanyGroup, mapCounterparty } = await import('../factories/setup');
    await createCompanyGroup(t.db, `G ${randomUUID()}`, [w.org.id, sibling.id]);
    const created = (await post(URL, w.body(), w.org.owner.apiKey)).json();
    expect(created.is_group_transaction).toBe(false);
    await mapCounterparty(t.db, { organizationId: w.org.id, customerId: w.customer.id, companyOrganizationId: sibling.id, validFrom: '2020-01-01' });
    expect((await get(`${URL}/${created.id}`, w.org.owner.apiKey)).json().is_group_transaction).toBe(true);
  });
});

describe('available_transitions of a fresh draft', () => {
  it('the preparer in an organization with several active members may not issue (self_approval)', async () => {
    const w = await world();
    const accountant = await createTestMember(t.db, w.org.id, { role: 'accountant' });
    const doc = (await post(URL, w.body(), accountant.apiKey)).json();
    const issue = doc.available_transitions.find((x: any) => x.action_key === 'issue');
    expect(issue).toMatchObject({ to: 'issued', gate: 'target', allowed: false, requires_reason: false, refusal: { code: 'self_approval' } });
    expect(issue.sole_owner_exception).toBeUndefined();
    expect(doc.available_transitions.find((x: any) => x.action_key === 'discard')).toMatchObject({ allowed: true, gate: 'reporter' });
    // The owner, who did not prepare it, may issue; and may not discard (reporter gate).
    const asOwner = (await get(`${URL}/${doc.id}`, w.org.owner.apiKey)).json();
    expect(asOwner.available_transitions.find((x: any) => x.action_key === 'issue')).toMatchObject({ allowed: true, requires_reason: false });
    expect(asOwner.available_transitions.find((x: any) => x.action_key === 'discard')).toMatchObject({ allowed: false, refusal: { code: 'not_reporter' } });
    // A clerk holds no issuing authority.
    const clerk = await createTestMember(t.db, w.org.id, { role: 'clerk' });
    const asClerk = (await get(`${URL}/${doc.id}`, clerk.apiKey)).json();
    expect(asClerk.available_transitions.find((x: any) => x.action_key === 'issue')).toMatchObject({ allowed: false });
  });

  it('the sole active member may issue their own document as the sole-owner exception, with a reason', async () => {
    const w = await world();
    const doc = (await post(URL, w.body(), w.org.owner.apiKey)).json();
    const issue = doc.available_transitions.find((x: any) => x.action_key === 'issue');
    expect(issue).toEqual({
      action_key: 'issue',
      to: 'issued',
      gate: 'target',
      allowed: true,
      labels: { en: 'Issue', ms: 'Keluarkan', zh: '开具' },
      requires_reason: true,
      sole_owner_exception: true,
    });
    // An inactive member does not count.
    await createTestMember(t.db, w.org.id, { role: 'clerk', active: false });
    const again = (await get(`${URL}/${doc.id}`, w.org.owner.apiKey)).json();
    expect(again.available_transitions.find((x: any) => x.action_key === 'issue').sole_owner_exception).toBe(true);
  });
});

interface Case {
  name: string;
  status: number;
  code: string;
  pointer: string;
  make: (w: World) => Promise<unknown> | unknown;
  token?: (w: World) => Promise<string>;
}

const cases: Case[] = [
  // 400: not of the endpoint's shape.
  { name: 'an unknown field', status: 400, code: 'invalid_request', pointer: '/colour', make: (w) => w.body({ colour: 'red' }) },
  { name: 'an unknown line field', status: 400, code: 'invalid_request', pointer: '/lines/0/colour', make: (w) => w.body({ lines: [w.line({ colour: 'red' })] }) },
  { name: 'a number where a decimal string is expected', status: 400, code: 'invalid_request', pointer: '/lines/0/quantity', make: (w) => w.body({ lines: [w.line({ quantity: 3 })] }) },
  { name: 'a malformed decimal', status: 400, code: 'invalid_request', pointer: '/lines/0/unit_price', make: (w) => w.body({ lines: [w.line({ unit_price: '1e3' })] }) },
  { name: 'a malformed fx_rate', status: 400, code: 'invalid_request', pointer: '/fx_rate', make: (w) => w.body({ currency: 'USD', fx_rate: '4,47' }) },
  { name: 'a malformed uuid', status: 400, code: 'invalid_request', pointer: '/customer_id', make: (w) => w.body({ customer_id: 'cust-1' }) },
  { name: 'an unknown kind', status: 400, code: 'invalid_request', pointer: '/kind', make: (w) => w.body({ kind: 'proforma_invoice' }) },
  { name: 'payment terms as a string (no coercion)', status: 400, code: 'invalid_request', pointer: '/payment_terms_days', make: (w) => w.body({ payment_terms_days: '30' }) },
  { name: 'payment terms not whole', status: 400, code: 'invalid_request', pointer: '/payment_terms_days', make: (w) => w.body({ payment_terms_days: 30.5 }) },
  { name: 'lines missing', status: 400, code: 'invalid_request', pointer: '/lines', make: (w) => ({ kind: 'sales_invoice', customer_id: w.customer.id }) },
  { name: 'a null customer', status: 400, code: 'invalid_request', pointer: '/customer_id', make: (w) => w.body({ customer_id: null }) },
  { name: 'custom field value not a string', status: 400, code: 'invalid_request', pointer: '/custom_fields/urgent', make: (w) => w.body({ custom_fields: { urgent: false } }) },
  { name: 'an array body', status: 400, code: 'invalid_request', pointer: '', make: (w) => [w.body()] },
  // 422 validation: header rules.
  { name: 'an unknown customer', status: 422, code: 'validation', pointer: '/customer_id', make: (w) => w.body({ customer_id: randomUUID() }) },
  {
    name: 'an inactive customer',
    status: 422,
    code: 'validation',
    pointer: '/customer_id',
    make: async (w) => w.body({ customer_id: (await createTestCustomer(t.db, w.org.id, { isActive: false })).id }),
  },
  { name: 'an unknown currency', status: 422, code: 'validation', pointer: '/currency', make: (w) => w.body({ currency: 'XYZ' }) },
  { name: 'a foreign currency without fx_rate', status: 422, code: 'validation', pointer: '/fx_rate', make: (w) => w.body({ currency: 'USD' }) },
  { name: 'fx_rate other than 1 in the base currency', status: 422, code: 'validation', pointer: '/fx_rate', make: (w) => w.body({ fx_rate: '1.01' }) },
  { name: 'a zero fx_rate', status: 422, code: 'validation', pointer: '/fx_rate', make: (w) => w.body({ currency: 'USD', fx_rate: '0' }) },
  { name: 'fx_rate with 11 places', status: 422, code: 'validation', pointer: '/fx_rate', make: (w) => w.body({ currency: 'USD', fx_rate: '4.47120000001' }) },
  { name: 'fx_rate 1 with 11 places in the base currency', status: 422, code: 'validation', pointer: '/fx_rate', make: (w) => w.body({ fx_rate: '1.00000000000' }) },
  { name: 'an fx_rate out of range', status: 422, code: 'validation', pointer: '/fx_rate', make: (w) => w.body({ currency: 'USD', fx_rate: '99999999999999999999' }) },
  { name: 'payment terms above 365', status: 422, code: 'validation', pointer: '/payment_terms_days', make: (w) => w.body({ payment_terms_days: 366 }) },
  { name: 'negative payment terms', status: 422, code: 'validation', pointer: '/payment_terms_days', make: (w) => w.body({ payment_terms_days: -1 }) },
  { name: 'a customer reference over 100 characters', status: 422, code: 'validation', pointer: '/customer_reference', make: (w) => w.body({ customer_reference: 'x'.repeat(101) }) },
  { name: 'no lines', status: 422, code: 'validation', pointer: '/lines', make: (w) => w.body({ lines: [] }) },
  { name: 'a reason on a sales invoice', status: 422, code: 'validation', pointer: '/reason', make: (w) => w.body({ reason: 'Because' }) },
  { name: 'an original invoice on a sales invoice', status: 422, code: 'validation', pointer: '/original_invoice_id', make: async (w) => w.body({ original_invoice_id: (await issuedInvoice(w)).id }) },
  {
    name: 'a credit note without a reason',
    status: 422,
    code: 'validation',
    pointer: '/reason',
    make: async (w) => w.body({ kind: 'customer_credit_note', original_invoice_id: (await issuedInvoice(w)).id }),
  },
  {
    name: 'a credit note with a blank reason',
    status: 422,
    code: 'validation',
    pointer: '/reason',
    make: async (w) => w.body({ kind: 'customer_credit_note', reason: '  ', original_invoice_id: (await issuedInvoice(w)).id }),
  },
  { name: 'a credit note without an original invoice', status: 422, code: 'validation', pointer: '/original_invoice_id', make: (w) => w.body({ kind: 'customer_credit_note', reason: 'Returned' }) },
  {
    name: 'a credit note against a draft invoice',
    status: 422,
    code: 'validation',
    pointer: '/original_invoice_id',
    make: async (w) => w.body({ kind: 'customer_credit_note', reason: 'Returned', original_invoice_id: (await post(URL, w.body(), w.org.owner.apiKey)).json().id }),
  },
  {
    name: "a credit note against another customer's invoice",
    status: 422,
    code: 'validation',
    pointer: '/original_invoice_id',
    make: async (w) => {
      const other = await createTestCustomer(t.db, w.org.id);
      const inv = await issuedInvoice(w, { customer_id: other.id });
      return w.body({ kind: 'customer_credit_note', reason: 'Returned', original_invoice_id: inv.id });
    },
  },
  {
    name: 'a credit note in another currency than its invoice',
    status: 422,
    code: 'validation',
    pointer: '/original_invoice_id',
    make: async (w) => {
      const inv = await issuedInvoice(w);
      return w.body({ kind: 'customer_credit_note', reason: 'Returned', original_invoice_id: inv.id, currency: 'USD', fx_rate: '4.4712' });
    },
  },
  {
    name: 'a credit note above what is left to credit',
    status: 422,
    code: 'validation',
    pointer: '/lines',
    make: async (w) => {
      const inv = await issuedInvoice(w); // gross 379.62
      return w.body({ kind: 'customer_credit_note', reason: 'Returned', original_invoice_id: inv.id, lines: [w.line({ tax_code_id: w.ref.na.id, quantity: '1', unit_price: '379.63', discount_amount: '0' })] });
    },
  },
  // 422 validation: line rules.
  { name: 'an unknown account', status: 422, code: 'validation', pointer: '/lines/0/account_id', make: (w) => w.body({ lines: [w.line({ account_id: randomUUID() })] }) },
  { name: 'an inactive account', status: 422, code: 'validation', pointer: '/lines/0/account_id', make: (w) => w.body({ lines: [w.line({ account_id: w.ref.retiredAccount.id })] }) },
  { name: 'no account and no customer default', status: 422, code: 'validation', pointer: '/lines/0/account_id', make: (w) => w.body({ lines: [w.line({ account_id: undefined })] }) },
  { name: 'an unknown tax code', status: 422, code: 'validation', pointer: '/lines/0/tax_code_id', make: (w) => w.body({ lines: [w.line({ tax_code_id: randomUUID() })] }) },
  { name: 'an inactive tax code', status: 422, code: 'validation', pointer: '/lines/0/tax_code_id', make: (w) => w.body({ lines: [w.line({ tax_code_id: w.ref.retiredTax.id })] }) },
  { name: 'an exempt line without a reason', status: 422, code: 'validation', pointer: '/lines/0/tax_exemption_reason', make: (w) => w.body({ lines: [w.line({ tax_code_id: w.ref.exempt.id })] }) },
  {
    name: 'an exemption reason over 300 characters',
    status: 422,
    code: 'validation',
    pointer: '/lines/0/tax_exemption_reason',
    make: (w) => w.body({ lines: [w.line({ tax_code_id: w.ref.exempt.id, tax_exemption_reason: 'x'.repeat(301) })] }),
  },
  { name: 'an exemption reason on a taxed line', status: 422, code: 'validation', pointer: '/lines/0/tax_exemption_reason', make: (w) => w.body({ lines: [w.line({ tax_exemption_reason: 'Exempt' })] }) },
  { name: 'an unknown classification code', status: 422, code: 'validation', pointer: '/lines/0/classification_code', make: (w) => w.body({ lines: [w.line({ classification_code: '046' })] }) },
  { name: 'an unknown unit code', status: 422, code: 'validation', pointer: '/lines/0/unit_code', make: (w) => w.body({ lines: [w.line({ unit_code: 'BOGUS' })] }) },
  { name: 'a zero quantity', status: 422, code: 'validation', pointer: '/lines/0/quantity', make: (w) => w.body({ lines: [w.line({ quantity: '0' })] }) },
  { name: 'a negative quantity', status: 422, code: 'validation', pointer: '/lines/0/quantity', make: (w) => w.body({ lines: [w.line({ quantity: '-1' })] }) },
  { name: 'a quantity with 11 places', status: 422, code: 'validation', pointer: '/lines/0/quantity', make: (w) => w.body({ lines: [w.line({ quantity: '1.00000000001' })] }) },
  { name: 'a unit price with more than 6 places', status: 422, code: 'validation', pointer: '/lines/0/unit_price', make: (w) => w.body({ lines: [w.line({ unit_price: '1.0000005' })] }) },
  { name: 'a negative unit price', status: 422, code: 'validation', pointer: '/lines/0/unit_price', make: (w) => w.body({ lines: [w.line({ unit_price: '-1.00' })] }) },
  { name: 'a negative discount', status: 422, code: 'validation', pointer: '/lines/0/discount_amount', make: (w) => w.body({ lines: [w.line({ discount_amount: '-1.00' })] }) },
  { name: 'a discount above the line', status: 422, code: 'validation', pointer: '/lines/0/discount_amount', make: (w) => w.body({ lines: [w.line({ discount_amount: '361.51' })] }) },
  { name: 'a blank description', status: 422, code: 'validation', pointer: '/lines/0/description', make: (w) => w.body({ lines: [w.line({ description: '   ' })] }) },
  { name: 'a description over 500 characters', status: 422, code: 'validation', pointer: '/lines/0/description', make: (w) => w.body({ lines: [w.line({ description: 'd'.repeat(501) })] }) },
  {
    name: 'an unknown analytic account',
    status: 422,
    code: 'validation',
    pointer: '/lines/0/shares/0/analytic_account_id',
    make: (w) => w.body({ lines: [w.line({ shares: [{ analytic_account_id: randomUUID(), percentage: '100' }] })] }),
  },
  {
    name: 'an inactive analytic account',
    status: 422,
    code: 'validation',
    pointer: '/lines/0/shares/0/analytic_account_id',
    make: (w) => w.body({ lines: [w.line({ shares: [{ analytic_account_id: w.ref.closedProject.id, percentage: '100' }] })] }),
  },
  {
    name: 'the same analytic account twice',
    status: 422,
    code: 'validation',
    pointer: '/lines/0/shares/1/analytic_account_id',
    make: (w) => w.body({ lines: [w.line({ shares: [{ analytic_account_id: w.ref.alpha.id, percentage: '50' }, { analytic_account_id: w.ref.alpha.id, percentage: '50' }] })] }),
  },
  {
    name: 'shares of an axis not summing to 100',
    status: 422,
    code: 'validation',
    pointer: '/lines/0/shares',
    make: (w) => w.body({ lines: [w.line({ shares: [{ analytic_account_id: w.ref.alpha.id, percentage: '50' }, { analytic_account_id: w.ref.beta.id, percentage: '49.9999999999' }] })] }),
  },
  {
    name: 'a share above 100',
    status: 422,
    code: 'validation',
    pointer: '/lines/0/shares/0/percentage',
    make: (w) => w.body({ lines: [w.line({ shares: [{ analytic_account_id: w.ref.alpha.id, percentage: '150' }, { analytic_account_id: w.ref.beta.id, percentage: '-50' }] })] }),
  },
  { name: 'an unknown trade line', status: 422, code: 'validation', pointer: '/lines/0/trade_line_id', make: (w) => w.body({ lines: [w.line({ trade_line_id: randomUUID() })] }) },
  {
    name: "a trade line of another customer",
    status: 422,
    code: 'validation',
    pointer: '/lines/0/trade_line_id',
    make: async (w) => {
      const other = await createTestCustomer(t.db, w.org.id);
      const tl = await createTradeLine(t.db, w.org.id, { customerId: other.id, kind: 'delivery', reference: 'DO-9', description: 'x', quantity: '10' });
      return w.body({ lines: [w.line({ trade_line_id: tl.id, quantity: '1' })] });
    },
  },
  {
    name: 'a sales return line on an invoice',
    status: 422,
    code: 'validation',
    pointer: '/lines/0/trade_line_id',
    make: async (w) => {
      const tl = await createTradeLine(t.db, w.org.id, { customerId: w.customer.id, kind: 'sales_return', reference: 'RN-1', description: 'x', quantity: '10' });
      return w.body({ lines: [w.line({ trade_line_id: tl.id, quantity: '1' })] });
    },
  },
  {
    name: 'a delivery line on a credit note',
    status: 422,
    code: 'validation',
    pointer: '/lines/0/trade_line_id',
    make: async (w) => {
      const inv = await issuedInvoice(w);
      const tl = await createTradeLine(t.db, w.org.id, { customerId: w.customer.id, kind: 'delivery', reference: 'DO-2', description: 'x', quantity: '10' });
      return w.body({ kind: 'customer_credit_note', reason: 'Returned', original_invoice_id: inv.id, lines: [w.line({ trade_line_id: tl.id, quantity: '1', unit_price: '1.00', discount_amount: '0' })] });
    },
  },
  {
    name: 'more than is left on a trade line, over two lines',
    status: 422,
    code: 'validation',
    pointer: '/lines/1/quantity',
    make: async (w) => {
      const tl = await createTradeLine(t.db, w.org.id, { customerId: w.customer.id, kind: 'delivery', reference: 'DO-3', description: 'x', quantity: '10', quantityInvoiced: '4' });
      return w.body({ lines: [w.line({ trade_line_id: tl.id, quantity: '5' }), w.line({ trade_line_id: tl.id, quantity: '1.5' })] });
    },
  },
  // 422 validation: values out of range (docs/design.md §4; the columns are numeric(20,4) and numeric(24,10)).
  { name: 'a quantity out of range', status: 422, code: 'validation', pointer: '/lines/0/quantity', make: (w) => w.body({ lines: [w.line({ quantity: '99999999999999999999999999' })] }) },
  { name: 'a unit price out of range', status: 422, code: 'validation', pointer: '/lines/0/unit_price', make: (w) => w.body({ lines: [w.line({ unit_price: '1000000000000000.00' })] }) },
  {
    name: 'a discount out of range',
    status: 422,
    code: 'validation',
    pointer: '/lines/0/discount_amount',
    // The net amount (1.00) is in range; the discount alone is not.
    make: (w) => w.body({ lines: [w.line({ quantity: '100', unit_price: '900000000000000.00', discount_amount: '89999999999999999.00' })] }),
  },
  {
    name: 'a share percentage far out of range',
    status: 422,
    code: 'validation',
    pointer: '/lines/0/shares/0/percentage',
    make: (w) => w.body({ lines: [w.line({ shares: [{ analytic_account_id: w.ref.alpha.id, percentage: '99999999999999999999999999' }] })] }),
  },
  {
    name: 'quantity × unit price out of range',
    status: 422,
    code: 'validation',
    pointer: '/lines/0/unit_price',
    make: (w) => w.body({ lines: [w.line({ quantity: '9999999999', unit_price: '999999999.00', discount_amount: '0' })] }),
  },
  {
    name: 'a line base amount out of range at the fx rate',
    status: 422,
    code: 'validation',
    pointer: '/lines/0/unit_price',
    make: (w) => w.body({ currency: 'USD', fx_rate: '1000', lines: [w.line({ quantity: '1', unit_price: '10000000000000.00', discount_amount: '0' })] }),
  },
  {
    name: 'document totals out of range',
    status: 422,
    code: 'validation',
    pointer: '/lines',
    make: (w) => {
      const big = w.line({ tax_code_id: w.ref.na.id, quantity: '1', unit_price: '600000000000000.00', discount_amount: '0' });
      return w.body({ lines: [big, big] });
    },
  },
  {
    name: 'a document base total out of range',
    status: 422,
    code: 'validation',
    pointer: '/lines',
    make: (w) => {
      const big = w.line({ tax_code_id: w.ref.na.id, quantity: '1', unit_price: '150000000000000.00', discount_amount: '0' });
      return w.body({ currency: 'USD', fx_rate: '4', lines: [big, big] });
    },
  },
  // 422 custom_field_invalid.
  { name: 'an unknown custom field', status: 422, code: 'custom_field_invalid', pointer: '/custom_fields/colour', make: (w) => w.body({ custom_fields: { po_number: 'P', colour: 'red' } }) },
  { name: 'a retired custom field', status: 422, code: 'custom_field_invalid', pointer: '/custom_fields/legacy_code', make: (w) => w.body({ custom_fields: { po_number: 'P', legacy_code: 'L' } }) },
  { name: 'a required custom field left out', status: 422, code: 'custom_field_invalid', pointer: '/custom_fields/po_number', make: (w) => w.body({ custom_fields: { region: 'Central' } }) },
  { name: 'a select value not among the options', status: 422, code: 'custom_field_invalid', pointer: '/custom_fields/region', make: (w) => w.body({ custom_fields: { po_number: 'P', region: 'Mars' } }) },
  { name: 'a number field that is not a number', status: 422, code: 'custom_field_invalid', pointer: '/custom_fields/weight_kg', make: (w) => w.body({ custom_fields: { po_number: 'P', weight_kg: 'heavy' } }) },
  { name: 'a date field that is not a date', status: 422, code: 'custom_field_invalid', pointer: '/custom_fields/delivered_on', make: (w) => w.body({ custom_fields: { po_number: 'P', delivered_on: '2025-02-30' } }) },
  { name: 'a boolean field that is not true/false', status: 422, code: 'custom_field_invalid', pointer: '/custom_fields/urgent', make: (w) => w.body({ custom_fields: { po_number: 'P', urgent: 'yes' } }) },
  // Attachments.
  { name: 'an unknown document', status: 422, code: 'document_unknown', pointer: '/attachment_ids/0', make: (w) => w.body({ attachment_ids: [randomUUID()] }) },
  {
    name: "someone else's document",
    status: 422,
    code: 'document_not_yours',
    pointer: '/attachment_ids/1',
    make: async (w) => {
      const mine = await uploadTestDocument(t.db, w.org.id, w.org.owner.id);
      const clerk = await createTestMember(t.db, w.org.id, { role: 'clerk' });
      const theirs = await uploadTestDocument(t.db, w.org.id, clerk.id);
      return w.body({ attachment_ids: [mine.id, theirs.id] });
    },
  },
  {
    name: 'a document bound to another record',
    status: 409,
    code: 'document_bound_elsewhere',
    pointer: '/attachment_ids/0',
    make: async (w) => {
      const doc = await uploadTestDocument(t.db, w.org.id, w.org.owner.id);
      const first = await post(URL, w.body({ attachment_ids: [doc.id] }), w.org.owner.apiKey);
      expect(first.statusCode).toBe(201);
      return w.body({ attachment_ids: [doc.id] });
    },
  },
  {
    name: 'the same document twice',
    status: 422,
    code: 'validation',
    pointer: '/attachment_ids/1',
    make: async (w) => {
      const doc = await uploadTestDocument(t.db, w.org.id, w.org.owner.id);
      return w.body({ attachment_ids: [doc.id, doc.id] });
    },
  },
];

describe('POST /v1/receivables/invoices refusals (contract 4.1): status, code, field, and nothing left behind', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const w = await world();
    if (c.code === 'custom_field_invalid') await createTestCustomFields(t.db, w.org.id);
    const payload = await c.make(w);
    const before = await countTenantRows(t.db, w.org.id);
    const tradeBefore = await tradeLinesState(w.org.id);
    const res = await post(URL, payload, w.org.owner.apiKey);
    const p = expectProblem(res, c.status, c.code);
    if (c.pointer) expect(p.errors?.map((e) => e.pointer), JSON.stringify(p)).toContain(c.pointer);
    expect(p.detail).toContain(c.pointer ? c.pointer.slice(1).replace(/\//g, '.') : '');
    expect(await countTenantRows(t.db, w.org.id)).toEqual(before);
    expect(await tradeLinesState(w.org.id)).toEqual(tradeBefore);
  });

  it('reports every refused rule of the header and lines together', async () => {
    const w = await world();
    const res = await post(URL, w.body({ currency: 'USD', lines: [w.line({ account_id: randomUUID() }), w.line({ quantity: '0', classification_code: '999' })] }), w.org.owner.apiKey);
    const p = expectProblem(res, 422, 'validation');
    expect(p.errors!.map((e) => e.pointer).sort()).toEqual(['/fx_rate', '/lines/0/account_id', '/lines/1/classification_code', '/lines/1/quantity']);
  });

  it('a malformed JSON body and a missing body are 400', async () => {
    const w = await world();
    expectProblem(await post(URL, '{"kind":', w.org.owner.apiKey), 400, 'invalid_request');
    const res = await t.app.inject({ method: 'POST', url: URL, headers: { authorization: `Bearer ${w.org.owner.apiKey}` } });
    expectProblem(res, 400, 'invalid_request');
  });
});

async function tradeLinesState(organizationId: string) {
  const { tradeLines } = await import('../../src/db/schema');
  const { eq } = await import('drizzle-orm');
  return t.db.select({ id: tradeLines.id, q: tradeLines.quantityInvoiced }).from(tradeLines).where(eq(tradeLines.organizationId, organizationId)).orderBy(tradeLines.id);
}
