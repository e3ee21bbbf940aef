import type { Database } from '../../db/client';
import { insertSession, revokeMemberSessions, updateMemberRow } from '../../db/queries/access';
import { findMemberToken, markMemberTokenUsed, updateMailSettings } from '../../db/queries/mail';
import type { MemberTokenPurpose } from '../../db/schema';
import type { MailLanguage } from '../../domain/mail';
import { enqueue } from '../../jobs/queue';
import { randomToken, sha256Hex } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import { maxLength, notBlank, Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { issueLink, linkTokenHash } from '../mail/links';
import { enqueueMail, PASSWORD_RESET_JOB } from '../mail/notify';
import { rateLimitedError, type RateLimits } from '../rate-limit/limits';
import type { LoginAnswer, LoginSettings } from './login';
import { addMember, type AddMemberInput, type MemberView } from './members';
import { checkPassword, hashPassword } from './passwords';

/**
 * Invitations and password resets (one-time links sent by e-mail). An invitation adds the member
 * without a password and sends a link valid 7 days; the person sets their password with it and is
 * signed in. A reset request answers the same whatever the address (the lookup and the message are a
 * job's), is limited per source address and per e-mail address, and sends each active member with
 * that address a link valid 1 hour; using it sets the password, ends every session of the member
 * and signs them in afresh. A link opens once; a newer link of the same purpose ends the older ones.
 */

/** organization.members.invite: a new member without a password, and their invitation. */
export async function inviteMember(ctx: ServiceContext, input: Omit<AddMemberInput, 'password' | 'active'> & { language?: MailLanguage }): Promise<MemberView & { invitation_expires_at: string }> {
  const member = await addMember(ctx, { name: input.name, email: input.email, roles: input.roles });
  if (input.language) await updateMailSettings(ctx.db, { organizationId: ctx.org.id, memberId: member.id, set: { language: input.language } });
  const link = await issueLink(ctx.db, { organizationId: ctx.org.id, memberId: member.id, purpose: 'invitation', now: ctx.now });
  await enqueueMail(ctx, { kind: 'invitation', memberId: member.id, linkId: link.id, byMemberId: ctx.principal.memberId });
  return { ...member, invitation_expires_at: link.expiresAt.toISOString() };
}

/** auth.requestPasswordReset: 429 past a limit, else the same answer whoever has the address (the job looks). */
export async function requestPasswordReset(deps: { db: Database; now: Date; ip: string; rateLimits: RateLimits }, input: { email: string }): Promise<{ requested: true }> {
  const r = new Refusals();
  if (notBlank(r, input.email, '/email')) maxLength(r, input.email, 254, '/email');
  r.throwIfAny();
  const email = input.email.trim().toLowerCase();
  const limits = await deps.rateLimits.countPasswordReset(deps.ip, sha256Hex(`password-reset:${email}`));
  if (!limits.address.allowed) throw rateLimitedError(limits.address);
  if (!limits.account.allowed) throw rateLimitedError(limits.account);
  await enqueue(deps.db, { kind: PASSWORD_RESET_JOB, payload: { email }, now: deps.now, maxAttempts: 5 });
  return { requested: true };
}

const UNKNOWN_LINK = 'No such link: check that the whole address from the message was opened';

/** The link as it stands now, or the error a person sees (404 unknown, 410 `link_expired` used or expired). */
async function usableLink(db: Database, token: string, purpose: MemberTokenPurpose | undefined, now: Date, lock: boolean) {
  const link = await findMemberToken(db, { tokenHash: linkTokenHash(token), lock });
  if (!link || (purpose && link.purpose !== purpose)) throw new AppError('not_found', { detail: UNKNOWN_LINK });
  if (link.usedAt) throw new AppError('link_expired', { detail: 'This link was already used: each link opens once' });
  if (link.expiresAt.getTime() <= now.getTime()) {
    throw new AppError('link_expired', { detail: `This link expired at ${link.expiresAt.toISOString()}`, extensions: { expired_at: link.expiresAt.toISOString() } });
  }
  if (!link.memberActive) throw new AppError('link_expired', { detail: 'The account this link was sent for is no longer active' });
  return link;
}

/** auth.readLink: whose link it is and until when (the accept and reset pages show it). */
export async function readLink(deps: { db: Database; now: Date }, token: string) {
  const link = await usableLink(deps.db, token, undefined, deps.now, false);
  return {
    purpose: link.purpose,
    member: { name: link.memberName, email: link.memberEmail },
    organization: { name: link.organizationName },
    expires_at: link.expiresAt.toISOString(),
  };
}

/**
 * auth.acceptInvitation / auth.resetPassword: the new password set, the link spent, every session of
 * the member ended and a new one opened, in one transaction.
 */
export async function useLink(
  deps: { db: Database; now: Date; settings: LoginSettings },
  purpose: MemberTokenPurpose,
  input: { token: string; password: string },
): Promise<LoginAnswer & { sessions_ended: number }> {
  const r = new Refusals();
  checkPassword(r, input.password, '/password');
  r.throwIfAny();
  // Hashing takes tens of milliseconds: before the transaction, not while holding the link's lock.
  const passwordHash = await hashPassword(input.password);
  return deps.db.transaction(async (tx) => {
    const link = await usableLink(tx, input.token, purpose, deps.now, true);
    const q = { organizationId: link.organizationId, id: link.id, now: deps.now };
    if (!(await markMemberTokenUsed(tx, q))) throw new AppError('link_expired', { detail: 'This link was already used: each link opens once' });
    await updateMemberRow(tx, { organizationId: link.organizationId, id: link.memberId, set: { passwordHash } });
    const ended = await revokeMemberSessions(tx, { organizationId: link.organizationId, memberId: link.memberId, now: deps.now });
    const token = `fs_${randomToken(32)}`;
    const expiresAt = new Date(deps.now.getTime() + deps.settings.sessionSeconds * 1000);
    await insertSession(tx, {
      organizationId: link.organizationId,
      memberId: link.memberId,
      tokenHash: sha256Hex(token),
      createdAt: deps.now,
      expiresAt,
      idleSeconds: deps.settings.sessionSeconds,
    });
    return {
      session_token: token,
      expires_at: expiresAt.toISOString(),
      member: { id: link.memberId, name: link.memberName, email: link.memberEmail ?? '' },
      organization: { id: link.organizationId, name: link.organizationName },
      sessions_ended: ended,
    };
  });
}
