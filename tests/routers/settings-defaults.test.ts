import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNTS, DEFAULT_TAX_CODES } from '../../src/services/settings/defaults';
import { createTestCustomer } from '../factories/customer';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { createReceivablesSetup } from '../factories/receivables';
import { useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';
import { callerFor } from '../helpers/settings';

/**
 * What a new organization starts with (docs/design.md §10 and §15): the default Malaysian SME chart
 * and the SST tax codes, enough to prepare an invoice at once; and the backfill that gives them to
 * organizations created before (drizzle/0005_default-reference-data.sql).
 */

const t = useTestApp();
const { post } = httpHelpers(t);

type Row = { id: string; code: string; name: string; [k: string]: unknown };

async function listAll(caller: ReturnType<typeof callerFor>, entity: 'accounts' | 'taxCodes'): Promise<Row[]> {
  return (await caller.settings[entity].list({ limit: 100, include_inactive: true })).items;
}

describe('a new organization', () => {
  it('starts with the default Malaysian SME chart of accounts', async () => {
    const org = await createTestOrganization(t.db);
    const accounts = await listAll(callerFor(t, org.owner.session), 'accounts');
    expect(accounts.map(({ code, name, type }) => ({ code, name, type }))).toEqual(
      [...DEFAULT_ACCOUNTS].sort((a, b) => a.code.localeCompare(b.code)).map(({ code, name, type }) => ({ code, name, type })),
    );
    expect(accounts.every((a) => a.active === true && a.revision === 1)).toBe(true);
    const named = (name: string) => accounts.find((a) => a.name === name);
    expect(named('Bank - current account')).toMatchObject({ type: 'asset' });
    expect(named('Trade receivables')).toMatchObject({ type: 'asset' });
    expect(named('SST payable')).toMatchObject({ type: 'liability' });
    expect(named('Share capital')).toMatchObject({ type: 'equity' });
    expect(named('Sales revenue')).toMatchObject({ type: 'revenue' });
    expect(named('Service revenue')).toMatchObject({ type: 'revenue' });
    for (const expense of ['Travel - local', 'Travel - overseas', 'Meals and entertainment', 'Mileage', 'Accommodation']) {
      expect(named(expense), expense).toMatchObject({ type: 'expense' });
    }
    expect(accounts.every((a) => /^\d{4}$/.test(a.code))).toBe(true);
  });

  it('starts with the SST tax codes: service 8% and 6%, sales 10% and 5%, exempt (E), not applicable (06)', async () => {
    const org = await createTestOrganization(t.db);
    const codes = await listAll(callerFor(t, org.owner.session), 'taxCodes');
    const byCode = Object.fromEntries(codes.map((c) => [c.code, { rate: c.rate, tax_type: c.tax_type, tax_pack_kind: c.tax_pack_kind }]));
    expect(byCode).toEqual({
      'SV-8': { rate: '8', tax_type: '02', tax_pack_kind: 'my_sst' },
      'SV-6': { rate: '6', tax_type: '02', tax_pack_kind: 'my_sst' },
      'ST-10': { rate: '10', tax_type: '01', tax_pack_kind: 'my_sst' },
      'ST-5': { rate: '5', tax_type: '01', tax_pack_kind: 'my_sst' },
      EXEMPT: { rate: '0', tax_type: 'E', tax_pack_kind: 'my_sst' },
      'NOT-APPLICABLE': { rate: '0', tax_type: '06', tax_pack_kind: 'my_sst' },
    });
  });

  it('has the creation of each default in its settings history, made by the system', async () => {
    const org = await createTestOrganization(t.db);
    const history = callerFor(t, org.owner.session).organization.settingsHistory;
    const accounts = await history.list({ entity: 'accounts', limit: 100 });
    expect(accounts.items).toHaveLength(DEFAULT_ACCOUNTS.length);
    expect(accounts.items[0]).toMatchObject({ action: 'create', actor_member_id: null, actor_via: 'system', before: null, after: { revision: 1, active: true } });
    const taxCodes = await history.list({ entity: 'taxCodes' });
    expect(taxCodes.items.map((h: { after: { code: string } }) => h.after.code).sort()).toEqual(DEFAULT_TAX_CODES.map((c) => c.code).sort());
  });

  it('can prepare an invoice over REST at once with a default account and the default service tax 8%: exact totals', async () => {
    const org = await createTestOrganization(t.db);
    const clerk = await createTestMember(t.db, org.id, { role: 'clerk' });
    const customer = await createTestCustomer(t.db, org.id);
    const caller = callerFor(t, clerk.session);
    const service = (await listAll(caller, 'accounts')).find((a) => a.name === 'Service revenue')!;
    const sv8 = (await listAll(caller, 'taxCodes')).find((c) => c.code === 'SV-8')!;
    const res = await post(
      '/v1/receivables/invoices',
      {
        kind: 'sales_invoice',
        customer_id: customer.id,
        lines: [{ account_id: service.id, description: 'Maintenance visit', quantity: '2', unit_price: '100.00', tax_code_id: sv8.id }],
      },
      clerk.apiKey,
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ currency: 'MYR', net_total: '200.00', tax_total: '16.00', gross_amount: '216.00', gross_base: '216.00', outstanding: '216.00' });
    expect(res.json().lines[0]).toMatchObject({ account_id: service.id, tax_code: 'SV-8', tax_rate: '8', net_amount: '200.00', tax_amount: '16.00' });
  });

  it("keeps the fixtures' own codes free: the receivables set-up of the tests and demo still fits beside the defaults", async () => {
    const org = await createTestOrganization(t.db);
    const ref = await createReceivablesSetup(t.db, org.id);
    expect([ref.revenue.code, ref.sv8.code, ref.exempt.code, ref.na.code]).toEqual(['4000', 'SV8', 'EX', 'NA']);
    const codes = (await listAll(callerFor(t, org.owner.session), 'taxCodes')).map((c) => c.code);
    expect(codes).toEqual(expect.arrayContaining(['SV8', 'SV-8', 'EX', 'EXEMPT']));
  });
});

describe('the backfill for organizations created before the defaults (drizzle/0005_default-reference-data.sql, and 2040 by 0037_journal-export.sql)', () => {
  const statementsOf = (file: string) =>
    readFileSync(new URL(`../../drizzle/${file}`, import.meta.url), 'utf8')
      .split('--> statement-breakpoint')
      .map((s) => s.trim())
      .filter(Boolean);
  // The defaults' backfill, and the account the journal export added to the default chart later.
  const statements = [...statementsOf('0005_default-reference-data.sql'), ...statementsOf('0037_journal-export.sql').filter((s) => s.includes('INSERT INTO "accounts"'))];
  const runBackfill = async () => {
    for (const statement of statements) await t.db.execute(sql.raw(statement));
  };

  it('inserts what is missing, leaves what an organization already has, and inserts nothing the second time', async () => {
    // Organizations as they were before the defaults existed: none of their rows.
    const asBefore = async () => {
      const org = await createTestOrganization(t.db);
      for (const table of ['settings_history', 'accounts', 'tax_codes']) {
        await t.db.execute(sql.raw(`delete from ${table} where organization_id = '${org.id}'`));
      }
      return org;
    };
    const bare = await asBefore();
    const own = await asBefore();
    const viewer = bare.owner;
    const ownOwner = own.owner;
    expect(await listAll(callerFor(t, viewer.session), 'accounts')).toEqual([]);
    await callerFor(t, ownOwner.session).settings.taxCodes.create({ code: 'SV-8', name: 'Our own 8%', rate: '6', tax_type: '02' });
    await callerFor(t, ownOwner.session).settings.accounts.create({ code: '4020', name: 'Consulting fees', type: 'revenue' });

    await runBackfill();

    const accounts = await listAll(callerFor(t, viewer.session), 'accounts');
    expect(accounts.map(({ code, name, type, active, revision }) => ({ code, name, type, active, revision }))).toEqual(
      [...DEFAULT_ACCOUNTS].sort((a, b) => a.code.localeCompare(b.code)).map((a) => ({ ...a, active: true, revision: 1 })),
    );
    const taxCodes = await listAll(callerFor(t, viewer.session), 'taxCodes');
    expect(taxCodes.map(({ code, name, rate, tax_type }) => ({ code, name, rate, tax_type })).sort((a, b) => a.code.localeCompare(b.code))).toEqual(
      [...DEFAULT_TAX_CODES].sort((a, b) => a.code.localeCompare(b.code)),
    );
    const history = await callerFor(t, viewer.session).organization.settingsHistory.list({ entity: 'taxCodes' });
    const sv8 = taxCodes.find((c) => c.code === 'SV-8')!;
    expect(history.items.find((h: { record_id: string }) => h.record_id === sv8.id)).toMatchObject({
      action: 'create',
      actor_member_id: null,
      actor_via: 'system',
      before: null,
      after: { id: sv8.id, code: 'SV-8', name: sv8.name, rate: '8', tax_type: '02', tax_pack_kind: 'my_sst', active: true, revision: 1 },
    });

    // The organization's own SV-8 and 4020 stay as they were; the rest is added.
    const ownCodes = await listAll(callerFor(t, ownOwner.session), 'taxCodes');
    expect(ownCodes.find((c) => c.code === 'SV-8')).toMatchObject({ name: 'Our own 8%', rate: '6' });
    expect(ownCodes).toHaveLength(DEFAULT_TAX_CODES.length);
    const ownAccounts = await listAll(callerFor(t, ownOwner.session), 'accounts');
    expect(ownAccounts.find((a) => a.code === '4020')).toMatchObject({ name: 'Consulting fees' });
    expect(ownAccounts).toHaveLength(DEFAULT_ACCOUNTS.length);

    // A second run finds nothing missing.
    const before = (await callerFor(t, viewer.session).organization.settingsHistory.list({ limit: 100 })).items.length;
    await runBackfill();
    expect(await listAll(callerFor(t, viewer.session), 'accounts')).toHaveLength(DEFAULT_ACCOUNTS.length);
    expect((await callerFor(t, viewer.session).organization.settingsHistory.list({ limit: 100 })).items.length).toBe(before);
  });
});
