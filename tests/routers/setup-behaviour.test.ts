import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestMember, createTestOrganization, type TestOrganization } from '../factories/organization';
import { createCompanyGroup } from '../factories/setup';
import { createTestCustomer } from '../factories/customer';
import { useTestApp } from '../helpers/app';
import { clientOf, expectRefused, historyOf, refusal } from '../helpers/settings';

/**
 * The three behaviours every set-up family shares (settings.*, organization.members, roles and
 * profile, me.payoutChannels), one table over the families:
 * - create answers 201 with the record's revision as ETag (POST /trpc/<family>.create);
 * - an update that changes nothing writes nothing: same revision, no settings-history entry;
 * - deactivating a record that is already inactive is 409 `conflict` at /id.
 */

const t = useTestApp();

const code = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;
type Input = Record<string, unknown>;
type Record_ = { id: string; revision: number } & Input;

interface Family {
  path: string;
  /** The create verb, when the family has one (`add` for members). */
  create?: string;
  /** A valid create input (creating what it refers to first). */
  input?: (org: TestOrganization) => Promise<Input>;
  /** An update that sends fields as they stand. */
  noop: (record: Record_, org: TestOrganization) => Input;
  /** The settings-history entity. */
  entity: string;
  /** Whether the family deactivates (roles are deleted; the profile is never deactivated). */
  deactivates?: boolean;
}

const call = (org: TestOrganization, path: string, ifMatch?: number) =>
  path.split('.').reduce((o: any, k) => o[k], clientOf(t, org.owner.session, ifMatch) as any); // eslint-disable-line @typescript-eslint/no-explicit-any

const axis = (org: TestOrganization) => call(org, 'settings.analyticAxes').create({ code: code('AX'), name: 'Departments' });
const unit = (org: TestOrganization) => call(org, 'settings.orgUnits').create({ code: code('U'), name: 'Finance' });
const accountant = (org: TestOrganization) => createTestMember(t.db, org.id, { role: 'accountant' });

const FAMILIES: Family[] = [
  { path: 'settings.accounts', input: async () => ({ code: code('A'), name: 'Sales', type: 'revenue' }), noop: (r) => ({ name: r.name }), entity: 'accounts', deactivates: true },
  { path: 'settings.taxCodes', input: async () => ({ code: code('SV'), name: 'Service tax', rate: '8', tax_type: '02' }), noop: () => ({ rate: '8.00' }), entity: 'taxCodes', deactivates: true },
  { path: 'settings.analyticAxes', input: async () => ({ code: code('AX'), name: 'Departments' }), noop: (r) => ({ code: r.code, name: r.name }), entity: 'analyticAxes', deactivates: true },
  {
    path: 'settings.analyticAccounts',
    input: async (org) => ({ axis_id: (await axis(org)).id, code: code('D'), name: 'Sales team' }),
    noop: (r) => ({ name: r.name }),
    entity: 'analyticAccounts',
    deactivates: true,
  },
  {
    path: 'settings.customFields',
    input: async () => ({ record_type: 'customer', key: `k_${randomUUID().slice(0, 8)}`, label: 'Region', type: 'select', options: ['North', 'South'] }),
    noop: (r) => ({ label: r.label, options: r.options }),
    entity: 'customFields',
    deactivates: true,
  },
  {
    path: 'settings.tradeLines',
    input: async (org) => ({ customer_id: (await createTestCustomer(t.db, org.id)).id, kind: 'delivery', reference: code('DO'), description: 'Cement', quantity: '10' }),
    noop: () => ({ quantity: '10.000' }),
    entity: 'tradeLines',
    deactivates: true,
  },
  {
    path: 'settings.counterpartyMappings',
    input: async (org) => {
      const sister = await createTestOrganization(t.db);
      await createCompanyGroup(t.db, code('G'), [org.id, sister.id]);
      return { customer_id: (await createTestCustomer(t.db, org.id)).id, company_organization_id: sister.id, valid_from: '2020-01-01' };
    },
    noop: (r) => ({ valid_from: r.valid_from }),
    entity: 'counterpartyMappings',
    deactivates: true,
  },
  { path: 'settings.companyGroups', input: async () => ({ name: code('Group'), member_organization_ids: [] }), noop: (r) => ({ name: r.name, member_organization_ids: [] }), entity: 'companyGroups', deactivates: true },
  { path: 'settings.expenseCategories', input: async () => ({ code: code('TRV'), name: 'Travel' }), noop: (r) => ({ code: r.code, name: r.name }), entity: 'expenseCategories', deactivates: true },
  { path: 'settings.claimGroups', input: async () => ({ name: code('Trip') }), noop: (r) => ({ name: r.name }), entity: 'claimGroups', deactivates: true },
  { path: 'settings.exchangeRates', input: async () => ({ currency: 'USD', rate_date: '2024-01-02', rate: '4.5' }), noop: () => ({ rate: '4.50' }), entity: 'exchangeRates', deactivates: true },
  {
    path: 'settings.mileageRates',
    input: async () => ({ name: 'Car', valid_from: '2024-01-01', bands: [{ band: 'All', from_km: '0', to_km: null, rate_per_km: '0.6' }] }),
    noop: () => ({ bands: [{ band: 'All', from_km: '0.0', to_km: null, rate_per_km: '0.60' }] }),
    entity: 'mileageRates',
    deactivates: true,
  },
  {
    path: 'settings.perDiemRates',
    input: async () => ({ name: 'Domestic', valid_from: '2024-01-01', bands: [{ band: 'Domestic', amount_per_day: '50.00' }] }),
    noop: (r) => ({ name: r.name, valid_from: r.valid_from }),
    entity: 'perDiemRates',
    deactivates: true,
  },
  { path: 'settings.orgUnits', input: async () => ({ code: code('U'), name: 'Finance' }), noop: (r) => ({ code: r.code, name: r.name }), entity: 'orgUnits', deactivates: true },
  { path: 'settings.positions', input: async (org) => ({ org_unit_id: (await unit(org)).id, title: 'Clerk' }), noop: (r) => ({ title: r.title }), entity: 'positions', deactivates: true },
  {
    path: 'settings.positionAssignments',
    input: async (org) => {
      const position = await call(org, 'settings.positions').create({ org_unit_id: (await unit(org)).id, title: 'Clerk' });
      return { member_id: (await accountant(org)).id, position_id: position.id, valid_from: '2020-01-01' };
    },
    noop: (r) => ({ valid_from: r.valid_from }),
    entity: 'positionAssignments',
    deactivates: true,
  },
  {
    path: 'settings.approvalGrants',
    input: async (org) => ({ name: code('Controller'), kind: 'default', step: 'review', holder_member_id: (await accountant(org)).id }),
    noop: (r) => ({ name: r.name }),
    entity: 'approvalGrants',
    deactivates: true,
  },
  {
    path: 'settings.approverAssignments',
    input: async (org) => {
      const account = await call(org, 'settings.analyticAccounts').create({ axis_id: (await axis(org)).id, code: code('P'), name: 'Project' });
      return { analytic_account_id: account.id, member_id: (await accountant(org)).id, valid_from: '2024-01-01', max_amount: '1000' };
    },
    noop: () => ({ min_amount: '0', max_amount: '1000.00' }),
    entity: 'approverAssignments',
    deactivates: true,
  },
  {
    path: 'settings.delegations',
    input: async (org) => ({ delegator_member_id: (await accountant(org)).id, delegate_member_id: (await accountant(org)).id, valid_from: '2026-01-01', valid_to: '2026-01-31', reason: 'Leave' }),
    noop: (r) => ({ reason: r.reason, valid_to: r.valid_to }),
    entity: 'delegations',
    deactivates: true,
  },
  {
    path: 'organization.members',
    create: 'add',
    input: async () => ({ name: 'Siti', email: `${randomUUID()}@example.com`, roles: ['viewer'] }),
    noop: (r) => ({ name: r.name, email: r.email }),
    entity: 'members',
    deactivates: true,
  },
  { path: 'organization.roles', input: async () => ({ key: `r_${randomUUID().slice(0, 8)}`, name: 'Auditor', permissions: ['organization.settings.read'] }), noop: (r) => ({ name: r.name, permissions: r.permissions }), entity: 'roles' },
  {
    path: 'me.payoutChannels',
    input: async () => ({ channel_key: 'bank_transfer', name: 'Salary', fields: { bank: 'MBBEMYKL', account_holder: 'Owner', account_number: '514012345678' } }),
    noop: () => ({}),
    entity: 'payoutChannels',
    deactivates: true,
  },
];

/** Creates over HTTP (POST /trpc/<path>.<verb>): 201 with the revision as ETag. */
async function createdOverHttp(org: TestOrganization, f: Family): Promise<Record_> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/trpc/${f.path}.${f.create ?? 'create'}`,
    headers: { authorization: `Bearer ${org.owner.session}` },
    payload: await f.input!(org),
  });
  expect(res.statusCode, res.body).toBe(201);
  const record = res.json().result.data as Record_;
  expect(res.headers.etag).toBe(`"${record.revision}"`);
  return record;
}

describe.each(FAMILIES)('$path: one set-up behaviour', (f) => {
  it('create is 201 with the revision as ETag', async () => {
    const org = await createTestOrganization(t.db);
    await createdOverHttp(org, f);
  });

  if (f.path !== 'me.payoutChannels') {
    it('an update that changes nothing writes nothing: same revision, no history entry', async () => {
      const org = await createTestOrganization(t.db);
      const record = await createdOverHttp(org, f);
      const before = await historyOf(t, org.owner.session, f.entity, record.id);
      const answer = await call(org, `${f.path}.update`, record.revision)({ id: record.id, ...f.noop(record, org) });
      expect(answer).toEqual(record);
      expect(await historyOf(t, org.owner.session, f.entity, record.id)).toEqual(before);
      // The revision did not move: the one read still applies.
      const again = await call(org, `${f.path}.update`, record.revision)({ id: record.id, ...f.noop(record, org) });
      expect(again.revision).toBe(record.revision);
    });
  }

  if (f.deactivates) {
    it('deactivating an inactive record is 409 conflict at /id, and records nothing', async () => {
      const org = await createTestOrganization(t.db);
      const record = await createdOverHttp(org, f);
      const done = await call(org, `${f.path}.deactivate`, record.revision)({ id: record.id });
      expect(done.revision).toBe(record.revision + 1);
      const history = await historyOf(t, org.owner.session, f.entity, record.id);
      expectRefused(await refusal(call(org, `${f.path}.deactivate`, done.revision)({ id: record.id })), 409, 'conflict', '/id');
      expect(await historyOf(t, org.owner.session, f.entity, record.id)).toEqual(history);
    });
  }
});

describe('organization.profile: one set-up behaviour', () => {
  it('an update that changes nothing writes nothing: same revision, no history entry', async () => {
    const org = await createTestOrganization(t.db);
    const profile = call(org, 'organization.profile');
    const current = await profile.get();
    const before = await historyOf(t, org.owner.session, 'profile', org.id);
    const answer = await call(org, 'organization.profile', current.revision).update({ name: current.name, base_currency: current.base_currency, time_zone: current.time_zone });
    expect(answer).toEqual(current);
    expect(await historyOf(t, org.owner.session, 'profile', org.id)).toEqual(before);
  });
});
