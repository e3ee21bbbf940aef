import type { z } from 'zod';
import { accountContract } from '../../../../../src/contract/settings/accounts';
import { analyticAccountContract } from '../../../../../src/contract/settings/analytic-accounts';
import { analyticAxisContract } from '../../../../../src/contract/settings/analytic-axes';
import { approvalGrantContract } from '../../../../../src/contract/settings/approval-grants';
import { approverAssignmentContract } from '../../../../../src/contract/settings/approver-assignments';
import { claimGroupContract } from '../../../../../src/contract/settings/claim-groups';
import { companyGroupContract } from '../../../../../src/contract/settings/company-groups';
import { counterpartyMappingContract } from '../../../../../src/contract/settings/counterparty-mappings';
import { customFieldContract } from '../../../../../src/contract/settings/custom-fields';
import { exchangeRateContract } from '../../../../../src/contract/settings/exchange-rates';
import { expenseCategoryContract } from '../../../../../src/contract/settings/expense-categories';
import { mileageRateContract } from '../../../../../src/contract/settings/mileage-rates';
import { orgUnitContract } from '../../../../../src/contract/settings/org-units';
import { perDiemRateContract } from '../../../../../src/contract/settings/per-diem-rates';
import { positionAssignmentContract } from '../../../../../src/contract/settings/position-assignments';
import { positionContract } from '../../../../../src/contract/settings/positions';
import { taxCodeContract } from '../../../../../src/contract/settings/tax-codes';
import taxTypes from '../../../../../data/tax-types.json';
import { trpc, write, type ConsoleClient } from '../../../api/trpc';
import type { MessageKey } from '../../../i18n';

/**
 * The reference data families as the one set-up screen shows them (reference-page.tsx): each
 * family's procedures (settings.<family>.list|create|update|deactivate, all built alike on the
 * server), its input schemas, and a short description: the columns of its list, the order of its
 * form's fields, where an id field takes its choices from. Each family's rules stay on the server;
 * its refusals are shown on the fields they name.
 */

export type Row = { id: string; revision: number; [field: string]: unknown };
type Page = { items: Row[]; next_cursor: string | null };
type WriteOptions = Parameters<ConsoleClient['settings']['accounts']['create']['mutate']>[1];

/** The four procedures every family has (typed loosely here: the schemas check the input). */
export interface SetupProcedures {
  list: { query(input: { limit?: number; cursor?: string; include_inactive?: boolean }): Promise<Page> };
  create: { mutate(input: never, opts?: WriteOptions): Promise<Row> };
  update: { mutate(input: never, opts?: WriteOptions): Promise<Row> };
  deactivate: { mutate(input: { id: string }, opts?: WriteOptions): Promise<Row> };
}

/** Where an id field's choices come from: another family, the members or the customers. */
export type RefSource = { family: string } | { members: true } | { customers: true };

/** A code list a text field chooses from. */
export interface Choices {
  options: { value: string; label: string }[];
}

export interface FieldOptions {
  ref?: RefSource;
  choices?: Choices;
}

export interface Family {
  key: FamilyKey;
  title: MessageKey;
  intro: MessageKey;
  procedures: SetupProcedures;
  create: z.ZodObject;
  update: z.ZodObject;
  /** The list's columns (field names of the record), the first one naming the row. */
  columns: string[];
  /** The form's fields in this order (the schema's own order for the rest). */
  order: string[];
  fields?: Record<string, FieldOptions>;
  /** How a record is named in choices and headings. */
  label: (row: Row) => string;
  /** The group on the settings page. */
  group: FamilyGroup;
  /**
   * What the caller's organization may decide on a record beside editing it (a company group's
   * invitation: accept or decline; a membership: leave), from the record's own answer.
   */
  decisions?: (row: Row) => Decision[];
  /** Whether the caller's organization manages the record (edit, deactivate); every record when absent. */
  manages?: (row: Row) => boolean;
}

/** A decision on a record, taken with the record's revision (If-Match). */
export interface Decision {
  key: string;
  label: MessageKey;
  /** The dialog's title, with {name}. */
  question: MessageKey;
  /** The toast once taken, with {name}. */
  done: MessageKey;
  take: (id: string, revision: number) => Promise<unknown>;
}

export type FamilyGroup = 'accounting' | 'organization' | 'expenses' | 'approvals' | 'group';

const procedures = (p: unknown) => p as SetupProcedures;
const codeName = (row: Row) => `${String(row.code ?? '')} ${String(row.name ?? '')}`.trim();
const named = (row: Row) => String(row.name ?? row.title ?? row.id);
const TAX_TYPES: Choices = { options: taxTypes.entries.map((e) => ({ value: e.code, label: `${e.code} ${e.description}` })) };

const s = trpc.settings;

export const FAMILIES = {
  accounts: {
    title: 'settings.family.accounts',
    intro: 'settings.family.accounts.intro',
    procedures: procedures(s.accounts),
    create: accountContract.create,
    update: accountContract.update,
    columns: ['code', 'name', 'type'],
    order: ['code', 'name', 'type'],
    label: codeName,
    group: 'accounting',
  },
  taxCodes: {
    title: 'settings.family.taxCodes',
    intro: 'settings.family.taxCodes.intro',
    procedures: procedures(s.taxCodes),
    create: taxCodeContract.create,
    update: taxCodeContract.update,
    columns: ['code', 'name', 'rate', 'tax_type'],
    order: ['code', 'name', 'rate', 'tax_type'],
    fields: { tax_type: { choices: TAX_TYPES } },
    label: codeName,
    group: 'accounting',
  },
  analyticAxes: {
    title: 'settings.family.analyticAxes',
    intro: 'settings.family.analyticAxes.intro',
    procedures: procedures(s.analyticAxes),
    create: analyticAxisContract.create,
    update: analyticAxisContract.update,
    columns: ['code', 'name', 'is_project_axis', 'required_on_claims'],
    order: ['code', 'name'],
    label: codeName,
    group: 'accounting',
  },
  analyticAccounts: {
    title: 'settings.family.analyticAccounts',
    intro: 'settings.family.analyticAccounts.intro',
    procedures: procedures(s.analyticAccounts),
    create: analyticAccountContract.create,
    update: analyticAccountContract.update,
    columns: ['code', 'name', 'axis_id'],
    order: ['axis_id', 'code', 'name'],
    fields: { axis_id: { ref: { family: 'analyticAxes' } } },
    label: codeName,
    group: 'accounting',
  },
  customFields: {
    title: 'settings.family.customFields',
    intro: 'settings.family.customFields.intro',
    procedures: procedures(s.customFields),
    create: customFieldContract.create,
    update: customFieldContract.update,
    columns: ['label', 'key', 'record_type', 'type', 'required'],
    order: ['record_type', 'key', 'label', 'type', 'options', 'required'],
    label: (row) => String(row.label ?? row.key),
    group: 'accounting',
  },
  orgUnits: {
    title: 'settings.family.orgUnits',
    intro: 'settings.family.orgUnits.intro',
    procedures: procedures(s.orgUnits),
    create: orgUnitContract.create,
    update: orgUnitContract.update,
    columns: ['code', 'name', 'parent_id'],
    order: ['code', 'name', 'parent_id'],
    fields: { parent_id: { ref: { family: 'orgUnits' } } },
    label: codeName,
    group: 'organization',
  },
  positions: {
    title: 'settings.family.positions',
    intro: 'settings.family.positions.intro',
    procedures: procedures(s.positions),
    create: positionContract.create,
    update: positionContract.update,
    columns: ['title', 'org_unit_id', 'is_unit_head', 'reports_to_position_id'],
    order: ['title', 'org_unit_id', 'is_unit_head', 'reports_to_position_id'],
    fields: { org_unit_id: { ref: { family: 'orgUnits' } }, reports_to_position_id: { ref: { family: 'positions' } } },
    label: named,
    group: 'organization',
  },
  positionAssignments: {
    title: 'settings.family.positionAssignments',
    intro: 'settings.family.positionAssignments.intro',
    procedures: procedures(s.positionAssignments),
    create: positionAssignmentContract.create,
    update: positionAssignmentContract.update,
    columns: ['member_id', 'position_id', 'valid_from', 'valid_to', 'is_primary'],
    order: ['member_id', 'position_id', 'valid_from', 'valid_to', 'is_primary'],
    fields: { member_id: { ref: { members: true } }, position_id: { ref: { family: 'positions' } } },
    label: (row) => `${String(row.valid_from)}`,
    group: 'organization',
  },
  expenseCategories: {
    title: 'settings.family.expenseCategories',
    intro: 'settings.family.expenseCategories.intro',
    procedures: procedures(s.expenseCategories),
    create: expenseCategoryContract.create,
    update: expenseCategoryContract.update,
    columns: ['code', 'name'],
    order: ['code', 'name'],
    label: codeName,
    group: 'expenses',
  },
  claimGroups: {
    title: 'settings.family.claimGroups',
    intro: 'settings.family.claimGroups.intro',
    procedures: procedures(s.claimGroups),
    create: claimGroupContract.create,
    update: claimGroupContract.update,
    columns: ['name'],
    order: ['name'],
    label: named,
    group: 'expenses',
  },
  mileageRates: {
    title: 'settings.family.mileageRates',
    intro: 'settings.family.mileageRates.intro',
    procedures: procedures(s.mileageRates),
    create: mileageRateContract.create,
    update: mileageRateContract.update,
    columns: ['name', 'currency', 'valid_from', 'valid_to', 'bands'],
    order: ['name', 'currency', 'valid_from', 'valid_to', 'bands'],
    label: named,
    group: 'expenses',
  },
  perDiemRates: {
    title: 'settings.family.perDiemRates',
    intro: 'settings.family.perDiemRates.intro',
    procedures: procedures(s.perDiemRates),
    create: perDiemRateContract.create,
    update: perDiemRateContract.update,
    columns: ['name', 'currency', 'valid_from', 'valid_to', 'bands'],
    order: ['name', 'currency', 'valid_from', 'valid_to', 'bands'],
    label: named,
    group: 'expenses',
  },
  exchangeRates: {
    title: 'settings.family.exchangeRates',
    intro: 'settings.family.exchangeRates.intro',
    procedures: procedures(s.exchangeRates),
    create: exchangeRateContract.create,
    update: exchangeRateContract.update,
    columns: ['currency', 'rate_date', 'rate'],
    order: ['currency', 'rate_date', 'rate'],
    label: (row) => `${String(row.currency)} ${String(row.rate_date)}`,
    group: 'expenses',
  },
  approvalGrants: {
    title: 'settings.family.approvalGrants',
    intro: 'settings.family.approvalGrants.intro',
    procedures: procedures(s.approvalGrants),
    create: approvalGrantContract.create,
    update: approvalGrantContract.update,
    columns: ['name', 'kind', 'step', 'bands'],
    order: ['name', 'kind', 'step', 'axis_id', 'holder_position_id', 'holder_member_id', 'max_levels', 'fallback_grant_id', 'bands'],
    fields: {
      axis_id: { ref: { family: 'analyticAxes' } },
      holder_position_id: { ref: { family: 'positions' } },
      holder_member_id: { ref: { members: true } },
      fallback_grant_id: { ref: { family: 'approvalGrants' } },
    },
    label: named,
    group: 'approvals',
  },
  approverAssignments: {
    title: 'settings.family.approverAssignments',
    intro: 'settings.family.approverAssignments.intro',
    procedures: procedures(s.approverAssignments),
    create: approverAssignmentContract.create,
    update: approverAssignmentContract.update,
    columns: ['analytic_account_id', 'member_id', 'valid_from', 'valid_to', 'min_amount', 'max_amount'],
    order: ['analytic_account_id', 'member_id', 'valid_from', 'valid_to', 'min_amount', 'max_amount'],
    fields: { analytic_account_id: { ref: { family: 'analyticAccounts' } }, member_id: { ref: { members: true } } },
    label: (row) => `${String(row.valid_from)}`,
    group: 'approvals',
  },
  companyGroups: {
    title: 'settings.family.companyGroups',
    intro: 'settings.family.companyGroups.intro',
    procedures: procedures(s.companyGroups),
    create: companyGroupContract.create,
    update: companyGroupContract.update,
    columns: ['name', 'membership', 'member_organization_ids'],
    order: ['name', 'member_organization_ids'],
    label: named,
    group: 'group',
    manages: (row) => row.membership === 'creator',
    decisions: (row) => {
      const take = (procedure: typeof s.companyGroups.accept) => (id: string, revision: number) => procedure.mutate({ id }, write({ revision }));
      if (row.membership === 'invited') {
        return [
          { key: 'accept', label: 'settings.companyGroups.accept', question: 'settings.companyGroups.acceptOf', done: 'settings.companyGroups.accepted', take: take(s.companyGroups.accept) },
          { key: 'decline', label: 'settings.companyGroups.decline', question: 'settings.companyGroups.declineOf', done: 'settings.companyGroups.declined', take: take(s.companyGroups.decline) },
        ];
      }
      if (row.membership === 'member') {
        return [{ key: 'leave', label: 'settings.companyGroups.leave', question: 'settings.companyGroups.leaveOf', done: 'settings.companyGroups.left', take: take(s.companyGroups.leave) }];
      }
      return [];
    },
  },
  counterpartyMappings: {
    title: 'settings.family.counterpartyMappings',
    intro: 'settings.family.counterpartyMappings.intro',
    procedures: procedures(s.counterpartyMappings),
    create: counterpartyMappingContract.create,
    update: counterpartyMappingContract.update,
    columns: ['customer_id', 'company_organization_id', 'valid_from', 'valid_to'],
    order: ['customer_id', 'company_organization_id', 'valid_from', 'valid_to'],
    fields: { customer_id: { ref: { customers: true } } },
    label: (row) => `${String(row.valid_from)}`,
    group: 'group',
  },
} satisfies Record<string, Omit<Family, 'key'>>;

export type FamilyKey = keyof typeof FAMILIES;

export const FAMILY_KEYS = Object.keys(FAMILIES) as FamilyKey[];

export function familyOf(key: string): Family | undefined {
  return key in FAMILIES ? { key: key as FamilyKey, ...(FAMILIES[key as FamilyKey] as Omit<Family, 'key'>) } : undefined;
}

export const FAMILY_GROUPS: { group: FamilyGroup; title: MessageKey }[] = [
  { group: 'accounting', title: 'settings.group.accounting' },
  { group: 'organization', title: 'settings.group.organization' },
  { group: 'expenses', title: 'settings.group.expenses' },
  { group: 'approvals', title: 'settings.group.approvals' },
  { group: 'group', title: 'settings.group.group' },
];
