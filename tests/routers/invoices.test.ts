import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createHttpClient, createInProcessClient } from '../../src/client';
import { createTestCustomer } from '../factories/customer';
import { createTestOrganization } from '../factories/organization';
import { createReceivablesSetup, issueTestDocument } from '../factories/receivables';
import { useTestApp } from '../helpers/app';

const t = useTestApp();

describe('receivables.invoices through every kind of caller', () => {
  it('REST, the typed HTTP client and the in-process caller answer the same JSON', async () => {
    const org = await createTestOrganization(t.db);
    const ref = await createReceivablesSetup(t.db, org.id);
    const customer = await createTestCustomer(t.db, org.id, { currency: 'USD' });
    const caller = createInProcessClient(t.deps, { token: org.owner.session });
    const created = await caller.receivables.invoices.create({
      kind: 'sales_invoice',
      customer_id: customer.id,
      fx_rate: '4.4712',
      lines: [{ account_id: ref.services.id, description: 'Support', quantity: '10', unit_price: '99.99', tax_code_id: ref.sv8.id, shares: [{ analytic_account_id: ref.alpha.id, percentage: '100' }] }],
    });
    expect(created).toMatchObject({ currency: 'USD', gross_amount: '1079.89', gross_base: '4828.40' });
    await issueTestDocument(t.db, org.id, created.id, org.owner.id);

    const rest = await t.app.inject({ method: 'GET', url: `/v1/receivables/invoices/${created.id}`, headers: { authorization: `Bearer ${org.owner.apiKey}` } });
    expect(rest.statusCode).toBe(200);
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const http = createHttpClient({ baseUrl: address, token: org.owner.apiKey });
    const viaHttp = await http.receivables.invoices.get.query({ id: created.id });
    const viaCaller = await caller.receivables.invoices.get({ id: created.id });
    expect(viaHttp).toEqual(rest.json());
    expect(viaCaller).toEqual(rest.json());
    expect(viaCaller.reference).toMatch(/^INV-/);

    // A write through the typed client answers the same document as REST would.
    const viaHttpCreate = await http.receivables.invoices.create.mutate({
      kind: 'sales_invoice',
      customer_id: customer.id,
      fx_rate: '4.4712',
      lines: [{ account_id: ref.services.id, description: 'Support', quantity: '1', unit_price: '0.05', tax_code_id: ref.sv8.id }],
    }, { context: { idempotencyKey: randomUUID() } });
    expect(viaHttpCreate.gross_base).toBe('0.22');
  });

  it('refusals reach tRPC callers with the same problem', async () => {
    const org = await createTestOrganization(t.db);
    const customer = await createTestCustomer(t.db, org.id);
    const caller = createInProcessClient(t.deps, { token: org.owner.apiKey, idempotencyKey: randomUUID() });
    const err = await caller.receivables.invoices
      .create({ kind: 'sales_invoice', customer_id: customer.id, lines: [{ description: 'x', quantity: '1', unit_price: '1.00' }] })
      .catch((e) => e);
    expect(err.appCode).toBe('validation');
    expect(err.fieldErrors.map((e: any) => e.pointer)).toEqual(['/lines/0/account_id', '/lines/0/tax_code_id']);
    // The coercion trap: a string where a number belongs stays a 400 after REST calls too.
    const coerced = await caller.receivables.invoices
      .create({ kind: 'sales_invoice', customer_id: customer.id, payment_terms_days: '30' as never, lines: [{ description: 'x', quantity: '1', unit_price: '1.00' }] })
      .catch((e) => e);
    expect(coerced.appCode).toBe('invalid_request');
  });
});
