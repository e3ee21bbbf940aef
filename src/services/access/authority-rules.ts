import { activeRoleGrants, listAllRoles, lockOrganizationAuthority } from '../../db/queries/access';
import { AppError } from '../../lib/errors';
import type { ServiceContext } from '../context';
import { hasPermission } from './principal';

/**
 * The two rules of the role editor (docs/design.md §5), in one place, for every change of authority
 * (members.add|update|setRoles|deactivate, roles.create|update|delete):
 * - `owner_role_manage_required` (409): only a member holding organization.roles.manage_owner may
 *   create, change, delete or grant a role that carries it, or change a member who holds such a role.
 * - `self_lockout` (409): a change that would leave the caller without organization.roles.manage, or
 *   the organization without any active member holding it, is refused.
 * Callers take `lockAuthority` first (inside their transaction), so concurrent changes are weighed
 * one after the other.
 */

export const MANAGE_ROLES = 'organization.roles.manage';
export const MANAGE_OWNER = 'organization.roles.manage_owner';

export function carriesOwnerPower(permissions: readonly string[]): boolean {
  return permissions.includes(MANAGE_OWNER);
}

/** Refuses with 409 `owner_role_manage_required` when the change touches the owner's power and the caller does not hold it. */
export function requireOwnerRoleManager(ctx: ServiceContext, touchesOwnerPower: boolean, what: string): void {
  if (touchesOwnerPower && !hasPermission(ctx.principal, MANAGE_OWNER)) {
    throw new AppError('owner_role_manage_required', {
      detail: `${what} carries ${MANAGE_OWNER}; only a member holding ${MANAGE_OWNER} may do this`,
    });
  }
}

/** Serialises the organization's changes of authority until the transaction ends. */
export async function lockAuthority(ctx: ServiceContext): Promise<void> {
  await lockOrganizationAuthority(ctx.db, { organizationId: ctx.org.id });
}

/** What a change does to authority, described before it is applied. */
export interface AuthorityChange {
  /** A role's permissions after the change; null when the role is deleted. */
  role?: { id: string; permissions: readonly string[] | null };
  /** A member's roles after the change (`active`: whether the member is active). */
  memberRoles?: { memberId: string; roleIds: readonly string[]; active: boolean };
  /** A member the change deactivates. */
  deactivated?: string;
}

/** Who holds which role among active members, and each role's permissions. */
export interface AuthoritySnapshot {
  grants: readonly { memberId: string; roleId: string }[];
  roles: ReadonlyMap<string, readonly string[]>;
}

/** The active members who hold organization.roles.manage, before the change or after it. */
export function roleManagers(snapshot: AuthoritySnapshot, change?: AuthorityChange): Set<string> {
  let grants = snapshot.grants;
  const roles = new Map(snapshot.roles);
  if (change?.role) roles.set(change.role.id, change.role.permissions ?? []);
  if (change?.memberRoles) {
    const { memberId, roleIds, active } = change.memberRoles;
    grants = grants.filter((g) => g.memberId !== memberId);
    if (active) grants = [...grants, ...roleIds.map((roleId) => ({ memberId, roleId }))];
  }
  if (change?.deactivated) grants = grants.filter((g) => g.memberId !== change.deactivated);
  return new Set(grants.filter((g) => roles.get(g.roleId)?.includes(MANAGE_ROLES)).map((g) => g.memberId));
}

/** Which lock-out a change would cause: the caller's own, the organization's, or none. */
export function lockoutOf(snapshot: AuthoritySnapshot, change: AuthorityChange, callerMemberId: string | undefined): 'caller' | 'organization' | undefined {
  const before = roleManagers(snapshot);
  const after = roleManagers(snapshot, change);
  if (callerMemberId && before.has(callerMemberId) && !after.has(callerMemberId)) return 'caller';
  if (before.size > 0 && after.size === 0) return 'organization';
  return undefined;
}

/** Refuses with 409 `self_lockout` a change that would lock the caller or the organization out of role management. */
export async function refuseLockout(ctx: ServiceContext, change: AuthorityChange): Promise<void> {
  // One after the other: inside a transaction both run on its one connection.
  const grants = await activeRoleGrants(ctx.db, { organizationId: ctx.org.id });
  const roles = await listAllRoles(ctx.db, { organizationId: ctx.org.id });
  const snapshot: AuthoritySnapshot = { grants, roles: new Map(roles.map((r) => [r.id, r.permissions])) };
  // The system (CLI) acts for nobody in particular: only the organization's lock-out applies to it.
  const caller = ctx.principal.via === 'system' ? undefined : ctx.principal.memberId;
  const lockout = lockoutOf(snapshot, change, caller);
  if (lockout === 'caller') {
    throw new AppError('self_lockout', { detail: `The change would leave you without ${MANAGE_ROLES}; ask another member who manages roles to make it` });
  }
  if (lockout === 'organization') {
    throw new AppError('self_lockout', { detail: `The change would leave the organization without any active member holding ${MANAGE_ROLES}` });
  }
}
