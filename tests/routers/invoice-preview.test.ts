import { describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { createInProcessClient } from '../../src/client';
import { receivableDocuments } from '../../src/db/schema/receivables';
import { createTestCustomer } from '../factories/customer';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { createReceivablesSetup, issueTestDocument } from '../factories/receivables';
import { useTestApp } from '../helpers/app';

const t = useTestApp();

const documentsOf = async (organizationId: string) =>
  (await t.db.select({ n: count() }).from(receivableDocuments).where(eq(receivableDocuments.organizationId, organizationId)))[0]!.n;

/**
 * receivables.invoices.preview: the draft editor's totals, priced by the same steps as create, with
 * what create would refuse, and nothing written.
 */
describe('receivables.invoices.preview', () => {
  it('prices the lines exactly as create does, in a foreign currency, and writes nothing', async () => {
    const org = await createTestOrganization(t.db);
    const ref = await createReceivablesSetup(t.db, org.id);
    const customer = await createTestCustomer(t.db, org.id, { currency: 'USD' });
    const caller = createInProcessClient(t.deps, { token: org.owner.session });
    const input = {
      kind: 'sales_invoice' as const,
      customer_id: customer.id,
      fx_rate: '4.4712',
      lines: [
        { account_id: ref.services.id, description: 'Support', quantity: '10', unit_price: '99.99', tax_code_id: ref.sv8.id },
        { account_id: ref.revenue.id, description: 'Diesel', quantity: '3.5', unit_price: '2.055', discount_amount: '0.50', tax_code_id: ref.st10.id },
      ],
    };
    const before = await documentsOf(org.id);
    const preview = await caller.receivables.invoices.preview(input);
    expect(await documentsOf(org.id)).toBe(before);
    expect(preview).toEqual({
      currency: 'USD',
      base_currency: 'MYR',
      fx_rate: '4.4712',
      payment_terms_days: expect.any(Number),
      lines: [
        { net_amount: '999.90', tax_amount: '79.99', tax_rate: '8', tax_code: 'SV8' },
        { net_amount: '6.69', tax_amount: '0.67', tax_rate: '10', tax_code: 'ST10' },
      ],
      net_total: '1006.59',
      tax_total: '80.66',
      gross_amount: '1087.25',
      gross_base: preview.gross_base,
      errors: [],
    });
    const created = await caller.receivables.invoices.create(input);
    expect({ net: created.net_total, tax: created.tax_total, gross: created.gross_amount, base: created.gross_base }).toEqual({
      net: preview.net_total,
      tax: preview.tax_total,
      gross: preview.gross_amount,
      base: preview.gross_base,
    });
    expect(created.lines.map((l) => l.net_amount)).toEqual(['999.90', '6.69']);
  });

  it('answers the faults create would refuse, beside the totals of the lines that hold', async () => {
    const org = await createTestOrganization(t.db);
    const ref = await createReceivablesSetup(t.db, org.id);
    const customer = await createTestCustomer(t.db, org.id);
    const caller = createInProcessClient(t.deps, { token: org.owner.session });
    const preview = await caller.receivables.invoices.preview({
      kind: 'sales_invoice',
      customer_id: customer.id,
      lines: [
        { account_id: ref.services.id, description: 'Support', quantity: '2', unit_price: '50.00', tax_code_id: ref.sv8.id },
        { account_id: ref.services.id, description: ' ', quantity: '1', unit_price: '10.00', tax_code_id: ref.retiredTax.id },
        { account_id: ref.services.id, description: 'Too generous', quantity: '1', unit_price: '10.00', discount_amount: '11.00', tax_code_id: ref.sv8.id },
      ],
    });
    expect(preview.lines).toEqual([{ net_amount: '100.00', tax_amount: '8.00', tax_rate: '8', tax_code: 'SV8' }, null, null]);
    expect({ net: preview.net_total, gross: preview.gross_amount }).toEqual({ net: '100.00', gross: '108.00' });
    expect(preview.errors.map((e) => e.pointer)).toEqual(['/lines/1/description', '/lines/1/tax_code_id', '/lines/2/discount_amount']);
    // Create refuses the same draft at the same fields.
    const refused = await caller.receivables.invoices
      .create({ kind: 'sales_invoice', customer_id: customer.id, lines: [{ account_id: ref.services.id, description: ' ', quantity: '1', unit_price: '10.00', tax_code_id: ref.retiredTax.id }] })
      .catch((e) => e);
    expect(refused.fieldErrors.map((e: { pointer: string }) => e.pointer)).toEqual(['/lines/0/description', '/lines/0/tax_code_id']);
  });

  it('says when a credit note credits more than its invoice has left', async () => {
    const org = await createTestOrganization(t.db);
    const ref = await createReceivablesSetup(t.db, org.id);
    const customer = await createTestCustomer(t.db, org.id);
    const caller = createInProcessClient(t.deps, { token: org.owner.session });
    const invoice = await caller.receivables.invoices.create({
      kind: 'sales_invoice',
      customer_id: customer.id,
      lines: [{ account_id: ref.services.id, description: 'Support', quantity: '1', unit_price: '100.00', tax_code_id: ref.sv8.id }],
    });
    await issueTestDocument(t.db, org.id, invoice.id, org.owner.id);
    const preview = await caller.receivables.invoices.preview({
      kind: 'customer_credit_note',
      customer_id: customer.id,
      original_invoice_id: invoice.id,
      reason: 'Returned',
      lines: [{ account_id: ref.services.id, description: 'Support', quantity: '2', unit_price: '100.00', tax_code_id: ref.sv8.id }],
    });
    expect(preview.gross_amount).toBe('216.00');
    expect(preview.errors).toEqual([{ pointer: '/lines', detail: expect.stringContaining('more than is left to credit') }]);
  });

  it('needs receivables.invoice.create; an unknown customer is a fault, not a failure', async () => {
    const org = await createTestOrganization(t.db);
    const viewer = await createTestMember(t.db, org.id, { role: 'viewer' });
    const customer = await createTestCustomer(t.db, org.id);
    const body = { kind: 'sales_invoice' as const, customer_id: customer.id, lines: [{ description: 'x', quantity: '1', unit_price: '1.00' }] };
    const refused = await createInProcessClient(t.deps, { token: viewer.session }).receivables.invoices.preview(body).catch((e) => e);
    expect(refused.appCode).toBe('forbidden');
    const unknown = await createInProcessClient(t.deps, { token: org.owner.session }).receivables.invoices.preview({ ...body, customer_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.errors[0]).toEqual({ pointer: '/customer_id', detail: 'no such customer in this organization' });
  });
});
