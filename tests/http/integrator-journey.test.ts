import { describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/services/access/admin';
import { createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';

/**
 * A REST-only integrator, from nothing to a prepared invoice for a new customer: every step over
 * /v1 with an integration key holding only what the job needs. The organization and its owner are
 * made as every REST test makes them; nothing else is written to the database directly.
 */
const t = useTestApp();
const { post, get } = httpHelpers(t);

describe('an integrator over /v1 only', () => {
  it('creates a customer, reads accounts and tax codes, prepares an invoice with them and reads it back', async () => {
    const org = await createTestOrganization(t.db);
    const key = await createApiKey(t.db, {
      organizationId: org.id,
      ownerMemberId: org.owner.id,
      name: 'Storefront integration',
      permissions: ['receivables.customer.create', 'receivables.customer.read', 'receivables.invoice.create', 'receivables.invoice.read', 'organization.settings.read'],
    });
    const token = key.token;

    // 1. The customer.
    const customerRes = await post(
      '/v1/receivables/customers',
      { code: 'CUST-0001', legal_name: 'Kedai Runcit Maju Sdn Bhd', currency: 'MYR', payment_terms_days: 14, tin: 'C20880050010', registration_type: 'brn', registration_no: '201901000005' },
      token,
    );
    expect(customerRes.statusCode, customerRes.body).toBe(201);
    const customer = customerRes.json();
    expect(customer).toMatchObject({ code: 'CUST-0001', payment_terms_days: 14, currency: 'MYR' });

    // 2. The reference data its line needs, by code.
    const accountsRes = await get('/v1/settings/accounts?limit=100', token);
    expect(accountsRes.statusCode, accountsRes.body).toBe(200);
    const revenue = (accountsRes.json().items as any[]).find((a) => a.type === 'revenue' && a.code === '4020');
    expect(revenue).toMatchObject({ active: true, name: expect.any(String) });
    const taxRes = await get('/v1/settings/tax-codes?limit=100', token);
    expect(taxRes.statusCode, taxRes.body).toBe(200);
    const sv8 = (taxRes.json().items as any[]).find((c) => c.code === 'SV-8');
    expect(sv8).toMatchObject({ rate: '8', tax_type: '02', active: true });

    // 3. The invoice: 3 × 150.00 less 20.00, service tax 8%.
    const created = await post(
      '/v1/receivables/invoices',
      {
        kind: 'sales_invoice',
        customer_id: customer.id,
        customer_reference: 'ORDER-5521',
        lines: [{ account_id: revenue.id, description: 'Installation service', quantity: '3', unit_price: '150.00', discount_amount: '20.00', tax_code_id: sv8.id }],
      },
      token,
    );
    expect(created.statusCode, created.body).toBe(201);
    const draft = created.json();
    expect(created.headers.location).toBe(`/v1/receivables/invoices/${draft.id}`);
    expect(draft).toMatchObject({
      kind: 'sales_invoice',
      state: 'draft',
      reference: null,
      customer_id: customer.id,
      currency: 'MYR',
      payment_terms_days: 14,
      net_total: '430.00',
      tax_total: '34.40',
      gross_amount: '464.40',
    });
    expect(draft.lines).toEqual([
      expect.objectContaining({ account_id: revenue.id, tax_code_id: sv8.id, quantity: '3', net_amount: '430.00', tax_amount: '34.40' }),
    ]);

    // 4. Read back, alone and in the list filtered to the customer's drafts.
    const read = await get(`/v1/receivables/invoices/${draft.id}`, token);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual(draft);
    const listed = await get(`/v1/receivables/invoices?customer_id=${customer.id}&state=draft`, token);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().documents.map((d: any) => [d.id, d.gross_amount])).toEqual([[draft.id, '464.40']]);
  });
});
