import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../client';
import { claimDecisions, claims, memberRoles, memberTokens, members, organizations, receivableDocuments, roles, type MemberTokenPurpose } from '../schema';

/** Who a message goes to: the member's address, language and the kinds they switched off, with their organization's name. */
export async function findMailRecipient(db: Database, q: { organizationId: string; memberId: string }) {
  const [row] = await db
    .select({
      id: members.id,
      name: members.name,
      email: members.email,
      active: members.active,
      hasPassword: sql<boolean>`${members.passwordHash} is not null`,
      language: members.language,
      mailOff: members.mailOff,
      organizationName: organizations.name,
    })
    .from(members)
    .innerJoin(organizations, eq(organizations.id, members.organizationId))
    .where(and(eq(members.organizationId, q.organizationId), eq(members.id, q.memberId)));
  return row;
}

/** The member's mail settings (Me): language and the kinds switched off. */
export async function findMailSettings(db: Database, q: { organizationId: string; memberId: string }) {
  const [row] = await db
    .select({ language: members.language, mailOff: members.mailOff })
    .from(members)
    .where(and(eq(members.organizationId, q.organizationId), eq(members.id, q.memberId)));
  return row;
}

export async function updateMailSettings(db: Database, q: { organizationId: string; memberId: string; set: { language?: 'en' | 'ms'; mailOff?: string[] } }) {
  const [row] = await db
    .update(members)
    .set(q.set)
    .where(and(eq(members.organizationId, q.organizationId), eq(members.id, q.memberId)))
    .returning({ language: members.language, mailOff: members.mailOff });
  return row;
}

/** What a claim's message names: its reference, title, claimant and the reason of its latest decision. */
export async function findClaimForMail(db: Database, q: { organizationId: string; id: string }) {
  const [row] = await db
    .select({ id: claims.id, reference: claims.reference, title: claims.title, claimantName: members.name })
    .from(claims)
    .innerJoin(members, and(eq(members.organizationId, claims.organizationId), eq(members.id, claims.claimantMemberId)))
    .where(and(eq(claims.organizationId, q.organizationId), eq(claims.id, q.id)));
  if (!row) return undefined;
  const [latest] = await db
    .select({ reason: claimDecisions.reason })
    .from(claimDecisions)
    .where(and(eq(claimDecisions.organizationId, q.organizationId), eq(claimDecisions.claimId, q.id)))
    .orderBy(desc(claimDecisions.seq))
    .limit(1);
  return { ...row, reason: latest?.reason ?? '' };
}

/** What a receivables document's message names: its number and kind. */
export async function findDocumentForMail(db: Database, q: { organizationId: string; id: string }) {
  const [row] = await db
    .select({ id: receivableDocuments.id, reference: receivableDocuments.reference, kind: receivableDocuments.kind })
    .from(receivableDocuments)
    .where(and(eq(receivableDocuments.organizationId, q.organizationId), eq(receivableDocuments.id, q.id)));
  return row;
}

/**
 * Active members with this e-mail, in every organization: a password reset names an address, not an
 * organization (as a login does). Each gets their own link.
 */
export async function findMembersByEmail(db: Database, q: { email: string }) {
  return db
    .select({ organizationId: members.organizationId, memberId: members.id })
    .from(members)
    .where(and(sql`lower(${members.email}) = lower(${q.email})`, eq(members.active, true)))
    .orderBy(members.organizationId);
}

export async function insertMemberToken(db: Database, values: typeof memberTokens.$inferInsert) {
  const [row] = await db.insert(memberTokens).values(values).returning({ id: memberTokens.id });
  return row!;
}

/** Earlier unused links of the same purpose end when a new one is sent (only the latest opens). */
export async function spendMemberTokens(db: Database, q: { organizationId: string; memberId: string; purpose: MemberTokenPurpose; now: Date }) {
  await db
    .update(memberTokens)
    .set({ usedAt: q.now })
    .where(
      and(
        eq(memberTokens.organizationId, q.organizationId),
        eq(memberTokens.memberId, q.memberId),
        eq(memberTokens.purpose, q.purpose),
        isNull(memberTokens.usedAt),
      ),
    );
}

/** A link by its token's hash (any organization: the link is the credential); `lock`: for its one use. */
export async function findMemberToken(db: Database, q: { tokenHash: string; lock?: boolean }) {
  const query = db
    .select({
      organizationId: memberTokens.organizationId,
      id: memberTokens.id,
      memberId: memberTokens.memberId,
      purpose: memberTokens.purpose,
      expiresAt: memberTokens.expiresAt,
      usedAt: memberTokens.usedAt,
      memberName: members.name,
      memberEmail: members.email,
      memberActive: members.active,
      organizationName: organizations.name,
    })
    .from(memberTokens)
    .innerJoin(members, and(eq(members.organizationId, memberTokens.organizationId), eq(members.id, memberTokens.memberId)))
    .innerJoin(organizations, eq(organizations.id, memberTokens.organizationId))
    .where(eq(memberTokens.tokenHash, q.tokenHash));
  const [row] = q.lock ? await query.for('update', { of: memberTokens }) : await query;
  return row;
}

export async function markMemberTokenUsed(db: Database, q: { organizationId: string; id: string; now: Date }): Promise<boolean> {
  const rows = await db
    .update(memberTokens)
    .set({ usedAt: q.now })
    .where(and(eq(memberTokens.organizationId, q.organizationId), eq(memberTokens.id, q.id), isNull(memberTokens.usedAt), gt(memberTokens.expiresAt, q.now)))
    .returning({ id: memberTokens.id });
  return rows.length === 1;
}

/** The active members holding `permission` through any of their roles (who is told about a set-up matter). */
export async function listActiveMemberIdsWithPermission(db: Database, q: { organizationId: string; permission: string }): Promise<string[]> {
  const rows = await db
    .selectDistinct({ id: members.id })
    .from(members)
    .innerJoin(memberRoles, and(eq(memberRoles.organizationId, members.organizationId), eq(memberRoles.memberId, members.id)))
    .innerJoin(roles, and(eq(roles.organizationId, memberRoles.organizationId), eq(roles.id, memberRoles.roleId)))
    .where(and(eq(members.organizationId, q.organizationId), eq(members.active, true), sql`${q.permission} = any(${roles.permissions})`));
  return rows.map((r) => r.id);
}
