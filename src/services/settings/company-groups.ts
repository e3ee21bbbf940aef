import {
  acceptCompanyGroupInvitation,
  existingOrganizationIds,
  insertCompanyGroupWithMembers,
  listCompanyGroups,
  lockCompanyGroup,
  removeOwnCompanyGroupMembership,
  setCompanyGroupMembers,
  updateCompanyGroupRow,
  type CompanyGroupMembership,
  type CompanyGroupRow,
} from '../../db/queries/counterparty-map';
import { AppError } from '../../lib/errors';
import { Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { checkRevision } from '../revision';
import { recordSettingsChange } from './history';
import { changeRecord, checkName, createdRecord, deactivateRecord, notFound, setupListPage, written, type RecordChange, type SetupFamily, type SetupListInput } from './setup';

/**
 * Company groups (settings.companyGroups.*): organizations consolidated together. A group spans
 * organizations, so it is not a tenant record: an organization sees only the groups it is in or
 * invited to (any other group answers 404). Membership needs consent: the organization that creates
 * a group is its first member and alone manages it (name, invitations, members, deactivation: any
 * other organization is 403 `company_group_creator_only`); every other organization it names is
 * only invited, and an invitation grants nothing (no counterparty mapping, no group company) until a
 * person of that organization accepts it. An invited or member organization may decline or leave;
 * the creator cannot leave (it deactivates the group). Members are named by organization id only;
 * nothing else of another organization is ever answered, and the invitations are shown to the
 * creator alone (who typed them). Every change is recorded in the acting organization's settings history.
 */

const MEMBERS_MAX = 100;

function membershipOf(g: CompanyGroupRow, organizationId: string): CompanyGroupMembership {
  if (g.createdByOrganizationId === organizationId) return 'creator';
  return g.memberOrganizationIds.includes(organizationId) ? 'member' : 'invited';
}

/** The group as `organizationId` sees it: its own standing, and the invitations only when it created the group. */
export function companyGroupView(g: CompanyGroupRow, organizationId: string, membership: CompanyGroupMembership | 'none' = membershipOf(g, organizationId)) {
  return {
    id: g.id,
    name: g.name,
    created_by_organization_id: g.createdByOrganizationId,
    member_organization_ids: g.memberOrganizationIds,
    invited_organization_ids: membership === 'creator' ? g.invitedOrganizationIds : [],
    membership,
    active: g.active,
    revision: g.revision,
  };
}
export type CompanyGroupView = ReturnType<typeof companyGroupView>;

const ENTITY = 'companyGroups';

/** The other organizations named, as they will be invited: no duplicates, never the caller's own, each an organization. */
async function checkMembers(ctx: ServiceContext, r: Refusals, ids: string[]): Promise<string[]> {
  const others = [...new Set(ids)].filter((id) => id !== ctx.org.id);
  if (!r.check(others.length < MEMBERS_MAX, '/member_organization_ids', `at most ${MEMBERS_MAX} organizations`)) return others;
  const found = new Set(await existingOrganizationIds(ctx.db, { ids: others }));
  for (const [i, id] of ids.entries()) if (id !== ctx.org.id) r.check(found.has(id), `/member_organization_ids/${i}`, 'no such organization');
  return others.sort();
}

async function lockedGroup(ctx: ServiceContext, id: string): Promise<CompanyGroupRow> {
  const current = await lockCompanyGroup(ctx.db, { organizationId: ctx.org.id, id });
  if (!current) throw notFound('company group');
  return current;
}

/** `keepOrInvite`: the other organizations the group is to list, when they change. */
type CompanyGroupChange = { name?: string; active?: boolean; keepOrInvite?: string[] };

/** Changes the creator alone may make: another organization in the group is 403 before its revision is weighed. */
const companyGroups: SetupFamily<CompanyGroupRow, CompanyGroupView, CompanyGroupChange> = {
  entity: ENTITY,
  what: 'company group',
  lock: async (ctx, id) => {
    const current = await lockCompanyGroup(ctx.db, { organizationId: ctx.org.id, id });
    if (current && current.createdByOrganizationId !== ctx.org.id) {
      throw new AppError('company_group_creator_only', { detail: 'Only the organization that created the company group manages it; another organization may only leave it' });
    }
    return current;
  },
  write: async (ctx, current, { keepOrInvite, ...set }) => {
    if (keepOrInvite) await setCompanyGroupMembers(ctx.db, { organizationId: ctx.org.id, id: current.id, keepOrInvite });
    return updateCompanyGroupRow(ctx.db, { organizationId: ctx.org.id, id: current.id }, { ...set, revision: current.revision + 1 });
  },
  view: (ctx, row) => companyGroupView(row, ctx.org.id),
  inactive: (_ctx, row) => (row.active ? undefined : 'is already inactive'),
};

export interface CreateCompanyGroupInput {
  name: string;
  /** The other organizations to invite; the caller's own is the first member (the creator). */
  member_organization_ids: string[];
}

/** Creates a group with the caller's organization as its creator and the others invited. */
export async function createCompanyGroup(ctx: ServiceContext, input: CreateCompanyGroupInput): Promise<CompanyGroupView> {
  const r = new Refusals();
  checkName(r, input.name);
  const others = await checkMembers(ctx, r, input.member_organization_ids);
  r.throwIfAny();
  const row = await insertCompanyGroupWithMembers(ctx.db, {
    name: input.name.trim(),
    createdByOrganizationId: ctx.org.id,
    otherOrganizationIds: others,
    othersStatus: 'invited',
  });
  return createdRecord(ctx, companyGroups, row);
}

export interface UpdateCompanyGroupInput extends RecordChange {
  name?: string;
  /**
   * The other organizations, members and invited alike: one not yet in the group is invited, one in
   * it and not listed is removed (an invitation withdrawn). The creator stays whether listed or not.
   */
  member_organization_ids?: string[];
}

export async function updateCompanyGroup(ctx: ServiceContext, input: UpdateCompanyGroupInput): Promise<CompanyGroupView> {
  const r = new Refusals();
  checkName(r, input.name);
  const others = input.member_organization_ids ? await checkMembers(ctx, r, input.member_organization_ids) : undefined;
  r.throwIfAny();
  return changeRecord(ctx, companyGroups, input, (current) => {
    const listedNow = [...current.memberOrganizationIds, ...current.invitedOrganizationIds].filter((id) => id !== ctx.org.id).sort();
    const membersChange = others !== undefined && others.join() !== listedNow.join();
    return { name: input.name?.trim(), keepOrInvite: membersChange ? others : undefined };
  });
}

export async function deactivateCompanyGroup(ctx: ServiceContext, input: RecordChange): Promise<CompanyGroupView> {
  return deactivateRecord(ctx, companyGroups, input, () => ({ active: false }));
}

/** The caller's organization accepts its invitation: from now on it is a member (group companies, counterparty map). */
export async function acceptCompanyGroupInvitationFor(ctx: ServiceContext, input: { id: string; expected_revision: number }): Promise<CompanyGroupView> {
  const current = await lockedGroup(ctx, input.id);
  checkRevision(current.revision, input.expected_revision);
  const standing = membershipOf(current, ctx.org.id);
  if (standing !== 'invited') return companyGroupView(current, ctx.org.id, standing);
  if (!current.active) throw new AppError('conflict', { detail: 'The company group is inactive; its invitations can no longer be accepted' });
  const row = written(await acceptCompanyGroupInvitation(ctx.db, { organizationId: ctx.org.id, id: current.id, revision: current.revision + 1 }));
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'accept', before: companyGroupView(current, ctx.org.id), after: companyGroupView(row, ctx.org.id) });
  return companyGroupView(row, ctx.org.id);
}

/**
 * The caller's organization declines its invitation (`only: 'invited'`) or leaves the group (either
 * standing). The creator cannot leave: 409 `conflict` (it deactivates the group instead).
 */
export async function leaveCompanyGroup(
  ctx: ServiceContext,
  input: { id: string; expected_revision: number },
  action: 'decline' | 'leave',
): Promise<CompanyGroupView> {
  const current = await lockedGroup(ctx, input.id);
  checkRevision(current.revision, input.expected_revision);
  const standing = membershipOf(current, ctx.org.id);
  if (standing === 'creator') throw new AppError('conflict', { detail: 'The organization that created the company group cannot leave it; deactivate the group instead' });
  if (action === 'decline' && standing !== 'invited') throw new AppError('conflict', { detail: 'The invitation was already accepted; leave the group instead' });
  const row = written(await removeOwnCompanyGroupMembership(ctx.db, { organizationId: ctx.org.id, id: current.id, revision: current.revision + 1 }));
  const before = companyGroupView(current, ctx.org.id);
  // The group as it now stands; the caller is no longer in it (later reads answer 404).
  const after = companyGroupView(row, ctx.org.id, 'none');
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action, before, after });
  return after;
}

export type ListCompanyGroupsInput = SetupListInput;

export function listCompanyGroupsPage(ctx: ServiceContext, input: ListCompanyGroupsInput) {
  return setupListPage(ctx, 'settings.companyGroups', input, {}, (q) => listCompanyGroups(ctx.db, q), (g) => g.name, (g) => companyGroupView(g, ctx.org.id));
}
