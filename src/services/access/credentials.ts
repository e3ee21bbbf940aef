import { listApiKeys, memberPermissions } from '../../db/queries/access';
import { AppError } from '../../lib/errors';
import { Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { createApiKey, createSession } from './admin';
import { getMember } from './members';
import { checkPermissions } from './roles';

/**
 * Credentials the admin CLI issues and lists (DESIGN section 10): API keys and sessions of a member,
 * validated as the API validates input (422 `validation` at a pointer). Secrets are answered once,
 * when issued; listings never carry them.
 */

async function activeMember(ctx: ServiceContext, memberId: string) {
  const member = await getMember(ctx, memberId);
  if (!member.active) throw new AppError('validation', { detail: 'member: is not active', errors: [{ pointer: '/member', detail: 'is not active' }] });
  return member;
}

export async function issueApiKey(
  ctx: ServiceContext,
  input: { member_id: string; name?: string; permissions?: string[]; expires_at?: Date },
) {
  const r = new Refusals();
  if (input.permissions) checkPermissions(r, input.permissions);
  if (input.name !== undefined) r.check(input.name.trim().length > 0 && input.name.length <= 100, '/name', 'must be 1 to 100 characters, not blank');
  if (input.expires_at) r.check(input.expires_at > ctx.now, '/expires_at', 'must be in the future');
  r.throwIfAny();
  await activeMember(ctx, input.member_id);
  // By default the key carries what its owner holds now (it never carries more: keys are intersected with the owner's permissions).
  const permissions = input.permissions ?? (await memberPermissions(ctx.db, { organizationId: ctx.org.id, memberId: input.member_id })).sort();
  const key = await createApiKey(ctx.db, {
    organizationId: ctx.org.id,
    ownerMemberId: input.member_id,
    name: input.name?.trim(),
    permissions,
    expiresAt: input.expires_at ?? null,
  });
  return { id: key.id, api_key: key.token, owner_member_id: input.member_id, permissions: key.permissions, expires_at: key.expiresAt?.toISOString() ?? null };
}

export const SESSION_HOURS_MAX = 720;

export async function issueSession(ctx: ServiceContext, input: { member_id: string; hours?: number }) {
  const hours = input.hours ?? 12;
  const r = new Refusals();
  r.check(Number.isInteger(hours) && hours >= 1 && hours <= SESSION_HOURS_MAX, '/hours', `must be a whole number from 1 to ${SESSION_HOURS_MAX}`);
  r.throwIfAny();
  await activeMember(ctx, input.member_id);
  const session = await createSession(ctx.db, {
    organizationId: ctx.org.id,
    memberId: input.member_id,
    now: ctx.now,
    expiresAt: new Date(ctx.now.getTime() + hours * 3600_000),
  });
  return { id: session.id, member_id: input.member_id, session_token: session.token, expires_at: session.expiresAt.toISOString() };
}

/** The organization's API keys (one member's when named), newest first, without their secrets. */
export async function listApiKeysOf(ctx: ServiceContext, input: { member_id?: string }) {
  if (input.member_id) await getMember(ctx, input.member_id);
  const keys = await listApiKeys(ctx.db, { organizationId: ctx.org.id, memberId: input.member_id });
  return keys.map((k) => ({
    id: k.id,
    name: k.name,
    owner_member_id: k.ownerMemberId,
    permissions: [...k.permissions].sort(),
    created_at: k.createdAt.toISOString(),
    expires_at: k.expiresAt?.toISOString() ?? null,
    revoked_at: k.revokedAt?.toISOString() ?? null,
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
    state: k.revokedAt ? 'revoked' : k.expiresAt && k.expiresAt <= ctx.now ? 'expired' : 'active',
  }));
}
