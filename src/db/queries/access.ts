import { and, eq, sql } from 'drizzle-orm';
import { insertInChunks, anyOf } from '../client';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../client';
import { apiKeys, authEpochs, memberRoles, members, organizations, roles, sessions } from '../schema';

/** The organization's settings, read with the credential so a request needs no second look-up. */
const orgColumns = {
  orgId: organizations.id,
  orgName: organizations.name,
  orgBaseCurrency: organizations.baseCurrency,
  orgTimeZone: organizations.timeZone,
  orgRecordLanguages: organizations.recordLanguages,
  orgSeller: organizations.seller,
};

/**
 * The union of the permissions of a member's roles, as a column of the credential's own look-up
 * (authentication answers who and what they may do in one statement).
 */
const permissionsOf = (organizationId: typeof members.organizationId, memberId: typeof members.id) =>
  sql<string[]>`coalesce((
    select array_agg(distinct p order by p)
    from ${memberRoles} mr
    join ${roles} r on r.organization_id = mr.organization_id and r.id = mr.role_id
    cross join unnest(r.permissions) as p
    where mr.organization_id = ${organizationId} and mr.member_id = ${memberId}), '{}'::text[])`;

/** The organization's auth epoch (0 before its first change), a column of the credential's look-up. */
const authEpochOf = (organizationId: AnyPgColumn) =>
  sql<number>`coalesce((select ${authEpochs.epoch} from ${authEpochs} where ${authEpochs.organizationId} = ${organizationId}), 0)`.mapWith(Number);

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
      ownerPermissions: permissionsOf(members.organizationId, members.id),
      authEpoch: authEpochOf(apiKeys.organizationId),
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
      createdAt: sessions.createdAt,
      idleSeconds: sessions.idleSeconds,
      memberActive: members.active,
      memberPermissions: permissionsOf(members.organizationId, members.id),
      authEpoch: authEpochOf(sessions.organizationId),
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
        sql`(${apiKeys.lastUsedAt} is null or ${apiKeys.lastUsedAt} <= ${q.now.toISOString()}::timestamptz - interval '1 minute')`,
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
    .where(and(eq(roles.organizationId, q.organizationId), anyOf(roles.key, q.keys)));
}

export async function insertRoles(db: Database, q: { organizationId: string; roles: Omit<typeof roles.$inferInsert, 'organizationId'>[] }) {
  const rows = q.roles.map((r) => ({ ...r, organizationId: q.organizationId }));
  return insertInChunks(rows, (chunk) => db.insert(roles).values(chunk).returning());
}

export async function insertMember(db: Database, values: typeof members.$inferInsert) {
  const [row] = await db.insert(members).values(values).returning();
  return row;
}

export async function insertMemberRoles(db: Database, q: { organizationId: string; memberId: string; roleIds: string[] }) {
  if (!q.roleIds.length) return [];
  const rows = q.roleIds.map((roleId) => ({ organizationId: q.organizationId, memberId: q.memberId, roleId }));
  return insertInChunks(rows, (chunk) => db.insert(memberRoles).values(chunk).returning());
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

// ---------------------------------------------------------------------------------------------
// People: login, sessions, members and roles (auth.*, organization.members.*, organization.roles.*)

/**
 * The active members with a password who log in with this e-mail (case-insensitive), across
 * organizations (a login precedes knowing the organization), or in the one organization named.
 */
export async function findLoginCandidates(db: Database, q: { email: string; organizationId?: string }) {
  const where = [sql`lower(${members.email}) = lower(${q.email})`, eq(members.active, true), sql`${members.passwordHash} is not null`];
  if (q.organizationId) where.push(eq(members.organizationId, q.organizationId));
  return db
    .select({
      memberId: members.id,
      organizationId: members.organizationId,
      name: members.name,
      email: members.email,
      passwordHash: members.passwordHash,
      organizationName: organizations.name,
    })
    .from(members)
    .innerJoin(organizations, eq(organizations.id, members.organizationId))
    .where(and(...where))
    .orderBy(organizations.name, organizations.id);
}

/** Moves a session's expiry forward (sliding); only when it moves by more than a minute, so at most one write a minute. */
export async function slideSession(db: Database, q: { organizationId: string; id: string; expiresAt: Date }) {
  await db
    .update(sessions)
    .set({ expiresAt: q.expiresAt })
    .where(
      and(
        eq(sessions.organizationId, q.organizationId),
        eq(sessions.id, q.id),
        sql`${sessions.expiresAt} < ${q.expiresAt.toISOString()}::timestamptz - interval '1 minute'`,
      ),
    );
}

/**
 * Serialises changes of authority (members' roles, roles' permissions, deactivations) within one
 * organization until the transaction ends, so two concurrent changes cannot each leave the other's
 * role manager in place and together lock the organization out.
 */
export async function lockOrganizationAuthority(db: Database, q: { organizationId: string }) {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`authority:${q.organizationId}`}, 0))`);
}

/** The role keys of each member, sorted, as one array column. */
const memberRoleKeys = sql<string[]>`coalesce((
  select array_agg(r.key order by r.key) from ${memberRoles} mr
  join ${roles} r on r.organization_id = mr.organization_id and r.id = mr.role_id
  where mr.organization_id = "members"."organization_id" and mr.member_id = "members"."id"
), '{}'::text[])`;

const memberColumns = {
  id: members.id,
  name: members.name,
  email: members.email,
  active: members.active,
  revision: members.revision,
  roles: memberRoleKeys,
};

export type MemberRecord = { id: string; name: string; email: string | null; active: boolean; revision: number; roles: string[] };

/** A page of the organization's members ordered by (name, id), after the given position. */
export async function listMembers(db: Database, q: { organizationId: string; after?: { name: string; id: string }; limit: number }): Promise<MemberRecord[]> {
  const where = [eq(members.organizationId, q.organizationId)];
  if (q.after) where.push(sql`(${members.name}, ${members.id}) > (${q.after.name}, ${q.after.id}::uuid)`);
  return db
    .select(memberColumns)
    .from(members)
    .where(and(...where))
    .orderBy(members.name, members.id)
    .limit(q.limit);
}

/** One member of the organization with its role keys; `forUpdate` locks the member's row. */
export async function findMember(db: Database, q: { organizationId: string; id: string; forUpdate?: boolean }): Promise<MemberRecord | undefined> {
  const query = db
    .select(memberColumns)
    .from(members)
    .where(and(eq(members.organizationId, q.organizationId), eq(members.id, q.id)));
  const [row] = q.forUpdate ? await query.for('update', { of: members }) : await query;
  return row;
}

/** The member of the organization using this e-mail (case-insensitive), if any. */
export async function findMemberByEmail(db: Database, q: { organizationId: string; email: string }) {
  const [row] = await db
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.organizationId, q.organizationId), sql`lower(${members.email}) = lower(${q.email})`));
  return row;
}

/** Changes a member's name, e-mail or password hash and bumps its revision. */
export async function updateMemberRow(
  db: Database,
  q: { organizationId: string; id: string; set: { name?: string; email?: string; passwordHash?: string; active?: boolean } },
) {
  const [row] = await db
    .update(members)
    .set({ ...q.set, revision: sql`${members.revision} + 1` })
    .where(and(eq(members.organizationId, q.organizationId), eq(members.id, q.id)))
    .returning({ id: members.id, revision: members.revision });
  return row;
}

/** Replaces a member's roles with these. */
export async function replaceMemberRoles(db: Database, q: { organizationId: string; memberId: string; roleIds: string[] }) {
  await db.delete(memberRoles).where(and(eq(memberRoles.organizationId, q.organizationId), eq(memberRoles.memberId, q.memberId)));
  await insertMemberRoles(db, q);
}

/** Revokes every session of a member still in force (but one, when named); answers how many. */
export async function revokeMemberSessions(db: Database, q: { organizationId: string; memberId: string; now: Date; exceptSessionId?: string }) {
  const sessionWhere = [eq(sessions.organizationId, q.organizationId), eq(sessions.memberId, q.memberId), sql`${sessions.revokedAt} is null`];
  if (q.exceptSessionId) sessionWhere.push(sql`${sessions.id} <> ${q.exceptSessionId}::uuid`);
  const endedSessions = await db.update(sessions).set({ revokedAt: q.now }).where(and(...sessionWhere)).returning({ id: sessions.id });
  return endedSessions.length;
}

/** Revokes every API key of a member still in force; answers how many. */
export async function revokeMemberApiKeys(db: Database, q: { organizationId: string; memberId: string; now: Date }) {
  const keys = await db
    .update(apiKeys)
    .set({ revokedAt: q.now })
    .where(and(eq(apiKeys.organizationId, q.organizationId), eq(apiKeys.ownerMemberId, q.memberId), sql`${apiKeys.revokedAt} is null`))
    .returning({ id: apiKeys.id });
  return keys.length;
}

export type RoleRecord = typeof roles.$inferSelect;

/** Every role of the organization (a handful: the built-in ones and the custom ones). */
export async function listAllRoles(db: Database, q: { organizationId: string }): Promise<RoleRecord[]> {
  return db.select().from(roles).where(eq(roles.organizationId, q.organizationId)).orderBy(roles.key);
}

/** A page of the organization's roles ordered by key, after the given key. */
export async function listRoles(db: Database, q: { organizationId: string; afterKey?: string; limit: number }): Promise<RoleRecord[]> {
  const where = [eq(roles.organizationId, q.organizationId)];
  if (q.afterKey !== undefined) where.push(sql`${roles.key} > ${q.afterKey}`);
  return db
    .select()
    .from(roles)
    .where(and(...where))
    .orderBy(roles.key)
    .limit(q.limit);
}

export async function findRole(db: Database, q: { organizationId: string; id: string; forUpdate?: boolean }): Promise<RoleRecord | undefined> {
  const query = db
    .select()
    .from(roles)
    .where(and(eq(roles.organizationId, q.organizationId), eq(roles.id, q.id)));
  const [row] = q.forUpdate ? await query.for('update') : await query;
  return row;
}

export async function findRoleByKey(db: Database, q: { organizationId: string; key: string }) {
  const [row] = await db
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.organizationId, q.organizationId), eq(roles.key, q.key)));
  return row;
}

export async function insertRole(db: Database, values: typeof roles.$inferInsert): Promise<RoleRecord | undefined> {
  const [row] = await db.insert(roles).values(values).returning();
  return row;
}

export async function updateRoleRow(db: Database, q: { organizationId: string; id: string; set: { name?: string; permissions?: string[] } }) {
  const [row] = await db
    .update(roles)
    .set({ ...q.set, revision: sql`${roles.revision} + 1` })
    .where(and(eq(roles.organizationId, q.organizationId), eq(roles.id, q.id)))
    .returning();
  return row;
}

export async function deleteRoleRow(db: Database, q: { organizationId: string; id: string }) {
  await db.delete(roles).where(and(eq(roles.organizationId, q.organizationId), eq(roles.id, q.id)));
}

/** How many members (active or not) hold the role. */
export async function countRoleGrants(db: Database, q: { organizationId: string; roleId: string }): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(memberRoles)
    .where(and(eq(memberRoles.organizationId, q.organizationId), eq(memberRoles.roleId, q.roleId)));
  return Number(row?.n ?? 0);
}

/** Which active member holds which role: what the role-editor rules weigh a change against. */
export async function activeRoleGrants(db: Database, q: { organizationId: string }) {
  return db
    .select({ memberId: memberRoles.memberId, roleId: memberRoles.roleId })
    .from(memberRoles)
    .innerJoin(members, and(eq(members.organizationId, memberRoles.organizationId), eq(members.id, memberRoles.memberId)))
    .where(and(eq(memberRoles.organizationId, q.organizationId), eq(members.active, true)));
}

/** The member's name and e-mail (auth.me). */
export async function findMemberIdentity(db: Database, q: { organizationId: string; id: string }) {
  const [row] = await db
    .select({ id: members.id, name: members.name, email: members.email, active: members.active })
    .from(members)
    .where(and(eq(members.organizationId, q.organizationId), eq(members.id, q.id)));
  return row;
}

/** A member's e-mail (the login name) and password hash: what changing their own password checks against. */
export async function findMemberCredentials(db: Database, q: { organizationId: string; id: string }) {
  const [row] = await db
    .select({ id: members.id, email: members.email, passwordHash: members.passwordHash, active: members.active })
    .from(members)
    .where(and(eq(members.organizationId, q.organizationId), eq(members.id, q.id)));
  return row;
}

const apiKeyListed = {
  id: apiKeys.id,
  name: apiKeys.name,
  ownerMemberId: apiKeys.ownerMemberId,
  ownerName: members.name,
  permissions: apiKeys.permissions,
  createdAt: apiKeys.createdAt,
  expiresAt: apiKeys.expiresAt,
  revokedAt: apiKeys.revokedAt,
  lastUsedAt: apiKeys.lastUsedAt,
};

/** One API key of the organization with its member's name; never the secret's hash. */
export async function findApiKey(db: Database, q: { organizationId: string; id: string }) {
  const [row] = await db
    .select(apiKeyListed)
    .from(apiKeys)
    .innerJoin(members, and(eq(members.organizationId, apiKeys.organizationId), eq(members.id, apiKeys.ownerMemberId)))
    .where(and(eq(apiKeys.organizationId, q.organizationId), eq(apiKeys.id, q.id)));
  return row;
}

/** The organization's API keys, optionally one member's, newest first; never the secret's hash. */
/**
 * A page of the organization's API keys (one member's when named), newest first: `take` rows after
 * the position (created_at as ISO text, id) of the last one answered.
 */
export async function listApiKeys(db: Database, q: { organizationId: string; memberId?: string; after?: { value: string; id: string }; take: number }) {
  const where = [eq(apiKeys.organizationId, q.organizationId)];
  if (q.memberId) where.push(eq(apiKeys.ownerMemberId, q.memberId));
  if (q.after) where.push(sql`(${apiKeys.createdAt}, ${apiKeys.id}) < (${q.after.value}::timestamptz, ${q.after.id}::uuid)`);
  return db
    // The position's created_at to the microsecond (a Date keeps milliseconds: two keys made within one would be skipped).
    .select({ ...apiKeyListed, position: sql<string>`to_char(${apiKeys.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')` })
    .from(apiKeys)
    .innerJoin(members, and(eq(members.organizationId, apiKeys.organizationId), eq(members.id, apiKeys.ownerMemberId)))
    .where(and(...where))
    .orderBy(sql`${apiKeys.createdAt} desc`, sql`${apiKeys.id} desc`)
    .limit(q.take);
}
