import {
  countRoleGrants,
  deleteRoleRow,
  findRole,
  findRoleByKey,
  insertRole,
  listRoles,
  updateRoleRow,
  type RoleRecord,
} from '../../db/queries/access';
import { isUniqueViolation } from '../../db/errors';
import { AppError, notFound, conflict } from '../../lib/errors';
import { maxLength, notBlank, Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { checkRevision } from '../revision';
import { recordSettingsChange } from '../settings/history';
import { changeRecord, type RecordChange, type SetupFamily } from '../settings/setup';
import { openPage, type PageInput } from '../settings/page';
import { carriesOwnerPower, lockAuthority, refuseLockout, requireOwnerRoleManager } from './authority-rules';
import { BUILT_IN_ROLE_KEYS, isPermission } from './permissions';

/**
 * The organization's roles (organization.roles.*, docs/design.md §5): the built-in ones every
 * organization starts with and custom ones, each a named set of permissions. Every change weighs the
 * role-editor rules (authority-rules.ts) and is recorded in the settings history as `roles`.
 */

export type RoleView = {
  id: string;
  key: string;
  name: string;
  permissions: string[];
  built_in: boolean;
  revision: number;
};

export const isBuiltInRole = (key: string) => (BUILT_IN_ROLE_KEYS as readonly string[]).includes(key);

export function roleView(role: RoleRecord): RoleView {
  return { id: role.id, key: role.key, name: role.name, permissions: [...role.permissions].sort(), built_in: isBuiltInRole(role.key), revision: role.revision };
}

export const ROLE_KEY_PATTERN = /^[a-z][a-z0-9_]{1,49}$/;
export const ROLE_NAME_MAX = 100;

export function checkRoleKey(r: Refusals, key: string, pointer = '/key'): void {
  r.check(ROLE_KEY_PATTERN.test(key), pointer, 'must be 2 to 50 lower-case letters, digits or underscores, starting with a letter');
}

function checkRoleName(r: Refusals, name: string, pointer = '/name'): void {
  if (notBlank(r, name, pointer)) maxLength(r, name, ROLE_NAME_MAX, pointer);
}

/** Every permission known and listed once; each fault at /permissions/<i>. */
export function checkPermissions(r: Refusals, permissions: readonly string[], pointer = '/permissions'): void {
  const seen = new Set<string>();
  permissions.forEach((p, i) => {
    if (seen.has(p)) r.add(`${pointer}/${i}`, 'is listed twice');
    else if (!isPermission(p)) r.add(`${pointer}/${i}`, 'is not a known permission');
    seen.add(p);
  });
}

const keyInUse = () => conflict('/key', 'is already in use', 'key: is already used by another role of this organization');


async function lockRole(ctx: ServiceContext, id: string, expectedRevision: number): Promise<RoleRecord> {
  const role = await findRole(ctx.db, { organizationId: ctx.org.id, id, forUpdate: true });
  if (!role) throw notFound('role');
  checkRevision(role.revision, expectedRevision);
  return role;
}

export async function listRolesPage(ctx: ServiceContext, input: PageInput) {
  const page = await openPage(ctx, 'roles', input, {});
  const rows = await listRoles(ctx.db, { organizationId: ctx.org.id, afterKey: page.after?.value ?? undefined, limit: page.take });
  return page.answer(rows, (role) => ({ value: role.key, id: role.id }), roleView);
}

/** organization.roles.create: a custom role with chosen permissions. */
export async function createRole(ctx: ServiceContext, input: { key: string; name: string; permissions: string[] }): Promise<RoleView> {
  const r = new Refusals();
  checkRoleKey(r, input.key);
  checkRoleName(r, input.name);
  checkPermissions(r, input.permissions);
  r.throwIfAny();
  requireOwnerRoleManager(ctx, carriesOwnerPower(input.permissions), 'The role');
  await lockAuthority(ctx);
  if (await findRoleByKey(ctx.db, { organizationId: ctx.org.id, key: input.key })) throw keyInUse();
  let role: RoleRecord | undefined;
  try {
    role = await insertRole(ctx.db, { organizationId: ctx.org.id, key: input.key, name: input.name.trim(), permissions: [...input.permissions] });
  } catch (e) {
    if (isUniqueViolation(e, 'roles_org_key')) throw keyInUse();
    throw e;
  }
  if (!role) throw new AppError('internal');
  const after = roleView(role);
  await recordSettingsChange(ctx, { entity: 'roles', record_id: role.id, action: 'create', before: null, after });
  return after;
}

/** Roles as set-up records: changed under the authority lock, then the row's. */
const roles: SetupFamily<RoleRecord, RoleView, { name?: string; permissions?: string[] }> = {
  entity: 'roles',
  what: 'role',
  lock: async (ctx, id) => {
    await lockAuthority(ctx);
    return findRole(ctx.db, { organizationId: ctx.org.id, id, forUpdate: true });
  },
  write: (ctx, current, set) => updateRoleRow(ctx.db, { organizationId: ctx.org.id, id: current.id, set }),
  view: (_ctx, row) => roleView(row),
  // Roles are deleted, never deactivated.
  inactive: () => undefined,
};

/** organization.roles.update: a role's name or permissions (If-Match). */
export async function updateRole(ctx: ServiceContext, input: RecordChange & { name?: string; permissions?: string[] }): Promise<RoleView> {
  const r = new Refusals();
  if (input.name !== undefined) checkRoleName(r, input.name);
  if (input.permissions !== undefined) checkPermissions(r, input.permissions);
  r.throwIfAny();
  return changeRecord(ctx, roles, input, async (role) => {
    requireOwnerRoleManager(ctx, carriesOwnerPower(role.permissions) || carriesOwnerPower(input.permissions ?? []), 'The role');
    // The same permissions in another order are no change.
    const permissions = input.permissions && ([...input.permissions].sort().join() === [...role.permissions].sort().join() ? undefined : [...input.permissions]);
    if (permissions !== undefined) await refuseLockout(ctx, { role: { id: role.id, permissions } });
    return { name: input.name?.trim(), permissions };
  });
}

/** organization.roles.delete (If-Match): a custom role nobody holds any more. */
export async function deleteRole(ctx: ServiceContext, input: { id: string; expected_revision: number }): Promise<{ id: string; deleted: true }> {
  await lockAuthority(ctx);
  const role = await lockRole(ctx, input.id, input.expected_revision);
  if (isBuiltInRole(role.key)) throw new AppError('conflict', { detail: `The built-in role ${role.key} cannot be deleted` });
  const grants = await countRoleGrants(ctx.db, { organizationId: ctx.org.id, roleId: role.id });
  if (grants > 0) {
    throw new AppError('conflict', { detail: `The role ${role.key} is still granted to ${grants} member(s); set their roles first` });
  }
  requireOwnerRoleManager(ctx, carriesOwnerPower(role.permissions), 'The role');
  await refuseLockout(ctx, { role: { id: role.id, permissions: null } });
  await deleteRoleRow(ctx.db, { organizationId: ctx.org.id, id: role.id });
  await recordSettingsChange(ctx, { entity: 'roles', record_id: role.id, action: 'delete', before: roleView(role), after: null });
  return { id: role.id, deleted: true };
}
