import { describe, expect, it } from 'vitest';
import { createTestCustomer } from '../factories/customer';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { issueTestDocument } from '../factories/receivables';
import { onPostgres, useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';
import { callerFor, expectRefused, refusal } from '../helpers/settings';

/**
 * The rules of each settings.<entity> family (the shared refusals are in settings-receivables.test.ts),
 * and what a deactivated record means where it is used: a new invoice line naming it is refused.
 */

const t = useTestApp();
const { post, get } = httpHelpers(t);

type Row = { id: string; code: string; [k: string]: unknown };

/** A new organization with a customer, its default accounts and tax codes, and an invoice builder. */
async function world() {
  const org = await createTestOrganization(t.db);
  const settings = (ifMatch?: number) => callerFor(t, org.owner.session, ifMatch).settings;
  const customer = await createTestCustomer(t.db, org.id);
  const accounts: Row[] = (await settings().accounts.list({ limit: 100 })).items;
  const taxCodes: Row[] = (await settings().taxCodes.list({ limit: 100 })).items;
  const revenue = accounts.find((a) => a.code === '4020')!;
  const sv8 = taxCodes.find((c) => c.code === 'SV-8')!;
  const line = (over: Record<string, unknown> = {}) => ({
    account_id: revenue.id,
    description: 'Consulting',
    quantity: '2',
    unit_price: '100.00',
    tax_code_id: sv8.id,
    ...over,
  });
  const prepare = (lines: Record<string, unknown>[], over: Record<string, unknown> = {}) =>
    post('/v1/receivables/invoices', { kind: 'sales_invoice', customer_id: customer.id, lines, ...over }, org.owner.apiKey);
  return { org, settings, customer, revenue, sv8, line, prepare };
}

const pointers = (res: { json(): { errors?: { pointer: string }[] } }) => (res.json().errors ?? []).map((e) => e.pointer);

describe('settings.accounts rules', () => {
  it('refuses a code in use (409 conflict at /code) on create and on update; another organization may use it', async () => {
    const w = await world();
    const a = await w.settings().accounts.create({ code: ' R-1 ', name: 'Revenue one', type: 'revenue' });
    expect(a.code).toBe('R-1');
    const dup = expectRefused(await refusal(w.settings().accounts.create({ code: 'R-1', name: 'Again', type: 'revenue' })), 409, 'conflict', '/code');
    expect(dup.fieldErrors).toEqual([{ pointer: '/code', detail: 'is already in use' }]);
    const b = await w.settings().accounts.create({ code: 'R-2', name: 'Revenue two', type: 'revenue' });
    expectRefused(await refusal(w.settings(1).accounts.update({ id: b.id, code: 'R-1' })), 409, 'conflict', '/code');
    // A default account's code is in use too.
    expectRefused(await refusal(w.settings().accounts.create({ code: '4020', name: 'Mine', type: 'revenue' })), 409, 'conflict', '/code');
    const other = await createTestOrganization(t.db);
    expect((await callerFor(t, other.owner.session).settings.accounts.create({ code: 'R-1', name: 'Theirs', type: 'revenue' })).revision).toBe(1);
  });

  it('takes only the account types of the chart (400 otherwise)', async () => {
    const w = await world();
    expectRefused(await refusal(w.settings().accounts.create({ code: 'X-1', name: 'X', type: 'income' })), 400, 'invalid_request', '/type');
    for (const type of ['asset', 'liability', 'equity', 'revenue', 'expense']) {
      expect((await w.settings().accounts.create({ code: `T-${type}`, name: type, type })).type).toBe(type);
    }
  });

  it('an inactive account is refused on a new invoice line (422 at the line); a draft already prepared keeps it', async () => {
    const w = await world();
    const draft = await w.prepare([w.line()]);
    expect(draft.statusCode, draft.body).toBe(201);
    await w.settings(1).accounts.deactivate({ id: w.revenue.id });
    const refused = await w.prepare([w.line()]);
    expect(refused.statusCode).toBe(422);
    expect(pointers(refused)).toEqual(['/lines/0/account_id']);
    const read = await get(`/v1/receivables/invoices/${draft.json().id}`, w.org.owner.apiKey);
    expect(read.json().lines[0].account_id).toBe(w.revenue.id);
  });
});

describe('settings.taxCodes rules', () => {
  it('a rate is a decimal string from 0 to 100 with up to 10 places; tax_type a MyInvois tax type; E and 06 carry 0', async () => {
    const w = await world();
    const base = { code: 'R', name: 'Rate' };
    expectRefused(await refusal(w.settings().taxCodes.create({ ...base, rate: '100.5', tax_type: '02' })), 422, 'validation', '/rate');
    expectRefused(await refusal(w.settings().taxCodes.create({ ...base, rate: '-1', tax_type: '02' })), 422, 'validation', '/rate');
    expectRefused(await refusal(w.settings().taxCodes.create({ ...base, rate: '8.00000000001', tax_type: '02' })), 422, 'validation', '/rate');
    expectRefused(await refusal(w.settings().taxCodes.create({ ...base, rate: '8%', tax_type: '02' })), 400, 'invalid_request', '/rate');
    expectRefused(await refusal(w.settings().taxCodes.create({ ...base, rate: '8', tax_type: '07' })), 422, 'validation', '/tax_type');
    expectRefused(await refusal(w.settings().taxCodes.create({ ...base, rate: '8', tax_type: 'E' })), 422, 'validation', '/rate');
    expectRefused(await refusal(w.settings().taxCodes.create({ ...base, rate: '6', tax_type: '06' })), 422, 'validation', '/rate');
    expectRefused(await refusal(w.settings().taxCodes.create({ ...base, rate: '6', tax_type: '02', tax_pack_kind: 'uk_vat' })), 400, 'invalid_request', '/tax_pack_kind');
    const exempt = await w.settings().taxCodes.create({ code: 'EX-0', name: 'Exempt', rate: '0', tax_type: 'E' });
    expect(exempt).toMatchObject({ rate: '0', tax_type: 'E', tax_pack_kind: 'my_sst' });
    const fine = await w.settings().taxCodes.create({ code: 'FINE', name: 'Precise', rate: '7.1234567891', tax_type: '03' });
    expect(fine.rate).toBe('7.1234567891');
    // Several faults at once are answered together.
    const both = await refusal(w.settings().taxCodes.create({ code: '', name: ' ', rate: '101', tax_type: 'Z' }));
    expect(both.fieldErrors!.map((f) => f.pointer).sort()).toEqual(['/code', '/name', '/rate', '/tax_type']);
  });

  it("a used code's rate and tax type are fixed (409 conflict); its name and code may change; lines keep the code as it read when priced", async () => {
    const w = await world();
    const draft = await w.prepare([w.line()]);
    expect(draft.statusCode, draft.body).toBe(201);
    expectRefused(await refusal(w.settings(1).taxCodes.update({ id: w.sv8.id, rate: '10' })), 409, 'conflict', '/rate');
    expectRefused(await refusal(w.settings(1).taxCodes.update({ id: w.sv8.id, tax_type: '01' })), 409, 'conflict', '/tax_type');
    // The same rate written another way is no change at all.
    expect((await w.settings(1).taxCodes.update({ id: w.sv8.id, rate: '8.000' })).revision).toBe(1);
    const renamed = await w.settings(1).taxCodes.update({ id: w.sv8.id, code: 'SST-SV8', name: 'Service tax (8%)' });
    expect(renamed).toMatchObject({ code: 'SST-SV8', rate: '8', revision: 2 });
    const read = (await get(`/v1/receivables/invoices/${draft.json().id}`, w.org.owner.apiKey)).json();
    expect(read.lines[0]).toMatchObject({ tax_code: 'SV-8', tax_rate: '8', tax_amount: '16.00', tax_code_id: w.sv8.id });
    // An unused code's rate may still change.
    const sv6 = (await w.settings().taxCodes.list({})).items.find((c: Row) => c.code === 'SV-6');
    expect((await w.settings(1).taxCodes.update({ id: sv6.id, rate: '7' })).rate).toBe('7');
  });

  it('an inactive tax code is refused on a new invoice line', async () => {
    const w = await world();
    await w.settings(1).taxCodes.deactivate({ id: w.sv8.id });
    const res = await w.prepare([w.line()]);
    expect(res.statusCode).toBe(422);
    expect(pointers(res)).toEqual(['/lines/0/tax_code_id']);
  });
});

describe('settings.analyticAxes and settings.analyticAccounts rules', () => {
  it('only one project axis per organization (409 at /is_project_axis), on create and on update', async () => {
    const w = await world();
    const projects = await w.settings().analyticAxes.create({ code: 'PRJ', name: 'Projects', is_project_axis: true });
    expectRefused(await refusal(w.settings().analyticAxes.create({ code: 'PRJ2', name: 'More projects', is_project_axis: true })), 409, 'conflict', '/is_project_axis');
    const dept = await w.settings().analyticAxes.create({ code: 'DEPT', name: 'Departments' });
    expectRefused(await refusal(w.settings(1).analyticAxes.update({ id: dept.id, is_project_axis: true })), 409, 'conflict', '/is_project_axis');
    // Moving the flag: off the one axis, then onto the other.
    await w.settings(1).analyticAxes.update({ id: projects.id, is_project_axis: false });
    expect((await w.settings(1).analyticAxes.update({ id: dept.id, is_project_axis: true })).is_project_axis).toBe(true);
  });

  it('whether an axis is the project axis is fixed once document lines share its accounts', async () => {
    const w = await world();
    const axis = await w.settings().analyticAxes.create({ code: 'PRJ', name: 'Projects', is_project_axis: true });
    const alpha = await w.settings().analyticAccounts.create({ axis_id: axis.id, code: 'P-A', name: 'Alpha' });
    const res = await w.prepare([w.line({ shares: [{ analytic_account_id: alpha.id, percentage: '100' }] })]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().project).toMatchObject({ id: alpha.id, code: 'P-A' });
    expectRefused(await refusal(w.settings(1).analyticAxes.update({ id: axis.id, is_project_axis: false })), 409, 'conflict', '/is_project_axis');
    expect((await w.settings(1).analyticAxes.update({ id: axis.id, name: 'Client projects' })).name).toBe('Client projects');
  });

  it("an analytic account's axis must be the organization's and active; codes are unique per axis", async () => {
    const w = await world();
    const dept = await w.settings().analyticAxes.create({ code: 'DEPT', name: 'Departments' });
    const cost = await w.settings().analyticAxes.create({ code: 'COST', name: 'Cost centres' });
    const foreign = await callerFor(t, (await createTestOrganization(t.db)).owner.session).settings.analyticAxes.create({ code: 'DEPT', name: 'Theirs' });
    expectRefused(await refusal(w.settings().analyticAccounts.create({ axis_id: foreign.id, code: 'S', name: 'Sales' })), 422, 'validation', '/axis_id');
    await w.settings().analyticAccounts.create({ axis_id: dept.id, code: 'SALES', name: 'Sales' });
    expectRefused(await refusal(w.settings().analyticAccounts.create({ axis_id: dept.id, code: 'SALES', name: 'Again' })), 409, 'conflict', '/code');
    expect((await w.settings().analyticAccounts.create({ axis_id: cost.id, code: 'SALES', name: 'Sales cost centre' })).axis_id).toBe(cost.id);
    await w.settings(1).analyticAxes.deactivate({ id: cost.id });
    const e = expectRefused(await refusal(w.settings().analyticAccounts.create({ axis_id: cost.id, code: 'OPS', name: 'Ops' })), 422, 'validation', '/axis_id');
    expect(e.fieldErrors![0]!.detail).toContain('inactive');
    const listed = await w.settings().analyticAccounts.list({ axis_id: dept.id });
    expect(listed.items.map((a: Row) => a.code)).toEqual(['SALES']);
  });

  it('an inactive analytic account, or an account of an inactive axis, is refused on a new line', async () => {
    const w = await world();
    const dept = await w.settings().analyticAxes.create({ code: 'DEPT', name: 'Departments' });
    const sales = await w.settings().analyticAccounts.create({ axis_id: dept.id, code: 'SALES', name: 'Sales' });
    const ops = await w.settings().analyticAccounts.create({ axis_id: dept.id, code: 'OPS', name: 'Ops' });
    const share = (id: string) => [w.line({ shares: [{ analytic_account_id: id, percentage: '100' }] })];
    expect((await w.prepare(share(sales.id))).statusCode).toBe(201);
    await w.settings(1).analyticAccounts.deactivate({ id: sales.id });
    const one = await w.prepare(share(sales.id));
    expect(one.statusCode).toBe(422);
    expect(pointers(one)).toEqual(['/lines/0/shares/0/analytic_account_id']);
    expect((await w.prepare(share(ops.id))).statusCode).toBe(201);
    await w.settings(1).analyticAxes.deactivate({ id: dept.id });
    const two = await w.prepare(share(ops.id));
    expect(two.statusCode).toBe(422);
    expect(pointers(two)).toEqual(['/lines/0/shares/0/analytic_account_id']);
  });
});

describe('settings.customFields rules', () => {
  it('checks the key, the options a select needs and only a select has, and refuses a key in use per record type', async () => {
    const w = await world();
    const s = w.settings().customFields;
    const base = { record_type: 'customer', label: 'Segment', type: 'text' };
    for (const key of ['PO Number', '1st', 'po-number', 'k'.repeat(51)]) expectRefused(await refusal(s.create({ ...base, key })), 422, 'validation', '/key');
    expectRefused(await refusal(s.create({ ...base, key: 'seg', type: 'select' })), 422, 'validation', '/options');
    expectRefused(await refusal(s.create({ ...base, key: 'seg', type: 'select', options: [] })), 422, 'validation', '/options');
    expectRefused(await refusal(s.create({ ...base, key: 'seg', options: ['A'] })), 422, 'validation', '/options');
    expectRefused(await refusal(s.create({ ...base, key: 'seg', type: 'select', options: ['A', 'A'] })), 422, 'validation', '/options/1');
    expectRefused(await refusal(s.create({ ...base, key: 'seg', type: 'select', options: [' ', 'B'] })), 422, 'validation', '/options/0');
    expectRefused(await refusal(s.create({ ...base, key: 'seg', type: 'colour' })), 400, 'invalid_request', '/type');
    expectRefused(await refusal(s.create({ ...base, key: 'seg', record_type: 'supplier' })), 400, 'invalid_request', '/record_type');
    const seg = await s.create({ ...base, key: 'segment', type: 'select', options: ['Retail', 'Wholesale'], required: true });
    expect(seg).toMatchObject({ key: 'segment', type: 'select', options: ['Retail', 'Wholesale'], required: true, revision: 1 });
    expectRefused(await refusal(s.create({ ...base, key: 'segment' })), 409, 'conflict', '/key');
    expect((await s.create({ ...base, key: 'segment', record_type: 'receivable_document' })).record_type).toBe('receivable_document');
    // Key, type and record type are fixed.
    expectRefused(await refusal(w.settings(1).customFields.update({ id: seg.id, key: 'segment2' })), 400, 'invalid_request', '/key');
    expectRefused(await refusal(w.settings(1).customFields.update({ id: seg.id, type: 'text' })), 400, 'invalid_request', '/type');
    expectRefused(await refusal(w.settings(1).customFields.update({ id: seg.id, options: [] })), 422, 'validation', '/options');
  });

  it('customers are checked against the definitions as they now read: a deactivated one refuses values, a required one is required', async () => {
    const w = await world();
    const customers = callerFor(t, w.org.owner.session).receivables.customers;
    const seg = await w.settings().customFields.create({ record_type: 'customer', key: 'segment', label: 'Segment', type: 'select', options: ['Retail'] });
    expect((await customers.create({ code: 'C-1', legal_name: 'Kedai Satu', custom_fields: { segment: 'Retail' } })).custom_fields).toEqual({ segment: 'Retail' });
    expectRefused(await refusal(customers.create({ code: 'C-2', legal_name: 'Kedai Dua', custom_fields: { segment: 'Wholesale' } })), 422, 'custom_field_invalid', '/custom_fields/segment');
    await w.settings(1).customFields.update({ id: seg.id, options: ['Retail', 'Wholesale'], required: true });
    expectRefused(await refusal(customers.create({ code: 'C-3', legal_name: 'Kedai Tiga' })), 422, 'custom_field_invalid', '/custom_fields/segment');
    expect((await customers.create({ code: 'C-4', legal_name: 'Kedai Empat', custom_fields: { segment: 'Wholesale' } })).code).toBe('C-4');
    await w.settings(2).customFields.deactivate({ id: seg.id });
    expectRefused(await refusal(customers.create({ code: 'C-5', legal_name: 'Kedai Lima', custom_fields: { segment: 'Retail' } })), 422, 'custom_field_invalid', '/custom_fields/segment');
    expect((await customers.create({ code: 'C-6', legal_name: 'Kedai Enam' })).code).toBe('C-6');
  });
});

describe('settings.tradeLines rules', () => {
  it("checks the customer (this organization's), the quantity (positive, 10 places) and the unit code", async () => {
    const w = await world();
    const s = w.settings().tradeLines;
    const base = { customer_id: w.customer.id, kind: 'delivery', reference: 'DO-1', description: 'Bolts', quantity: '10' };
    const outsider = await createTestCustomer(t.db, (await createTestOrganization(t.db)).id);
    expectRefused(await refusal(s.create({ ...base, customer_id: outsider.id })), 422, 'validation', '/customer_id');
    for (const quantity of ['0', '-1', '1.00000000001']) expectRefused(await refusal(s.create({ ...base, quantity })), 422, 'validation', '/quantity');
    expectRefused(await refusal(s.create({ ...base, quantity: 'ten' })), 400, 'invalid_request', '/quantity');
    expectRefused(await refusal(s.create({ ...base, unit_code: 'BOX' })), 422, 'validation', '/unit_code');
    expectRefused(await refusal(s.create({ ...base, kind: 'invoice' })), 400, 'invalid_request', '/kind');
    expectRefused(await refusal(s.create({ ...base, quantity_invoiced: '2' })), 400, 'invalid_request', '/quantity_invoiced');
    expect(await s.create({ ...base, unit_code: 'KGM', quantity: '2.5' })).toMatchObject({ unit_code: 'KGM', quantity: '2.5', quantity_invoiced: '0', line_no: 1 });
  });

  it('a quantity never drops below what documents have taken; an inactive line is refused on a new document line', async () => {
    const w = await world();
    const delivery = await w.settings().tradeLines.create({ customer_id: w.customer.id, kind: 'delivery', reference: 'DO-7', description: 'Bolts', quantity: '10', unit_code: 'C62' });
    const taken = await w.prepare([w.line({ trade_line_id: delivery.id, quantity: '6' })]);
    expect(taken.statusCode, taken.body).toBe(201);
    const e = expectRefused(await refusal(w.settings(1).tradeLines.update({ id: delivery.id, quantity: '5.5' })), 422, 'validation', '/quantity');
    expect(e.fieldErrors![0]!.detail).toContain('6');
    const cut = await w.settings(1).tradeLines.update({ id: delivery.id, quantity: '8' });
    expect(cut).toMatchObject({ quantity: '8', quantity_invoiced: '6', revision: 2 });
    await w.settings(2).tradeLines.deactivate({ id: delivery.id });
    const refused = await w.prepare([w.line({ trade_line_id: delivery.id, quantity: '1' })]);
    expect(refused.statusCode).toBe(422);
    expect(pointers(refused)).toEqual(['/lines/0/trade_line_id']);
  });
});

/** Two organizations in one group (the second invited by the first, and accepted) and a customer of the first that is the second. */
async function groupWorld() {
  const w = await world();
  const sibling = await createTestOrganization(t.db);
  const invited = await w.settings().companyGroups.create({ name: 'Maju Group', member_organization_ids: [sibling.id] });
  const group = await callerFor(t, sibling.owner.session, invited.revision).settings.companyGroups.accept({ id: invited.id });
  const isGroupCompany = async () => (await get(`/v1/receivables/customers/${w.customer.id}`, w.org.owner.apiKey)).json().is_group_company;
  return { ...w, sibling, group, isGroupCompany };
}

describe('settings.companyGroups rules', () => {
  it("the caller's organization is always a member; members see the group, an outsider neither sees nor changes it (404)", async () => {
    const w = await groupWorld();
    expect(w.group.member_organization_ids).toEqual([w.org.id, w.sibling.id].sort());
    const siblingList = await callerFor(t, w.sibling.owner.session).settings.companyGroups.list({});
    expect(siblingList.items.map((g: Row) => g.id)).toEqual([w.group.id]);
    const outsider = await createTestOrganization(t.db);
    expect((await callerFor(t, outsider.owner.session).settings.companyGroups.list({ include_inactive: true })).items).toEqual([]);
    expectRefused(await refusal(callerFor(t, outsider.owner.session, 1).settings.companyGroups.update({ id: w.group.id, name: 'Mine now' })), 404, 'not_found');
    expectRefused(await refusal(callerFor(t, outsider.owner.session, 1).settings.companyGroups.deactivate({ id: w.group.id })), 404, 'not_found');
    // Leaving itself out of the members keeps the caller in; the sibling is removed.
    const alone = await w.settings(2).companyGroups.update({ id: w.group.id, member_organization_ids: [] });
    expect(alone).toMatchObject({ member_organization_ids: [w.org.id], revision: 3 });
    expect((await callerFor(t, w.sibling.owner.session).settings.companyGroups.list({})).items).toEqual([]);
  });

  it('refuses an organization that does not exist (422 at its index)', async () => {
    const w = await world();
    const missing = '00000000-0000-4000-8000-000000000001';
    expectRefused(await refusal(w.settings().companyGroups.create({ name: 'G', member_organization_ids: [missing] })), 422, 'validation', '/member_organization_ids/0');
  });

  it('a customer mapped to a company of the group is a group company; not once the group is deactivated', async () => {
    const w = await groupWorld();
    await w.settings().counterpartyMappings.create({ customer_id: w.customer.id, company_organization_id: w.sibling.id, valid_from: '2020-01-01' });
    expect(await w.isGroupCompany()).toBe(true);
    await w.settings(2).companyGroups.deactivate({ id: w.group.id });
    expect(await w.isGroupCompany()).toBe(false);
  });
});

describe('settings.counterpartyMappings rules', () => {
  it("maps a customer of this organization to another organization of one of its active groups", async () => {
    const w = await groupWorld();
    const m = w.settings().counterpartyMappings;
    const base = { customer_id: w.customer.id, company_organization_id: w.sibling.id, valid_from: '2020-01-01' };
    const foreignCustomer = await createTestCustomer(t.db, w.sibling.id);
    expectRefused(await refusal(m.create({ ...base, customer_id: foreignCustomer.id })), 422, 'validation', '/customer_id');
    const outsider = await createTestOrganization(t.db);
    expectRefused(await refusal(m.create({ ...base, company_organization_id: outsider.id })), 422, 'validation', '/company_organization_id');
    expectRefused(await refusal(m.create({ ...base, company_organization_id: w.org.id })), 422, 'validation', '/company_organization_id');
    expectRefused(await refusal(m.create({ ...base, valid_to: '2019-12-31' })), 422, 'validation', '/valid_to');
    expectRefused(await refusal(m.create({ ...base, valid_from: '2020-02-30' })), 400, 'invalid_request', '/valid_from');
    const created = await m.create(base);
    expect(created).toMatchObject({ ...base, valid_to: null, active: true, revision: 1 });
  });

  it("one customer's periods never overlap (409 conflict), inclusive at both ends; adjacent periods are fine", async () => {
    const w = await groupWorld();
    const m = (ifMatch?: number) => w.settings(ifMatch).counterpartyMappings;
    const base = { customer_id: w.customer.id, company_organization_id: w.sibling.id };
    const first = await m().create({ ...base, valid_from: '2020-01-01', valid_to: '2022-12-31' });
    expectRefused(await refusal(m().create({ ...base, valid_from: '2022-12-31' })), 409, 'conflict', '/valid_from');
    expectRefused(await refusal(m().create({ ...base, valid_from: '2019-01-01', valid_to: '2020-01-01' })), 409, 'conflict', '/valid_from');
    expectRefused(await refusal(m().create({ ...base, valid_from: '2021-01-01', valid_to: '2021-06-30' })), 409, 'conflict', '/valid_from');
    const second = await m().create({ ...base, valid_from: '2023-01-01' });
    expect(second.valid_to).toBeNull();
    // Moving the first period's end into the second is refused; ending it earlier is fine.
    expectRefused(await refusal(m(1).update({ id: first.id, valid_to: '2023-01-01' })), 409, 'conflict', '/valid_from');
    expectRefused(await refusal(m(1).update({ id: first.id, valid_from: '2023-01-01' })), 422, 'validation', '/valid_from');
    expect((await m(1).update({ id: first.id, valid_to: '2021-12-31' })).valid_to).toBe('2021-12-31');
    // A deactivated mapping no longer blocks its period.
    await m(1).deactivate({ id: second.id });
    expect((await m().create({ ...base, valid_from: '2022-06-01' })).valid_from).toBe('2022-06-01');
  });

  it('is_group_company follows the map as at the organization today', async () => {
    const w = await groupWorld();
    expect(await w.isGroupCompany()).toBe(false);
    const mapping = await w.settings().counterpartyMappings.create({ customer_id: w.customer.id, company_organization_id: w.sibling.id, valid_from: '2020-01-01' });
    expect(await w.isGroupCompany()).toBe(true);
    await w.settings(1).counterpartyMappings.update({ id: mapping.id, valid_to: '2020-12-31' });
    expect(await w.isGroupCompany()).toBe(false);
    const listed = await w.settings().counterpartyMappings.list({ customer_id: w.customer.id });
    expect(listed.items).toEqual([expect.objectContaining({ id: mapping.id, valid_to: '2020-12-31', revision: 2 })]);
  });
});

describe('the line keeps what it was priced with', () => {
  it('an issued document still reads its account and tax code after both are deactivated', async () => {
    const w = await world();
    const issuer = await createTestMember(t.db, w.org.id, { role: 'accountant' });
    const draft = await w.prepare([w.line()]);
    await issueTestDocument(t.db, w.org.id, draft.json().id, issuer.id);
    await w.settings(1).accounts.deactivate({ id: w.revenue.id });
    await w.settings(1).taxCodes.deactivate({ id: w.sv8.id });
    const read = (await get(`/v1/receivables/invoices/${draft.json().id}`, w.org.owner.apiKey)).json();
    expect(read).toMatchObject({ net_total: '200.00', tax_total: '16.00', gross_amount: '216.00' });
    expect(read.lines[0]).toMatchObject({ account_id: w.revenue.id, tax_code: 'SV-8', tax_rate: '8' });
  });
});

describe.skipIf(!onPostgres)('on PostgreSQL, concurrently', () => {
  const race = async <T>(calls: (() => Promise<T>)[]) => Promise.allSettled(calls.map((c) => c()));
  const codes = (results: PromiseSettledResult<unknown>[]) =>
    results.map((r) => (r.status === 'fulfilled' ? 'ok' : (r.reason as { appCode: string }).appCode)).sort();

  it('a code raced for by three requests: one account, two 409 conflict at /code', async () => {
    const w = await world();
    const accountant = await createTestMember(t.db, w.org.id, { role: 'accountant' });
    for (let round = 0; round < 3; round++) {
      const code = `RACE-${round}`;
      const results = await race([w.org.owner.session, accountant.session, w.org.owner.session].map((token) => () =>
        callerFor(t, token).settings.accounts.create({ code, name: 'Race', type: 'revenue' })));
      expect(codes(results)).toEqual(['conflict', 'conflict', 'ok']);
    }
  });

  it('two project axes raced for: one project axis, one 409 conflict', async () => {
    const w = await world();
    const results = await race([1, 2].map((i) => () => w.settings().analyticAxes.create({ code: `PRJ-${i}`, name: 'Projects', is_project_axis: true })));
    expect(codes(results)).toEqual(['conflict', 'ok']);
  });

  it('overlapping mappings of one customer raced for: one mapping, the others 409 conflict', async () => {
    const w = await groupWorld();
    const results = await race(['2020-01-01', '2020-06-01', '2021-01-01'].map((from) => () =>
      w.settings().counterpartyMappings.create({ customer_id: w.customer.id, company_organization_id: w.sibling.id, valid_from: from })));
    expect(codes(results)).toEqual(['conflict', 'conflict', 'ok']);
  });
});
