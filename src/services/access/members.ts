import {
  findMember,
  findMemberByEmail,
  insertMember,
  insertMemberRoles,
  listAllRoles,
  listMembers,
  replaceMemberRoles,
  revokeMemberApiKeys,
  revokeMemberSessions,
  updateMemberRow,
  type MemberRecord,
  type RoleRecord,
} from '../../db/queries/access';
import { isUniqueViolation } from '../../db/errors';
import { AppError, notFound, conflict } from '../../lib/errors';
import { maxLength, notBlank, Refusals } from '../../lib/refusals';
import { recordEvent } from '../events/append';
import type { ServiceContext } from '../context';
import { checkRevision } from '../revision';
import { recordSettingsChange } from '../settings/history';
import { changeRecord, deactivateRecord, type RecordChange, type SetupFamily } from '../settings/setup';
import { openPage, type PageInput } from '../settings/page';
import { carriesOwnerPower, lockAuthority, refuseLockout, requireOwnerRoleManager } from './authority-rules';
import { checkPassword, hashPassword } from './passwords';

/**
 * The organization's members (organization.members.*, docs/design.md §5 and §15): people, their
 * e-mail (the login name, unique per organization, case-insensitive), their password (argon2id;
 * never answered, never recorded in history) and their roles. Every change weighs the role-editor
 * rules (authority-rules.ts) and is recorded in the settings history as `members`.
 */

export type MemberView = {
  id: string;
  name: string;
  email: string | null;
  active: boolean;
  roles: string[];
  revision: number;
};

export function memberView(m: MemberRecord): MemberView {
  return { id: m.id, name: m.name, email: m.email, active: m.active, roles: [...m.roles].sort(), revision: m.revision };
}

export const MEMBER_NAME_MAX = 200;
export const EMAIL_MAX = 254;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@.]+$/;

export function checkMemberName(r: Refusals, name: string, pointer = '/name'): void {
  if (notBlank(r, name, pointer)) maxLength(r, name, MEMBER_NAME_MAX, pointer);
}

/** An e-mail address a person logs in with: not blank, at most 254 characters, one @ and a domain. */
export function checkEmail(r: Refusals, email: string, pointer = '/email'): void {
  if (!notBlank(r, email, pointer) || !maxLength(r, email, EMAIL_MAX, pointer)) return;
  r.check(EMAIL_PATTERN.test(email.trim()), pointer, 'must be an e-mail address');
}

/** Resolves role keys to the organization's roles; an unknown or repeated key is refused at its index. */
export async function resolveRoleKeys(ctx: ServiceContext, r: Refusals, keys: readonly string[], pointer = '/roles'): Promise<RoleRecord[]> {
  const byKey = new Map((await listAllRoles(ctx.db, { organizationId: ctx.org.id })).map((role) => [role.key, role]));
  const seen = new Set<string>();
  const found: RoleRecord[] = [];
  keys.forEach((key, i) => {
    const role = byKey.get(key);
    if (seen.has(key)) r.add(`${pointer}/${i}`, 'is listed twice');
    else if (!role) r.add(`${pointer}/${i}`, 'is not a role of this organization');
    else found.push(role);
    seen.add(key);
  });
  return found;
}

const emailInUse = () => conflict('/email', 'is already in use', 'email: is already used by another member of this organization');

async function refuseEmailInUse(ctx: ServiceContext, email: string, exceptId?: string): Promise<void> {
  const other = await findMemberByEmail(ctx.db, { organizationId: ctx.org.id, email });
  if (other && other.id !== exceptId) throw emailInUse();
}

/** Runs a write that may hit the one-e-mail-per-organization index (a concurrent add): 409 at /email. */
async function guardEmail<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (isUniqueViolation(e, 'members_org_email')) throw emailInUse();
    throw e;
  }
}


/** A member of the caller's organization, locked for the change; 404 when absent or another organization's. */
async function lockMember(ctx: ServiceContext, id: string, expectedRevision?: number): Promise<MemberRecord> {
  const member = await findMember(ctx.db, { organizationId: ctx.org.id, id, forUpdate: true });
  if (!member) throw notFound('member');
  if (expectedRevision !== undefined) checkRevision(member.revision, expectedRevision);
  return member;
}

async function reread(ctx: ServiceContext, id: string): Promise<MemberView> {
  const member = await findMember(ctx.db, { organizationId: ctx.org.id, id });
  if (!member) throw new AppError('internal');
  return memberView(member);
}

/** The roles of a member as role records (to weigh what they carry). */
async function rolesOf(ctx: ServiceContext, member: MemberRecord): Promise<RoleRecord[]> {
  const all = await listAllRoles(ctx.db, { organizationId: ctx.org.id });
  return all.filter((role) => member.roles.includes(role.key));
}

const holdsOwnerPower = (roles: readonly RoleRecord[]) => roles.some((role) => carriesOwnerPower(role.permissions));

export async function listMembersPage(ctx: ServiceContext, input: PageInput) {
  const page = await openPage(ctx, 'members', input, {});
  const rows = await listMembers(ctx.db, {
    organizationId: ctx.org.id,
    after: page.after && page.after.value !== null ? { name: page.after.value, id: page.after.id } : undefined,
    limit: page.take,
  });
  return page.answer(rows, (m) => ({ value: m.name, id: m.id }), memberView);
}

export interface AddMemberInput {
  name: string;
  email: string;
  password?: string;
  roles: string[];
  active?: boolean;
}

/** organization.members.add: a new member with an e-mail, optionally a password, and roles. */
export async function addMember(ctx: ServiceContext, input: AddMemberInput): Promise<MemberView> {
  const r = new Refusals();
  checkMemberName(r, input.name);
  checkEmail(r, input.email);
  if (input.password !== undefined) checkPassword(r, input.password);
  const roles = await resolveRoleKeys(ctx, r, input.roles);
  r.throwIfAny();
  requireOwnerRoleManager(ctx, holdsOwnerPower(roles), 'A role granted');
  // Hashing takes tens of milliseconds: before the authority lock, not while holding it.
  const passwordHash = input.password === undefined ? undefined : await hashPassword(input.password);
  await lockAuthority(ctx);
  const email = input.email.trim();
  await refuseEmailInUse(ctx, email);
  const inserted = await guardEmail(() =>
    insertMember(ctx.db, { organizationId: ctx.org.id, name: input.name.trim(), email, passwordHash, active: input.active ?? true }),
  );
  if (!inserted) throw new AppError('internal');
  await insertMemberRoles(ctx.db, { organizationId: ctx.org.id, memberId: inserted.id, roleIds: roles.map((role) => role.id) });
  const after = await reread(ctx, inserted.id);
  await recordSettingsChange(ctx, { entity: 'members', record_id: after.id, action: 'create', before: null, after: after });
  await recordEvent(ctx, 'organization.member.added', { type: 'member', id: after.id, revision: after.revision }, { active: after.active, roles: after.roles });
  return after;
}

/**
 * Members as set-up records: changed under the authority lock, then the row's; answered with their
 * roles (re-read). `roleIds`: the member's new roles, written with the row.
 */
type MemberChange = { name?: string; email?: string; active?: boolean; roleIds?: string[] };
const members: SetupFamily<MemberRecord, MemberView, MemberChange> = {
  entity: 'members',
  what: 'member',
  lock: async (ctx, id) => {
    await lockAuthority(ctx);
    return findMember(ctx.db, { organizationId: ctx.org.id, id, forUpdate: true });
  },
  write: async (ctx, current, { roleIds, ...set }) => {
    if (roleIds) await replaceMemberRoles(ctx.db, { organizationId: ctx.org.id, memberId: current.id, roleIds });
    await guardEmail(() => updateMemberRow(ctx.db, { organizationId: ctx.org.id, id: current.id, set }));
    return findMember(ctx.db, { organizationId: ctx.org.id, id: current.id });
  },
  view: (_ctx, row) => memberView(row),
  inactive: (_ctx, row) => (row.active ? undefined : 'is already inactive'),
};

export interface UpdateMemberInput extends RecordChange {
  name?: string;
  email?: string;
}

/** organization.members.update: a member's name or e-mail (If-Match). */
export async function updateMember(ctx: ServiceContext, input: UpdateMemberInput): Promise<MemberView> {
  const r = new Refusals();
  if (input.name !== undefined) checkMemberName(r, input.name);
  if (input.email !== undefined) checkEmail(r, input.email);
  r.throwIfAny();
  return changeRecord(ctx, members, input, async (member) => {
    requireOwnerRoleManager(ctx, holdsOwnerPower(await rolesOf(ctx, member)), 'A role this member holds');
    const set = { name: input.name?.trim(), email: input.email?.trim() };
    if (set.email !== undefined && set.email !== member.email) await refuseEmailInUse(ctx, set.email, member.id);
    return set;
  });
}

/** organization.members.setRoles: replaces a member's roles (If-Match). */
export async function setMemberRoles(ctx: ServiceContext, input: RecordChange & { roles: string[] }): Promise<MemberView> {
  const r = new Refusals();
  const roles = await resolveRoleKeys(ctx, r, input.roles);
  r.throwIfAny();
  return changeRecord(
    ctx,
    members,
    input,
    async (member) => {
      requireOwnerRoleManager(ctx, holdsOwnerPower(await rolesOf(ctx, member)) || holdsOwnerPower(roles), 'A role this member holds or is granted');
      // The same roles in another order are no change.
      if (roles.map((role) => role.key).sort().join() === [...member.roles].sort().join()) return undefined;
      await refuseLockout(ctx, { memberRoles: { memberId: member.id, roleIds: roles.map((role) => role.id), active: member.active } });
      return { roleIds: roles.map((role) => role.id) };
    },
    'set_roles',
  );
}

/**
 * organization.members.deactivate (If-Match): the member can no longer log in, and every session
 * and API key of theirs is revoked in the same transaction, so their very next request is 401.
 */
export async function deactivateMember(ctx: ServiceContext, input: RecordChange): Promise<MemberView> {
  const after = await deactivateRecord(ctx, members, input, async (member) => {
    requireOwnerRoleManager(ctx, holdsOwnerPower(await rolesOf(ctx, member)), 'A role this member holds');
    await refuseLockout(ctx, { deactivated: member.id });
    await revokeMemberSessions(ctx.db, { organizationId: ctx.org.id, memberId: member.id, now: ctx.now });
    await revokeMemberApiKeys(ctx.db, { organizationId: ctx.org.id, memberId: member.id, now: ctx.now });
    return { active: false };
  });
  await recordEvent(ctx, 'organization.member.deactivated', { type: 'member', id: after.id, revision: after.revision }, { active: after.active });
  return after;
}

/**
 * Sets a member's password (the admin CLI's `member set-password`) and ends their sessions, but the
 * one named (a person changing their own password keeps the session they did it with).
 */
export async function setMemberPassword(
  ctx: ServiceContext,
  input: { id: string; password: string; keep_session_id?: string },
): Promise<MemberView & { sessions_ended: number }> {
  const r = new Refusals();
  checkPassword(r, input.password);
  r.throwIfAny();
  const passwordHash = await hashPassword(input.password);
  const member = await lockMember(ctx, input.id);
  requireOwnerRoleManager(ctx, holdsOwnerPower(await rolesOf(ctx, member)), 'A role this member holds');
  await updateMemberRow(ctx.db, { organizationId: ctx.org.id, id: member.id, set: { passwordHash } });
  const ended = await revokeMemberSessions(ctx.db, { organizationId: ctx.org.id, memberId: member.id, now: ctx.now, exceptSessionId: input.keep_session_id });
  const after = await reread(ctx, member.id);
  await recordSettingsChange(ctx, { entity: 'members', record_id: member.id, action: 'set_password', before: memberView(member), after: after });
  return { ...after, sessions_ended: ended };
}

/** One member of the caller's organization; 404 when absent or another organization's. */
export async function getMember(ctx: ServiceContext, id: string): Promise<MemberView> {
  const member = await findMember(ctx.db, { organizationId: ctx.org.id, id });
  if (!member) throw notFound('member');
  return memberView(member);
}
