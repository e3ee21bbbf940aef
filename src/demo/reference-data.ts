import type { AppDeps } from '../deps';
import { todayIn } from '../lib/dates';
import { allPages, as, byCode } from './actors';
import { castOf, type Cast, type DemoRun, type SeededOrganization } from './people';
import type { DemoOrganization } from './types';

/**
 * The organization's reference data, set up by its owner through the settings.* procedures: the
 * default chart of accounts and SST tax codes every organization is created with (picked by code,
 * plus one retired account), a project axis with two projects and a department axis, custom fields
 * of documents, the org chart (units, positions with one vacant and one retired, primary
 * assignments), expense categories, claim groups (one retired), mileage and per-diem rates with
 * bands, and reference exchange rates.
 */

/** What the later steps use. */
export interface ReferenceData {
  today: string;
  accounts: { sales: { id: string }; services: { id: string } };
  taxCodes: { serviceTax: { id: string }; salesTax: { id: string }; exempt: { id: string }; notApplicable: { id: string } };
  projects: { klcc: { id: string }; penang: { id: string } };
  departments: { sales: { id: string }; operations: { id: string } };
  categories: { meals: { id: string }; travel: { id: string }; lodging: { id: string }; advance: { id: string } };
  claimGroups: { roadshow: { id: string } };
  mileageRate: { id: string };
  /** The Finance Manager's seat: the finance controller's default grant names it. */
  financeManager: { id: string };
  perDiemRate: { id: string };
}

type Printed = Pick<
  DemoOrganization,
  | 'accounts'
  | 'tax_codes'
  | 'analytic_axes'
  | 'projects'
  | 'departments'
  | 'custom_fields'
  | 'expense_categories'
  | 'claim_groups'
  | 'org_units'
  | 'positions'
  | 'mileage_rates'
  | 'per_diem_rates'
  | 'exchange_rates'
>;

/**
 * Acme and its sister company form a group: Acme's owner creates it and invites the sister company
 * (settings.companyGroups.create), whose owner accepts (settings.companyGroups.accept).
 */
export async function seedCompanyGroup(deps: AppDeps, run: DemoRun, org: SeededOrganization, cast: Cast, sibling: SeededOrganization) {
  const group = await as(deps, cast.owner).settings.companyGroups.create({ name: `Acme Group ${run.tag}`, member_organization_ids: [sibling.id] });
  return as(deps, castOf(sibling).owner, { ifMatch: group.revision }).settings.companyGroups.accept({ id: group.id });
}

export async function seedReferenceData(deps: AppDeps, run: DemoRun, org: SeededOrganization, cast: Cast): Promise<{ reference: ReferenceData; printed: Printed }> {
  const { owner } = cast;
  const settings = () => as(deps, owner).settings;
  const withRevision = (revision: number) => as(deps, owner, { ifMatch: revision }).settings;
  const profile = await as(deps, owner).organization.profile.get();
  const today = todayIn(profile.time_zone, run.now);

  // The default chart and tax codes (data/default-chart-of-accounts.json, data/default-tax-codes.json).
  const retired = await settings().accounts.create({ code: '4900', name: 'Old revenue (retired)', type: 'revenue' });
  await withRevision(retired.revision).accounts.deactivate({ id: retired.id });
  const accounts = await allPages((cursor) => settings().accounts.list({ include_inactive: true, limit: 100, cursor }));
  const taxCodes = await allPages((cursor) => settings().taxCodes.list({ limit: 100, cursor }));

  const projectAxis = await settings().analyticAxes.create({ code: 'PRJ', name: 'Projects', is_project_axis: true });
  const departmentAxis = await settings().analyticAxes.create({ code: 'DEPT', name: 'Departments' });
  const analytic = (axis_id: string, code: string, name: string) => settings().analyticAccounts.create({ axis_id, code, name });
  const klcc = await analytic(projectAxis.id, 'P-KLCC', 'KLCC fit-out');
  const penang = await analytic(projectAxis.id, 'P-PNG', 'Penang warehouse');
  const salesDepartment = await analytic(departmentAxis.id, 'SALES', 'Sales');
  const operations = await analytic(departmentAxis.id, 'OPS', 'Operations');

  const field = (key: string, label: string, type: 'text' | 'select' | 'date' | 'boolean', options?: string[]) =>
    settings().customFields.create({ record_type: 'receivable_document', key, label, type, ...(options ? { options } : {}) });
  const customFields = [
    await field('po_number', 'Customer PO number', 'text'),
    await field('region', 'Sales region', 'select', ['Central', 'Northern', 'Southern', 'East Coast', 'Borneo']),
    await field('delivery_date', 'Delivery date', 'date'),
    await field('urgent', 'Urgent', 'boolean'),
  ];

  // The org chart (docs/design.md §17's superior walk): Head Office with the Managing Director, the
  // Commercial Division (its director's seat vacant) over the Sales Department, whose manager left
  // the company, and the Finance Department with its manager; a vacant seat and a retired one. A
  // claimant in Sales is signed for in review by the first active holder up the chain: the director.
  const hq = await settings().orgUnits.create({ code: 'HQ', name: 'Head Office' });
  const division = await settings().orgUnits.create({ code: 'COM', name: 'Commercial Division', parent_id: hq.id });
  const salesUnit = await settings().orgUnits.create({ code: 'SALES', name: 'Sales Department', parent_id: division.id });
  const finance = await settings().orgUnits.create({ code: 'FIN', name: 'Finance Department', parent_id: hq.id });
  const position = (org_unit_id: string, title: string, is_unit_head = false) => settings().positions.create({ org_unit_id, title, is_unit_head });
  const director = await position(hq.id, 'Managing Director', true);
  const commercialDirector = await position(division.id, 'Commercial Director', true);
  const salesManager = await position(salesUnit.id, 'Sales Manager', true);
  const salesExecutive = await position(salesUnit.id, 'Sales Executive');
  const financeManager = await position(finance.id, 'Finance Manager', true);
  const accountsClerk = await position(finance.id, 'Accounts Clerk');
  const vacant = await position(salesUnit.id, 'Business Development Executive');
  const despatch = await position(hq.id, 'Despatch Clerk');
  const despatchRetired = await withRevision(despatch.revision).positions.deactivate({ id: despatch.id });
  // In a small organization one person fills several parts: the last seat named for them is theirs.
  const seatOf = new Map([
    [cast.owner.id, director.id],
    [cast.colleague.id, accountsClerk.id],
    [cast.approver.id, financeManager.id],
    [cast.claimant.id, salesExecutive.id],
  ]);
  // The Sales Manager who left keeps the seat on the chart (deactivated afterwards): the walk passes them over.
  if (cast.leaver) seatOf.set(cast.leaver.id, salesManager.id);
  for (const [member_id, position_id] of seatOf) {
    await settings().positionAssignments.create({ member_id, position_id, valid_from: '2024-01-01', is_primary: true });
  }
  const holderOf = (positionId: string) => [...seatOf].find(([, p]) => p === positionId)?.[0] ?? null;

  const category = (code: string, name: string) => settings().expenseCategories.create({ code, name });
  const meals = await category('MEALS', 'Meals and entertainment');
  const travel = await category('TRAVEL', 'Travel and transport');
  const lodging = await category('LODGING', 'Accommodation');
  const advance = await category('ADVANCE', 'Cash advance');
  const roadshow = await settings().claimGroups.create({ name: 'Northern region roadshow' });
  const retreat = await settings().claimGroups.create({ name: 'Annual retreat (closed)' });
  const retreatRetired = await withRevision(retreat.revision).claimGroups.deactivate({ id: retreat.id });

  const mileage = await settings().mileageRates.create({
    name: 'Private car mileage',
    valid_from: '2024-01-01',
    bands: [
      { band: 'first_500_km', from_km: '0', to_km: '500', rate_per_km: '0.8' },
      { band: 'beyond_500_km', from_km: '500', rate_per_km: '0.5' },
    ],
  });
  const perDiem = await settings().perDiemRates.create({
    name: 'Daily subsistence allowance',
    valid_from: '2024-01-01',
    bands: [
      { band: 'peninsular', amount_per_day: '80' },
      { band: 'sabah_sarawak', amount_per_day: '100' },
      { band: 'overseas', amount_per_day: '180' },
    ],
  });
  // Reference rates of the currencies the documents and claims use, as at today.
  const exchangeRates = [];
  for (const [currency, rate] of [
    ['USD', '4.4712'],
    ['SGD', '3.4815'],
    ['JPY', '0.0301'],
  ] as const) {
    exchangeRates.push(await settings().exchangeRates.create({ currency, rate_date: today, rate }));
  }

  const reference: ReferenceData = {
    today,
    accounts: { sales: byCode(accounts, '4010', 'account'), services: byCode(accounts, '4020', 'account') },
    taxCodes: {
      serviceTax: byCode(taxCodes, 'SV-8', 'tax code'),
      salesTax: byCode(taxCodes, 'ST-10', 'tax code'),
      exempt: byCode(taxCodes, 'EXEMPT', 'tax code'),
      notApplicable: byCode(taxCodes, 'NOT-APPLICABLE', 'tax code'),
    },
    projects: { klcc, penang },
    departments: { sales: salesDepartment, operations },
    categories: { meals, travel, lodging, advance },
    claimGroups: { roadshow },
    mileageRate: mileage,
    financeManager,
    perDiemRate: perDiem,
  };
  const named = (r: { id: string; code: string; name: string }) => ({ id: r.id, code: r.code, name: r.name });
  const printed: Printed = {
    accounts: accounts.map((a) => ({ id: a.id, code: a.code, name: a.name, type: a.type, active: a.active })),
    tax_codes: taxCodes.map((c) => ({ id: c.id, code: c.code, rate: c.rate, tax_type: c.tax_type })),
    analytic_axes: [projectAxis, departmentAxis].map((a) => ({ id: a.id, code: a.code, name: a.name, is_project_axis: a.is_project_axis })),
    projects: [klcc, penang].map(named),
    departments: [salesDepartment, operations].map(named),
    custom_fields: customFields.map((f) => ({ id: f.id, key: f.key, label: f.label, type: f.type, options: f.options, required: f.required })),
    expense_categories: [meals, travel, lodging, advance].map(named),
    claim_groups: [roadshow, retreatRetired].map((g) => ({ id: g.id, name: g.name, retired: g.retired_at !== null })),
    org_units: [hq, division, salesUnit, finance].map((u) => ({ id: u.id, code: u.code, name: u.name, parent_id: u.parent_id })),
    positions: [director, commercialDirector, salesManager, salesExecutive, financeManager, accountsClerk, vacant, despatchRetired].map((p) => ({
      id: p.id,
      title: p.title,
      org_unit_id: p.org_unit_id,
      holder_member_id: holderOf(p.id),
      retired: p.retired_at !== null,
    })),
    mileage_rates: [{ id: mileage.id, name: mileage.name }],
    per_diem_rates: [{ id: perDiem.id, name: perDiem.name }],
    exchange_rates: exchangeRates.map((r) => ({ id: r.id, currency: r.currency, rate_date: r.rate_date, rate: r.rate })),
  };
  return { reference, printed };
}
