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
import type { PageInput } from './page';
import { checkName, keysetPage, leavesUnchanged, must } from './rules';

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

/** The group under its lock, for a change the creator alone may make: absent 404, another organization 403, stale If-Match 409. */
async function lockedForCreator(ctx: ServiceContext, id: string, expectedRevision: number): Promise<CompanyGroupRow> {
  const current = await lockedGroup(ctx, id);
  if (current.createdByOrganizationId !== ctx.org.id) {
    throw new AppError('company_group_creator_only', { detail: 'Only the organization that created the company group manages it; another organization may only leave it' });
  }
  checkRevision(current.revision, expectedRevision);
  return current;
}

async function lockedGroup(ctx: ServiceContext, id: string): Promise<CompanyGroupRow> {
  const current = await lockCompanyGroup(ctx.db, { organizationId: ctx.org.id, id });
  if (!current) throw new AppError('not_found', { detail: 'No such company group in this organization' });
  return current;
}

export interface CreateCompanyGroupInput {
  name: string;
  /** The other organizations to invite; the caller's own is the first member (the creator). */
  member_organization_ids: string[];
}

/**
 * Creates a group with the caller's organization as its creator and the others invited.
 * `othersAccepted` is for fixtures only (the old signature acting for every organization at once).
 */
export async function createCompanyGroupRow(ctx: ServiceContext, input: CreateCompanyGroupInput, opts: { othersAccepted?: boolean } = {}): Promise<CompanyGroupRow> {
  const r = new Refusals();
  checkName(r, input.name);
  const others = await checkMembers(ctx, r, input.member_organization_ids);
  r.throwIfAny();
  const row = must(
    await insertCompanyGroupWithMembers(ctx.db, {
      name: input.name.trim(),
      createdByOrganizationId: ctx.org.id,
      otherOrganizationIds: others,
      othersStatus: opts.othersAccepted ? 'accepted' : 'invited',
    }),
  );
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'create', before: null, after: companyGroupView(row, ctx.org.id) });
  return row;
}

export async function createCompanyGroup(ctx: ServiceContext, input: CreateCompanyGroupInput): Promise<CompanyGroupView> {
  return companyGroupView(await createCompanyGroupRow(ctx, input), ctx.org.id);
}

export interface UpdateCompanyGroupInput {
  id: string;
  expected_revision: number;
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
  const current = await lockedForCreator(ctx, input.id, input.expected_revision);
  const name = input.name?.trim();
  const listedNow = [...current.memberOrganizationIds, ...current.invitedOrganizationIds].filter((id) => id !== ctx.org.id).sort();
  const membersChange = others !== undefined && others.join() !== listedNow.join();
  if (leavesUnchanged(current, { name }) && !membersChange) return companyGroupView(current, ctx.org.id);
  if (membersChange) await setCompanyGroupMembers(ctx.db, { organizationId: ctx.org.id, id: current.id, keepOrInvite: others });
  const row = must(await updateCompanyGroupRow(ctx.db, { organizationId: ctx.org.id, id: current.id }, { name, revision: current.revision + 1 }));
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'update', before: companyGroupView(current, ctx.org.id), after: companyGroupView(row, ctx.org.id) });
  return companyGroupView(row, ctx.org.id);
}

export async function deactivateCompanyGroup(ctx: ServiceContext, input: { id: string; expected_revision: number }): Promise<CompanyGroupView> {
  const current = await lockedForCreator(ctx, input.id, input.expected_revision);
  if (!current.active) return companyGroupView(current, ctx.org.id);
  const row = must(await updateCompanyGroupRow(ctx.db, { organizationId: ctx.org.id, id: current.id }, { active: false, revision: current.revision + 1 }));
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'deactivate', before: companyGroupView(current, ctx.org.id), after: companyGroupView(row, ctx.org.id) });
  return companyGroupView(row, ctx.org.id);
}

/** The caller's organization accepts its invitation: from now on it is a member (group companies, counterparty map). */
export async function acceptCompanyGroupInvitationFor(ctx: ServiceContext, input: { id: string; expected_revision: number }): Promise<CompanyGroupView> {
  const current = await lockedGroup(ctx, input.id);
  checkRevision(current.revision, input.expected_revision);
  const standing = membershipOf(current, ctx.org.id);
  if (standing !== 'invited') return companyGroupView(current, ctx.org.id, standing);
  if (!current.active) throw new AppError('conflict', { detail: 'The company group is inactive; its invitations can no longer be accepted' });
  const row = must(await acceptCompanyGroupInvitation(ctx.db, { organizationId: ctx.org.id, id: current.id, revision: current.revision + 1 }));
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
  const row = must(await removeOwnCompanyGroupMembership(ctx.db, { organizationId: ctx.org.id, id: current.id, revision: current.revision + 1 }));
  const before = companyGroupView(current, ctx.org.id);
  // The group as it now stands; the caller is no longer in it (later reads answer 404).
  const after = companyGroupView(row, ctx.org.id, 'none');
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action, before, after });
  return after;
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
    (g) => companyGroupView(g, ctx.org.id),
  );
}
