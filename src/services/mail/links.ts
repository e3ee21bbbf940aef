import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Database } from '../../db/client';
import { insertMemberToken, spendMemberTokens } from '../../db/queries/mail';
import { sharedSecret } from '../../db/queries/server-secrets';
import type { MemberTokenPurpose } from '../../db/schema';
import { sha256Hex } from '../../lib/crypto';

/**
 * One-time links (invitations, password resets). The token is the HMAC of the link's id under a
 * secret stored once in the database: the mail job derives it when it writes the message, so the
 * token is never stored (only its SHA-256, to find the link) nor carried in a job's payload.
 */

export const LINK_LIFETIME_MS: Record<MemberTokenPurpose, number> = {
  invitation: 7 * 24 * 3600 * 1000,
  password_reset: 3600 * 1000,
};

const secretOf = (db: Database) => sharedSecret(db, 'member-links', () => randomBytes(32).toString('base64url'));

/** The token of the link `id` (any process on the database derives the same one). */
export async function linkToken(db: Database, id: string): Promise<string> {
  return createHmac('sha256', await secretOf(db)).update(`member-link:${id}`).digest('base64url');
}

export const linkTokenHash = (token: string) => sha256Hex(`member-link:${token}`);

/** A new link for the member; their earlier unused links of the same purpose stop working. */
export async function issueLink(db: Database, q: { organizationId: string; memberId: string; purpose: MemberTokenPurpose; now: Date }) {
  await spendMemberTokens(db, q);
  const id = randomUUID();
  const expiresAt = new Date(q.now.getTime() + LINK_LIFETIME_MS[q.purpose]);
  await insertMemberToken(db, {
    organizationId: q.organizationId,
    id,
    memberId: q.memberId,
    purpose: q.purpose,
    tokenHash: linkTokenHash(await linkToken(db, id)),
    expiresAt,
    createdAt: q.now,
  });
  return { id, expiresAt };
}
