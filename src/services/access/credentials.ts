import { findApiKey, listApiKeys, memberPermissions } from '../../db/queries/access';
import { AppError } from '../../lib/errors';
import { keysetPage } from '../keyset-page';
import { DEFAULT_PAGE_LIMIT } from '../settings/page';
import { Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { createApiKey, createSession, revokeApiKey } from './admin';
import { getMember } from './members';
import { checkPermissions } from './roles';

/**
 * Credentials of members (docs/design.md §10): API keys and sessions, issued by the admin CLI and (API
 * keys) by an owner over `organization.apiKeys.*`, validated as the API validates input (422
 * `validation` at a pointer). A key carries only permissions its member holds, and only ones the
 * person issuing it holds too (nobody hands out authority they lack). Secrets are answered once, when
 * issued; listings never carry them.
 */

async function activeMember(ctx: ServiceContext, memberId: string) {
  const member = await getMember(ctx, memberId);
  if (!member.active) throw new AppError('validation', { detail: 'member: is not active', errors: [{ pointer: '/member', detail: 'is not active' }] });
  return member;
}

/**
 * What an API-key request is refused for before anything is read (the admin CLI checks it before it
 * opens the database); throws them all at once.
 */
export function checkApiKeyRequest(input: { name?: string | undefined; permissions?: string[] | undefined; expires_at?: Date | undefined }, now: Date): void {
  const r = new Refusals();
  if (input.permissions) checkPermissions(r, input.permissions);
  if (input.name !== undefined) r.check(input.name.trim().length > 0 && input.name.length <= 100, '/name', 'must be 1 to 100 characters, not blank');
  if (input.expires_at) r.check(input.expires_at > now, '/expires_at', 'must be in the future');
  r.throwIfAny();
}

export async function issueApiKey(
  ctx: ServiceContext,
  input: { member_id: string; name?: string; permissions?: string[]; expires_at?: Date },
) {
  checkApiKeyRequest(input, ctx.now);
  await activeMember(ctx, input.member_id);
  const held = await memberPermissions(ctx.db, { organizationId: ctx.org.id, memberId: input.member_id });
  // By default the key carries what its owner holds now (it never carries more: keys are intersected with the owner's permissions).
  const permissions = input.permissions ?? [...held].sort();
  const r = new Refusals();
  input.permissions?.forEach((p, i) => {
    if (!held.includes(p)) r.add(`/permissions/${i}`, `is not held by the member (${p}): a key carries only permissions of its member's roles`);
    else if (!ctx.principal.permissions.has(p)) r.add(`/permissions/${i}`, `is not held by you (${p}): you may only hand out permissions you hold`);
  });
  r.throwIfAny();
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

/** A session request's hours (12 unless given), refused before anything is read (1 to SESSION_HOURS_MAX, whole). */
export function checkSessionRequest(input: { hours?: number | undefined }): number {
  const hours = input.hours ?? 12;
  const r = new Refusals();
  r.check(Number.isInteger(hours) && hours >= 1 && hours <= SESSION_HOURS_MAX, '/hours', `must be a whole number from 1 to ${SESSION_HOURS_MAX}`);
  r.throwIfAny();
  return hours;
}

export async function issueSession(ctx: ServiceContext, input: { member_id: string; hours?: number }) {
  const hours = checkSessionRequest(input);
  await activeMember(ctx, input.member_id);
  const session = await createSession(ctx.db, {
    organizationId: ctx.org.id,
    memberId: input.member_id,
    now: ctx.now,
    expiresAt: new Date(ctx.now.getTime() + hours * 3600_000),
  });
  return { id: session.id, member_id: input.member_id, session_token: session.token, expires_at: session.expiresAt.toISOString() };
}

type ApiKeyRow = Omit<Awaited<ReturnType<typeof listApiKeys>>[number], 'position'>;

function apiKeyView(ctx: ServiceContext, k: ApiKeyRow) {
  return {
    id: k.id,
    name: k.name,
    owner_member_id: k.ownerMemberId,
    owner_member_name: k.ownerName,
    permissions: [...k.permissions].sort(),
    created_at: k.createdAt.toISOString(),
    expires_at: k.expiresAt?.toISOString() ?? null,
    revoked_at: k.revokedAt?.toISOString() ?? null,
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
    state: (k.revokedAt ? 'revoked' : k.expiresAt && k.expiresAt <= ctx.now ? 'expired' : 'active') as 'revoked' | 'expired' | 'active',
  };
}
export type ApiKeyView = ReturnType<typeof apiKeyView>;

/** A page of the organization's API keys (one member's when named), newest first, without their secrets. */
export async function listApiKeysOf(ctx: ServiceContext, input: { member_id?: string; limit?: number; cursor?: string }): Promise<{ items: ApiKeyView[]; next_cursor: string | null }> {
  if (input.member_id) await getMember(ctx, input.member_id);
  const page = await keysetPage(ctx, {
    binding: { sort: 'api_keys:created_at', order: 'desc', filters: { member_id: input.member_id ?? null } },
    cursor: input.cursor,
    limit: input.limit ?? DEFAULT_PAGE_LIMIT,
    value: ISO_INSTANT,
  });
  const keys = await listApiKeys(ctx.db, { organizationId: ctx.org.id, memberId: input.member_id, after: page.after, take: page.take });
  const { page: rows, next_cursor } = page.cut(keys, (k) => ({ value: k.position, id: k.id }));
  return { items: rows.map((k) => apiKeyView(ctx, k)), next_cursor };
}

/** Every API key of the organization (one member's when named), page after page: for the operator's CLI. */
export async function allApiKeysOf(ctx: ServiceContext, input: { member_id?: string }): Promise<ApiKeyView[]> {
  const all: ApiKeyView[] = [];
  let cursor: string | undefined;
  do {
    const page = await listApiKeysOf(ctx, { ...input, limit: 100, ...(cursor ? { cursor } : {}) });
    all.push(...page.items);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return all;
}

/** A cursor's created_at: an ISO instant in UTC to the microsecond. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/**
 * organization.apiKeys.create: a key for a member, answered as listed plus its secret (`api_key`,
 * shown this once).
 */
export async function createMemberApiKey(ctx: ServiceContext, input: { member_id: string; name?: string; permissions?: string[]; expires_at?: Date }) {
  const issued = await issueApiKey(ctx, input);
  const key = await findApiKey(ctx.db, { organizationId: ctx.org.id, id: issued.id });
  if (!key) throw new AppError('internal');
  return { ...apiKeyView(ctx, key), api_key: issued.api_key };
}

/**
 * Revokes one of the organization's API keys (its next use is 401) and answers it as it now stands;
 * another organization's key is 404, a key already revoked 409 `conflict` (its revocation time kept).
 */
export async function revokeApiKeyOf(ctx: ServiceContext, input: { id: string }): Promise<ApiKeyView> {
  const key = await findApiKey(ctx.db, { organizationId: ctx.org.id, id: input.id });
  if (!key) throw new AppError('not_found', { detail: 'No such API key in this organization' });
  if (key.revokedAt) throw new AppError('conflict', { detail: `The API key was already revoked at ${key.revokedAt.toISOString()}` });
  await revokeApiKey(ctx.db, { organizationId: ctx.org.id, id: input.id, now: ctx.now });
  return apiKeyView(ctx, { ...key, revokedAt: ctx.now });
}
