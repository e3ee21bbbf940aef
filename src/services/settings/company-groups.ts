import {
  existingOrganizationIds,
  insertCompanyGroupWithMembers,
  listCompanyGroups,
  lockCompanyGroup,
  updateCompanyGroupRow,
  type CompanyGroupRow,
} from '../../db/queries/counterparty-map';
import { Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { recordSettingsChange } from './history';
import type { PageInput } from './page';
import { checkName, keysetPage, leavesUnchanged, lockedForChange, must } from './rules';

/**
 * Company groups (settings.companyGroups.*): organizations consolidated together. A group spans
 * organizations, so it is not a tenant record: an organization sees, changes and deactivates only
 * the groups it is a member of (any other group answers 404), and creates only groups it belongs to
 * (its own id is always a member, and can never be removed). Members are named by organization id
 * only; nothing else of another organization is ever answered. The change is recorded in the
 * acting organization's settings history.
 */

const MEMBERS_MAX = 100;

export function companyGroupView(g: CompanyGroupRow) {
  return { id: g.id, name: g.name, member_organization_ids: g.memberOrganizationIds, active: g.active, revision: g.revision };
}
export type CompanyGroupView = ReturnType<typeof companyGroupView>;

const ENTITY = 'companyGroups';

/** The member list as it will be stored: the caller's organization first, no duplicates, each an organization. */
async function checkMembers(ctx: ServiceContext, r: Refusals, ids: string[]): Promise<string[]> {
  const members = [...new Set([ctx.org.id, ...ids])];
  if (!r.check(members.length <= MEMBERS_MAX, '/member_organization_ids', `at most ${MEMBERS_MAX} organizations`)) return members;
  const found = new Set(await existingOrganizationIds(ctx.db, { ids: members }));
  for (const [i, id] of ids.entries()) r.check(found.has(id), `/member_organization_ids/${i}`, 'no such organization');
  return members.sort();
}

export interface CreateCompanyGroupInput {
  name: string;
  /** The other organizations of the group; the caller's own is always a member. */
  member_organization_ids: string[];
}

export async function createCompanyGroupRow(ctx: ServiceContext, input: CreateCompanyGroupInput): Promise<CompanyGroupRow> {
  const r = new Refusals();
  checkName(r, input.name);
  const members = await checkMembers(ctx, r, input.member_organization_ids);
  r.throwIfAny();
  const row = must(await insertCompanyGroupWithMembers(ctx.db, { name: input.name.trim(), memberOrganizationIds: members }));
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'create', before: null, after: companyGroupView(row) });
  return row;
}

export async function createCompanyGroup(ctx: ServiceContext, input: CreateCompanyGroupInput): Promise<CompanyGroupView> {
  return companyGroupView(await createCompanyGroupRow(ctx, input));
}

export interface UpdateCompanyGroupInput {
  id: string;
  expected_revision: number;
  name?: string;
  /** Replaces the members; the caller's own organization stays a member whether listed or not. */
  member_organization_ids?: string[];
}

export async function updateCompanyGroup(ctx: ServiceContext, input: UpdateCompanyGroupInput): Promise<CompanyGroupView> {
  const r = new Refusals();
  checkName(r, input.name);
  const members = input.member_organization_ids ? await checkMembers(ctx, r, input.member_organization_ids) : undefined;
  r.throwIfAny();
  const current = lockedForChange(await lockCompanyGroup(ctx.db, { organizationId: ctx.org.id, id: input.id }), input.expected_revision, 'company group');
  const patch = { name: input.name?.trim(), memberOrganizationIds: members };
  if (leavesUnchanged(current, patch)) return companyGroupView(current);
  const row = must(await updateCompanyGroupRow(ctx.db, { organizationId: ctx.org.id, id: current.id }, { ...patch, revision: current.revision + 1 }));
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'update', before: companyGroupView(current), after: companyGroupView(row) });
  return companyGroupView(row);
}

export async function deactivateCompanyGroup(ctx: ServiceContext, input: { id: string; expected_revision: number }): Promise<CompanyGroupView> {
  const current = lockedForChange(await lockCompanyGroup(ctx.db, { organizationId: ctx.org.id, id: input.id }), input.expected_revision, 'company group');
  if (!current.active) return companyGroupView(current);
  const row = must(await updateCompanyGroupRow(ctx.db, { organizationId: ctx.org.id, id: current.id }, { active: false, revision: current.revision + 1 }));
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'deactivate', before: companyGroupView(current), after: companyGroupView(row) });
  return companyGroupView(row);
}

export interface ListCompanyGroupsInput extends PageInput {
  include_inactive?: boolean;
}

export async function listCompanyGroupsPage(ctx: ServiceContext, input: ListCompanyGroupsInput) {
  const includeInactive = input.include_inactive ?? false;
  return keysetPage(
    ctx,
    'settings.companyGroups',
    input,
    { include_inactive: includeInactive },
    (after, limit) => listCompanyGroups(ctx.db, { organizationId: ctx.org.id, includeInactive, after, limit }),
    (g) => g.name,
    companyGroupView,
  );
}
