import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { queryRows, sql } from '../../src/db/client';
import { countryAlpha2, countryAlpha3, countryCodes, isCountryCode } from '../../src/lib/code-lists';
import { createOrganization } from '../../src/services/access/admin';
import { createCustomer } from '../factories/setup';
import { createTestCustomer } from '../factories/customer';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { createReceivablesSetup, issueTestDocument } from '../factories/receivables';
import { useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';

/**
 * Country codes are ISO 3166-1 alpha-2 everywhere in the API (docs/design.md §5): customers, the
 * organization's seller address, and the buyer and seller frozen onto issued documents.
 */
const t = useTestApp();
const { post, get } = httpHelpers(t);

/** Prepares a one-line invoice over REST and issues it through the issue service the demo uses. */
const setups = new Map<string, ReturnType<typeof createReceivablesSetup>>();
async function issuedInvoice(org: Awaited<ReturnType<typeof createTestOrganization>>, customerId: string) {
  if (!setups.has(org.id)) setups.set(org.id, createReceivablesSetup(t.db, org.id));
  const ref = await setups.get(org.id)!;
  const res = await post(
    '/v1/receivables/invoices',
    { kind: 'sales_invoice', customer_id: customerId, lines: [{ account_id: ref.revenue.id, description: 'Consulting', quantity: '1', unit_price: '100.00', tax_code_id: ref.sv8.id }] },
    org.owner.apiKey,
  );
  expect(res.statusCode, res.body).toBe(201);
  const issuer = await createTestMember(t.db, org.id, { role: 'owner' });
  await issueTestDocument(t.db, org.id, res.json().id, issuer.id);
  const doc = (await get(`/v1/receivables/invoices/${res.json().id}`, org.owner.apiKey)).json();
  expect(doc.reference).toEqual(expect.any(String));
  return doc;
}

describe('the ISO 3166-1 list', () => {
  it('ships with its source, alpha-2 and alpha-3 of every officially assigned code', () => {
    expect(countryCodes.source).toMatch(/ISO 3166-1/);
    expect(countryCodes.entries).toHaveLength(249);
    expect(new Set(countryCodes.entries.map((e) => e.alpha3)).size).toBe(249);
    for (const [a2, a3] of [['MY', 'MYS'], ['SG', 'SGP'], ['US', 'USA'], ['GB', 'GBR'], ['ID', 'IDN'], ['CN', 'CHN']]) {
      expect(isCountryCode(a2!)).toBe(true);
      expect(countryAlpha3(a2!)).toBe(a3);
      expect(countryAlpha2(a3!)).toBe(a2);
    }
    for (const bad of ['MYS', 'my', 'XX', 'UK', '']) expect(isCountryCode(bad)).toBe(false);
    expect(countryAlpha2('MY')).toBe('MY');
  });
});

describe('issued documents carry alpha-2 codes in buyer and seller', () => {
  it('a customer in Singapore and a seller whose address says MY', async () => {
    const org = await createTestOrganization(t.db);
    await queryRows(t.db, sql`update organizations set seller = ${JSON.stringify({ name: 'Kedai Seller', address: { city: 'Ipoh', country_code: 'MY' } })}::jsonb where id = ${org.id}`);
    const sg = await post('/v1/receivables/customers', { code: 'SG-1', legal_name: 'Lion City Pte Ltd', country_code: 'SG', address: { city: 'Singapore' } }, org.owner.apiKey);
    expect(sg.statusCode, sg.body).toBe(201);
    const doc = await issuedInvoice(org, sg.json().id);
    expect(doc.buyer.address).toEqual({ city: 'Singapore', country_code: 'SG' });
    expect(doc.seller.address).toEqual({ city: 'Ipoh', country_code: 'MY' });
  });

  it('a seller address stored in alpha-3 (the old form) is frozen in alpha-2', async () => {
    const org = await createTestOrganization(t.db);
    await queryRows(t.db, sql`update organizations set seller = ${JSON.stringify({ name: 'Old Form Bhd', address: { line1: '1 Jalan', country_code: 'MYS' } })}::jsonb where id = ${org.id}`);
    const c = await createTestCustomer(t.db, org.id);
    const doc = await issuedInvoice(org, c.id);
    expect(doc.seller.address).toEqual({ line1: '1 Jalan', country_code: 'MY' });
    expect(doc.buyer.address.country_code).toBe('MY');
  });

  it('a seller with no address is a Malaysian supplier (MY), as a customer without a country is', async () => {
    const org = await createTestOrganization(t.db);
    const c = await createTestCustomer(t.db, org.id);
    const doc = await issuedInvoice(org, c.id);
    expect(doc.seller.address).toEqual({ country_code: 'MY' });
    expect(doc.buyer.address).toEqual({ country_code: 'MY' });
  });
});

describe('country codes are refused in any other form', () => {
  it('customers: alpha-3 or lower case is 400, an unassigned code 422, on create and change', async () => {
    const org = await createTestOrganization(t.db);
    for (const [country_code, status] of [['MYS', 400], ['my', 400], ['XX', 422], ['UK', 422]] as const) {
      const res = await post('/v1/receivables/customers', { code: `C-${country_code}`, legal_name: 'X', country_code }, org.owner.apiKey);
      expect(res.statusCode, country_code).toBe(status);
      expect(res.json().errors.map((e: any) => e.pointer)).toEqual(['/country_code']);
    }
    await expect(createCustomer(t.db, org.id, { code: 'OLD', legalName: 'Old', countryCode: 'MYS' })).rejects.toMatchObject({ appCode: 'validation' });
  });

  it("an organization's seller address (422 at /seller/address/country_code)", async () => {
    await expect(createOrganization(t.db, { name: 'Alpha3 Sdn Bhd', seller: { name: 'Alpha3 Sdn Bhd', address: { country_code: 'MYS' } } })).rejects.toMatchObject({
      appCode: 'validation',
      fieldErrors: [{ pointer: '/seller/address/country_code', detail: expect.any(String) }],
    });
    const ok = await createOrganization(t.db, { name: 'Alpha2 Sdn Bhd', seller: { name: 'Alpha2 Sdn Bhd', address: { country_code: 'MY' } } });
    expect(ok.seller.address?.country_code).toBe('MY');
  });
});

describe('the data migration drizzle/0004_country-codes-alpha2.sql', () => {
  it('converts stored alpha-3 codes of customers, seller addresses and frozen buyers and sellers; leaves alpha-2 alone; runs twice safely', async () => {
    const org = await createTestOrganization(t.db);
    const my = await createTestCustomer(t.db, org.id);
    const us = await createTestCustomer(t.db, org.id, { countryCode: 'US' });
    const docMy = await issuedInvoice(org, my.id);
    const docUs = await issuedInvoice(org, us.id);
    // The state an older release left behind: alpha-3 in every place, a frozen seller without a country.
    await queryRows(t.db, sql`update customers set country_code = 'MYS' where organization_id = ${org.id} and id = ${my.id}`);
    await queryRows(t.db, sql`update organizations set seller = ${JSON.stringify({ name: 'S', tin: 'C1', address: { city: 'KL', country_code: 'SGP' } })}::jsonb where id = ${org.id}`);
    await queryRows(t.db, sql`update receivable_documents set buyer = jsonb_set(buyer, '{address,country_code}', '"MYS"'),
      seller = jsonb_set(seller, '{address,country_code}', '"MYS"') where organization_id = ${org.id} and id = ${docMy.id}`);
    await queryRows(t.db, sql`update receivable_documents set buyer = jsonb_set(buyer, '{address,country_code}', '"USA"'),
      seller = jsonb_set(seller, '{address,country_code}', 'null') where organization_id = ${org.id} and id = ${docUs.id}`);

    const file = readFileSync(join(process.cwd(), 'drizzle', '0004_country-codes-alpha2.sql'), 'utf8');
    const statements = file.split('--> statement-breakpoint').map((s) => s.trim()).filter(Boolean);
    for (let run = 0; run < 2; run++) {
      // One transaction: the lookup table is temporary, so every statement needs the same connection.
      await t.db.transaction(async (tx) => {
        for (const statement of statements) await queryRows(tx, sql.raw(statement));
      });
    }

    const c = (await get(`/v1/receivables/customers/${my.id}`, org.owner.apiKey)).json();
    expect(c.country_code).toBe('MY');
    expect((await get(`/v1/receivables/customers/${us.id}`, org.owner.apiKey)).json().country_code).toBe('US');
    const sellerRows = await queryRows<{ seller: any }>(t.db, sql`select seller from organizations where id = ${org.id}`);
    const seller = typeof sellerRows[0]!.seller === 'string' ? JSON.parse(sellerRows[0]!.seller) : sellerRows[0]!.seller;
    expect(seller).toEqual({ name: 'S', tin: 'C1', address: { city: 'KL', country_code: 'SG' } });
    const a = (await get(`/v1/receivables/invoices/${docMy.id}`, org.owner.apiKey)).json();
    expect([a.buyer.address.country_code, a.seller.address.country_code]).toEqual(['MY', 'MY']);
    expect(a.revision).toBe(docMy.revision);
    const b = (await get(`/v1/receivables/invoices/${docUs.id}`, org.owner.apiKey)).json();
    expect([b.buyer.address.country_code, b.seller.address.country_code]).toEqual(['US', 'MY']);
    // Nothing else of the frozen parties moved.
    expect({ ...b.buyer, address: undefined }).toEqual({ ...docUs.buyer, address: undefined });
  });
});
