import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { findLoginCandidates, findMemberIdentity, insertSession, revokeSessionRow } from '../../db/queries/access';
import { clearAccountFailures, countAccountFailure, countAddressFailure, findLoginFailures } from '../../db/queries/login-failures';
import { randomToken, sha256Hex } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import { maxLength, notBlank, Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { verifyPassword } from './passwords';

/**
 * People log in (auth.login, DESIGN section 5): e-mail and password give a session (`fs_…`, hashed at
 * rest, sliding). A wrong e-mail, a wrong password, an inactive member or a member without a password
 * all answer the same 401 after the same work (a dummy hash is verified when nobody matches).
 * Failed logins are limited per source address (a fixed window) and per account (a growing lock),
 * in the login_failures table on the injected clock, so every process sharing the database enforces
 * one limit.
 */

export interface LoginSettings {
  failuresPerAddress: number;
  failureWindowSeconds: number;
  accountFreeFailures: number;
  accountMaxLockSeconds: number;
  sessionSeconds: number;
}

export function loginSettings(config: Config): LoginSettings {
  return {
    failuresPerAddress: config.LOGIN_FAILURES_PER_ADDRESS,
    failureWindowSeconds: config.LOGIN_FAILURE_WINDOW_SECONDS,
    accountFreeFailures: config.LOGIN_ACCOUNT_FREE_FAILURES,
    accountMaxLockSeconds: config.LOGIN_ACCOUNT_MAX_LOCK_SECONDS,
    sessionSeconds: config.SESSION_HOURS * 3600,
  };
}

/** A run of an account's failures is forgotten a day after its last failure. */
export const ACCOUNT_RUN_RESET_SECONDS = 24 * 3600;

export interface LoginContext {
  /** The pool, never a transaction: failures must be counted even though the login is refused. */
  db: Database;
  now: Date;
  /** The source address (fastify's req.ip). */
  ip: string;
  settings: LoginSettings;
}

export interface LoginInput {
  email: string;
  password: string;
  organization_id?: string;
}

export interface LoginAnswer {
  session_token: string;
  expires_at: string;
  member: { id: string; name: string; email: string };
  organization: { id: string; name: string };
}

const FAILED_DETAIL = 'The e-mail or the password is not right, or the account cannot log in';

/** The account a failure is counted against: the login name, not whether anybody uses it. */
const accountSubject = (email: string) => sha256Hex(`login:${email.trim().toLowerCase()}`);

const secondsUntil = (until: Date, now: Date) => Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));

function tooManyFromAddress(retryAfterSeconds: number, limit: number): AppError {
  return new AppError('rate_limited', {
    detail: `Too many failed logins from this address; retry after ${retryAfterSeconds} seconds`,
    retryAfterSeconds,
    rateLimit: { limit, remaining: 0, resetSeconds: retryAfterSeconds },
  });
}

function accountLocked(retryAfterSeconds: number): AppError {
  return new AppError('rate_limited', {
    detail: `Too many failed logins for this account; retry after ${retryAfterSeconds} seconds`,
    retryAfterSeconds,
  });
}

/** 429 while the address is over its limit or the account is locked; nothing is counted then. */
async function refuseWhileLimited(ctx: LoginContext, subject: string): Promise<void> {
  const { settings, now } = ctx;
  const address = await findLoginFailures(ctx.db, { kind: 'address', subject: ctx.ip });
  if (address && address.failures >= settings.failuresPerAddress) {
    const windowEnds = new Date(address.windowStartedAt.getTime() + settings.failureWindowSeconds * 1000);
    if (windowEnds > now) throw tooManyFromAddress(secondsUntil(windowEnds, now), settings.failuresPerAddress);
  }
  const account = await findLoginFailures(ctx.db, { kind: 'account', subject });
  if (account?.lockedUntil && account.lockedUntil > now) throw accountLocked(secondsUntil(account.lockedUntil, now));
}

async function countFailure(ctx: LoginContext, subject: string): Promise<void> {
  const { settings, now } = ctx;
  await countAddressFailure(ctx.db, { address: ctx.ip, now, windowSeconds: settings.failureWindowSeconds });
  await countAccountFailure(ctx.db, {
    subject,
    now,
    freeFailures: settings.accountFreeFailures,
    maxLockSeconds: settings.accountMaxLockSeconds,
    resetSeconds: ACCOUNT_RUN_RESET_SECONDS,
  });
}

export async function login(ctx: LoginContext, input: LoginInput): Promise<LoginAnswer> {
  const r = new Refusals();
  if (notBlank(r, input.email, '/email')) maxLength(r, input.email, 254, '/email');
  r.check(input.password.length > 0, '/password', 'must not be empty');
  r.throwIfAny();

  const subject = accountSubject(input.email);
  await refuseWhileLimited(ctx, subject);

  const candidates = await findLoginCandidates(ctx.db, { email: input.email.trim(), organizationId: input.organization_id });
  const matched: typeof candidates = [];
  if (candidates.length === 0) await verifyPassword(null, input.password);
  for (const c of candidates) if (await verifyPassword(c.passwordHash, input.password)) matched.push(c);

  if (matched.length === 0) {
    await countFailure(ctx, subject);
    throw new AppError('unauthenticated', { detail: FAILED_DETAIL });
  }
  // The password is right: the run of failures ends whatever comes next.
  await clearAccountFailures(ctx.db, { subject });
  if (candidates.length > 1) {
    throw new AppError('validation', {
      detail: 'organization_id: you are a member of several organizations; name the one to log in to',
      errors: [{ pointer: '/organization_id', detail: 'is required: you are a member of several organizations' }],
      extensions: { organizations: matched.map((m) => ({ id: m.organizationId, name: m.organizationName })) },
    });
  }
  const member = matched[0]!;
  const token = `fs_${randomToken(32)}`;
  const expiresAt = new Date(ctx.now.getTime() + ctx.settings.sessionSeconds * 1000);
  await insertSession(ctx.db, {
    organizationId: member.organizationId,
    memberId: member.memberId,
    tokenHash: sha256Hex(token),
    createdAt: ctx.now,
    expiresAt,
    idleSeconds: ctx.settings.sessionSeconds,
  });
  return {
    session_token: token,
    expires_at: expiresAt.toISOString(),
    member: { id: member.memberId, name: member.name, email: member.email ?? input.email.trim() },
    organization: { id: member.organizationId, name: member.organizationName },
  };
}

/** auth.logout: revokes the caller's own session. */
export async function logout(ctx: ServiceContext): Promise<{ revoked: true }> {
  if (ctx.principal.via !== 'session') throw new AppError('person_required', { detail: 'Only a session can be logged out' });
  const revoked = await revokeSessionRow(ctx.db, { organizationId: ctx.org.id, id: ctx.principal.credentialId, now: ctx.now });
  if (!revoked) throw new AppError('unauthenticated', { detail: 'The session is no longer valid' });
  return { revoked: true };
}

/** auth.me: who the caller is, in which organization, with which effective permissions (sorted). */
export async function me(ctx: ServiceContext) {
  const member = await findMemberIdentity(ctx.db, { organizationId: ctx.org.id, id: ctx.principal.memberId });
  if (!member) throw new AppError('unauthenticated', { detail: 'The member is no longer known' });
  return {
    member: { id: member.id, name: member.name, email: member.email },
    organization: { id: ctx.org.id, name: ctx.org.name },
    permissions: [...ctx.principal.permissions].sort(),
    via: ctx.principal.via === 'api_key' ? ('api_key' as const) : ('session' as const),
  };
}
