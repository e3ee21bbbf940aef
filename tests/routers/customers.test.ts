import { describe, expect, it } from 'vitest';
import { createHttpClient, createInProcessClient } from '../../src/client';
import { createTestCustomer } from '../factories/customer';
import { createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';

const t = useTestApp();

describe('receivables.customers.get through every kind of caller', () => {
  it('REST, the typed HTTP client and the in-process caller answer the same JSON', async () => {
    const org = await createTestOrganization(t.db);
    const customer = await createTestCustomer(t.db, org.id, { currency: 'USD', countryCode: 'US', paymentTermsDays: 60 });

    const rest = await t.app.inject({ method: 'GET', url: `/v1/receivables/customers/${customer.id}`, headers: { authorization: `Bearer ${org.owner.apiKey}` } });
    expect(rest.statusCode).toBe(200);

    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const http = createHttpClient({ baseUrl: address, token: org.owner.apiKey });
    const viaHttp = await http.receivables.customers.get.query({ id: customer.id });

    const caller = createInProcessClient(t.deps, { token: org.owner.session });
    const viaCaller = await caller.receivables.customers.get({ id: customer.id });

    expect(viaHttp).toEqual(rest.json());
    expect(viaCaller).toEqual(rest.json());
    expect(viaCaller.payment_terms_days).toBe(60);
  });

  it('the in-process caller gets the same refusals, with the problem in error.data', async () => {
    const org = await createTestOrganization(t.db);
    const other = await createTestOrganization(t.db);
    const foreign = await createTestCustomer(t.db, other.id);
    const caller = createInProcessClient(t.deps, { token: org.owner.apiKey });
    await expect(caller.receivables.customers.get({ id: foreign.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    const err = await caller.receivables.customers.get({ id: 'nope' }).catch((e) => e);
    expect(err.appCode).toBe('invalid_request');
    const anon = createInProcessClient(t.deps, { token: 'garbage' });
    await expect(anon.receivables.customers.get({ id: foreign.id })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('the typed HTTP client receives the problem in error.data.problem', async () => {
    const org = await createTestOrganization(t.db);
    const address = t.app.server.listening ? `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}` : await t.app.listen({ port: 0, host: '127.0.0.1' });
    const http = createHttpClient({ baseUrl: address, token: org.owner.apiKey });
    const err = await http.receivables.customers.get.query({ id: crypto.randomUUID() }).catch((e) => e);
    expect(err.data.problem).toMatchObject({ status: 404, code: 'not_found', type: '/problems/not_found' });
  });
});
