import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../client';
import { apiKeys, memberRoles, members, organizations, roles, sessions } from '../schema';

/** The organization's settings, read with the credential so a request needs no second look-up. */
const orgColumns = {
  orgId: organizations.id,
  orgName: organizations.name,
  orgBaseCurrency: organizations.baseCurrency,
  orgTimeZone: organizations.timeZone,
  orgRecordLanguages: organizations.recordLanguages,
  orgSeller: organizations.seller,
};

/** Looks up an API key by id alone: authentication does not know the organization yet. */
export async function findApiKeyForAuth(db: Database, id: string) {
  const [row] = await db
    .select({
      id: apiKeys.id,
      organizationId: apiKeys.organizationId,
      ownerMemberId: apiKeys.ownerMemberId,
      secretHash: apiKeys.secretHash,
      permissions: apiKeys.permissions,
      expiresAt: apiKeys.expiresAt,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeys.lastUsedAt,
      ownerActive: members.active,
      ...orgColumns,
    })
    .from(apiKeys)
    .innerJoin(members, and(eq(members.organizationId, apiKeys.organizationId), eq(members.id, apiKeys.ownerMemberId)))
    .innerJoin(organizations, eq(organizations.id, apiKeys.organizationId))
    .where(eq(apiKeys.id, id));
  return row;
}

/** Looks up a session by the hash of its token. */
export async function findSessionForAuth(db: Database, tokenHash: string) {
  const [row] = await db
    .select({
      id: sessions.id,
      organizationId: sessions.organizationId,
      memberId: sessions.memberId,
      expiresAt: sessions.expiresAt,
      revokedAt: sessions.revokedAt,
      memberActive: members.active,
      ...orgColumns,
    })
    .from(sessions)
    .innerJoin(members, and(eq(members.organizationId, sessions.organizationId), eq(members.id, sessions.memberId)))
    .innerJoin(organizations, eq(organizations.id, sessions.organizationId))
    .where(eq(sessions.tokenHash, tokenHash));
  return row;
}

/** The union of the permissions of a member's roles. */
export async function memberPermissions(db: Database, q: { organizationId: string; memberId: string }): Promise<string[]> {
  const rows = await db
    .select({ permissions: roles.permissions })
    .from(memberRoles)
    .innerJoin(roles, and(eq(roles.organizationId, memberRoles.organizationId), eq(roles.id, memberRoles.roleId)))
    .where(and(eq(memberRoles.organizationId, q.organizationId), eq(memberRoles.memberId, q.memberId)));
  return [...new Set(rows.flatMap((r) => r.permissions))];
}

/** Records use at most once a minute, so authentication does not write on every request. */
export async function touchApiKey(db: Database, q: { organizationId: string; id: string; now: Date }) {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: q.now })
    .where(
      and(
        eq(apiKeys.organizationId, q.organizationId),
        eq(apiKeys.id, q.id),
        sql`(${apiKeys.lastUsedAt} is null or ${apiKeys.lastUsedAt} < ${q.now.toISOString()}::timestamptz - interval '1 minute')`,
      ),
    );
}

/** True when the member (active or not) belongs to the organization. */
export async function memberExists(db: Database, q: { organizationId: string; id: string }): Promise<boolean> {
  const [row] = await db
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.organizationId, q.organizationId), eq(members.id, q.id)));
  return Boolean(row);
}

/** The organization's roles with these keys (unknown keys are simply not found). */
export async function findRolesByKeys(db: Database, q: { organizationId: string; keys: string[] }) {
  if (!q.keys.length) return [];
  return db
    .select({ id: roles.id, key: roles.key })
    .from(roles)
    .where(and(eq(roles.organizationId, q.organizationId), inArray(roles.key, q.keys)));
}

export async function insertRoles(db: Database, q: { organizationId: string; roles: Omit<typeof roles.$inferInsert, 'organizationId'>[] }) {
  return db
    .insert(roles)
    .values(q.roles.map((r) => ({ ...r, organizationId: q.organizationId })))
    .returning();
}

export async function insertMember(db: Database, values: typeof members.$inferInsert) {
  const [row] = await db.insert(members).values(values).returning();
  return row;
}

export async function insertMemberRoles(db: Database, q: { organizationId: string; memberId: string; roleIds: string[] }) {
  if (!q.roleIds.length) return [];
  return db
    .insert(memberRoles)
    .values(q.roleIds.map((roleId) => ({ organizationId: q.organizationId, memberId: q.memberId, roleId })))
    .returning();
}

export async function updateMemberActive(db: Database, q: { organizationId: string; memberId: string; active: boolean }) {
  const [row] = await db
    .update(members)
    .set({ active: q.active })
    .where(and(eq(members.organizationId, q.organizationId), eq(members.id, q.memberId)))
    .returning();
  return row;
}

export async function insertApiKey(db: Database, values: typeof apiKeys.$inferInsert) {
  const [row] = await db.insert(apiKeys).values(values).returning();
  return row;
}

/** Marks the API key revoked; undefined when the organization has no such key. */
export async function revokeApiKeyRow(db: Database, q: { organizationId: string; id: string; now: Date }) {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: q.now })
    .where(and(eq(apiKeys.organizationId, q.organizationId), eq(apiKeys.id, q.id)))
    .returning({ id: apiKeys.id });
  return row;
}

export async function insertSession(db: Database, values: typeof sessions.$inferInsert) {
  const [row] = await db.insert(sessions).values(values).returning();
  return row;
}

/** Marks the session revoked; undefined when the organization has no such session. */
export async function revokeSessionRow(db: Database, q: { organizationId: string; id: string; now: Date }) {
  const [row] = await db
    .update(sessions)
    .set({ revokedAt: q.now })
    .where(and(eq(sessions.organizationId, q.organizationId), eq(sessions.id, q.id)))
    .returning({ id: sessions.id });
  return row;
}
