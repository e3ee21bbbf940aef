import type { Database } from '../../db/client';
import {
  findRolesByKeys,
  insertApiKey,
  insertMember,
  insertMemberRoles,
  insertRoles,
  insertSession,
  revokeApiKeyRow,
  revokeSessionRow,
  updateMemberActive,
} from '../../db/queries/access';
import { insertOrganization } from '../../db/queries/organizations';
import type { SellerIdentity } from '../../db/schema';
import { randomToken, sha256Hex } from '../../lib/crypto';
import { isValidTimeZone } from '../../lib/dates';
import { AppError, validationError } from '../../lib/errors';
import { writeOrganizationDefaults } from './organization-defaults';
import { hashPassword } from './passwords';
import { BUILT_IN_ROLES, isPermission, type BuiltInRole } from './permissions';
import { isCountryCode } from '../../lib/code-lists';

/** Set-up of tenants and access: used by the admin CLI, the demo seed and tests, never by /v1. */

export interface CreateOrganizationInput {
  name: string;
  baseCurrency?: string;
  timeZone?: string;
  recordLanguages?: string[];
  seller?: SellerIdentity;
}

export async function createOrganization(db: Database, input: CreateOrganizationInput) {
  if (!input.name.trim()) throw validationError('/name', 'must not be blank');
  if (input.timeZone && !isValidTimeZone(input.timeZone)) throw validationError('/time_zone', 'is not an IANA time zone');
  const country = input.seller?.address?.country_code;
  if (country && !isCountryCode(country)) throw validationError('/seller/address/country_code', 'must be an ISO 3166-1 alpha-2 country code (for example MY)');
  const org = await insertOrganization(db, {
    name: input.name.trim(),
    baseCurrency: input.baseCurrency ?? 'MYR',
    timeZone: input.timeZone ?? 'Asia/Kuala_Lumpur',
    recordLanguages: input.recordLanguages ?? ['en', 'ms'],
    seller: input.seller ?? { name: input.name.trim() },
  });
  if (!org) throw new AppError('internal');
  await insertRoles(db, {
    organizationId: org.id,
    roles: Object.entries(BUILT_IN_ROLES).map(([key, role]) => ({ key, name: role.name, permissions: [...role.permissions] })),
  });
  await writeOrganizationDefaults(db, org.id);
  return org;
}

export async function addMember(
  db: Database,
  input: { organizationId: string; name: string; email?: string; password?: string; roles: string[]; active?: boolean },
) {
  if (!input.name.trim()) throw validationError('/name', 'must not be blank');
  const found = await findRolesByKeys(db, { organizationId: input.organizationId, keys: input.roles });
  const missing = input.roles.filter((r) => !found.some((f) => f.key === r));
  if (missing.length) throw validationError('/roles', `unknown role ${missing.join(', ')}`);
  const member = await insertMember(db, {
    organizationId: input.organizationId,
    name: input.name.trim(),
    email: input.email,
    passwordHash: input.password === undefined ? undefined : await hashPassword(input.password),
    active: input.active ?? true,
  });
  if (!member) throw new AppError('internal');
  if (found.length) {
    await insertMemberRoles(db, { organizationId: input.organizationId, memberId: member.id, roleIds: found.map((r) => r.id) });
  }
  return member;
}

export async function setMemberActive(db: Database, q: { organizationId: string; memberId: string; active: boolean }) {
  await updateMemberActive(db, q);
}

/** Issues an API key; the token is returned once and only its hash is kept. */
export async function createApiKey(
  db: Database,
  input: { organizationId: string; ownerMemberId: string; name?: string; permissions: string[]; expiresAt?: Date | null },
) {
  const unknown = input.permissions.filter((p) => !isPermission(p));
  if (unknown.length) throw validationError('/permissions', `unknown permission ${unknown.join(', ')}`);
  const secret = randomToken(32);
  const key = await insertApiKey(db, {
    organizationId: input.organizationId,
    ownerMemberId: input.ownerMemberId,
    name: input.name ?? 'API key',
    secretHash: sha256Hex(secret),
    permissions: input.permissions,
    expiresAt: input.expiresAt ?? null,
  });
  if (!key) throw new AppError('internal');
  return { id: key.id, token: `fk_${key.id}_${secret}`, permissions: key.permissions, expiresAt: key.expiresAt };
}

export async function revokeApiKey(db: Database, q: { organizationId: string; id: string; now: Date }) {
  const revoked = await revokeApiKeyRow(db, q);
  if (!revoked) throw new AppError('not_found', { detail: 'No such API key in this organization' });
}

const DEFAULT_SESSION_HOURS = 12;

export async function createSession(
  db: Database,
  input: { organizationId: string; memberId: string; now: Date; expiresAt?: Date },
) {
  const token = `fs_${randomToken(32)}`;
  const expiresAt = input.expiresAt ?? new Date(input.now.getTime() + DEFAULT_SESSION_HOURS * 3600_000);
  const session = await insertSession(db, {
    organizationId: input.organizationId,
    memberId: input.memberId,
    tokenHash: sha256Hex(token),
    expiresAt,
    // The session slides by its own lifetime on each use (services/access/authenticate.ts).
    idleSeconds: Math.max(60, Math.round((expiresAt.getTime() - input.now.getTime()) / 1000)),
  });
  if (!session) throw new AppError('internal');
  return { id: session.id, token, expiresAt };
}

export async function revokeSession(db: Database, q: { organizationId: string; id: string; now: Date }) {
  const revoked = await revokeSessionRow(db, q);
  if (!revoked) throw new AppError('not_found', { detail: 'No such session in this organization' });
}

export function rolePermissions(role: BuiltInRole): string[] {
  return [...(BUILT_IN_ROLES[role]?.permissions ?? [])];
}
