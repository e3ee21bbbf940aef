import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { findLoginCandidates, findMemberCredentials, findMemberIdentity, insertSession, revokeMemberSessions, revokeSessionRow, updateMemberRow } from '../../db/queries/access';
import { releaseLoginUnits, reserveLoginUnits, type LoginCounter, type LoginFailureKind, type ReservedUnit } from '../../db/queries/login-failures';
import { randomToken, sha256Hex } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import { maxLength, notBlank, Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { checkPassword, hashPassword, verifyPassword } from './passwords';
import { recordSettingsChange } from '../settings/history';

/**
 * People log in (auth.login, docs/design.md §5): e-mail and password give a session (`fs_…`, hashed at
 * rest, sliding). A wrong e-mail, a wrong password, an inactive member or a member without a password
 * all answer the same 401 after the same work (a dummy hash is verified when nobody matches).
 *
 * Failed logins are limited in the login_failures table on the injected clock (shared by every
 * process on the database), in fixed windows: per source address, per (address, account) pair and,
 * much higher, per account everywhere. Before any password is verified, one unit of each is reserved
 * in one atomic statement; an attempt that finds a limit already reached is refused (429) and
 * gives its units back, a failure keeps them, anything else (the password was right) gives them
 * back. So a burst of concurrent guesses verifies at most as many passwords as the limits allow,
 * an attacker's failures lock the account out of the attacker's address only, and a success never
 * clears anybody else's failures.
 */

export interface LoginSettings {
  failuresPerAddress: number;
  failureWindowSeconds: number;
  failuresPerAccountAddress: number;
  accountAddressWindowSeconds: number;
  failuresPerAccount: number;
  accountWindowSeconds: number;
  sessionSeconds: number;
}

export function loginSettings(config: Config): LoginSettings {
  return {
    failuresPerAddress: config.LOGIN_FAILURES_PER_ADDRESS,
    failureWindowSeconds: config.LOGIN_FAILURE_WINDOW_SECONDS,
    failuresPerAccountAddress: config.LOGIN_FAILURES_PER_ACCOUNT_ADDRESS,
    accountAddressWindowSeconds: config.LOGIN_ACCOUNT_ADDRESS_WINDOW_SECONDS,
    failuresPerAccount: config.LOGIN_FAILURES_PER_ACCOUNT,
    accountWindowSeconds: config.LOGIN_ACCOUNT_WINDOW_SECONDS,
    sessionSeconds: config.SESSION_HOURS * 3600,
  };
}

/** The windows of the login counters by kind (what the purge job deletes by). */
export function loginWindows(
  config: Pick<Config, 'LOGIN_FAILURE_WINDOW_SECONDS' | 'LOGIN_ACCOUNT_ADDRESS_WINDOW_SECONDS' | 'LOGIN_ACCOUNT_WINDOW_SECONDS'>,
): Record<LoginFailureKind, number> {
  return {
    address: config.LOGIN_FAILURE_WINDOW_SECONDS,
    pair: config.LOGIN_ACCOUNT_ADDRESS_WINDOW_SECONDS,
    account: config.LOGIN_ACCOUNT_WINDOW_SECONDS,
  };
}

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

const loginName = (email: string) => email.trim().toLowerCase();

/** The counters of one attempt, in the order every statement takes them (address, pair, account). */
function countersOf(ctx: LoginContext, email: string): { counter: LoginCounter; limit: number }[] {
  const { settings } = ctx;
  const name = loginName(email);
  return [
    { counter: { kind: 'address', subject: ctx.ip, windowSeconds: settings.failureWindowSeconds }, limit: settings.failuresPerAddress },
    {
      counter: { kind: 'pair', subject: sha256Hex(`login-pair:${ctx.ip}\n${name}`), windowSeconds: settings.accountAddressWindowSeconds },
      limit: settings.failuresPerAccountAddress,
    },
    { counter: { kind: 'account', subject: sha256Hex(`login:${name}`), windowSeconds: settings.accountWindowSeconds }, limit: settings.failuresPerAccount },
  ];
}

const secondsUntil = (until: Date, now: Date) => Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));

const REFUSED_DETAIL: Record<LoginFailureKind, string> = {
  address: 'Too many failed logins from this address',
  pair: 'Too many failed logins for this account from this address',
  account: 'Too many failed logins for this account',
};

/**
 * Reserves a unit of each counter before any password is verified. A limit already reached (the
 * count with this unit above it) refuses the attempt with 429, after giving every unit back: a
 * refused attempt verified nothing and is not a failure.
 */
async function reserveAttempt(ctx: LoginContext, email: string): Promise<ReservedUnit[]> {
  const counters = countersOf(ctx, email);
  const units = await reserveLoginUnits(ctx.db, { counters: counters.map((c) => c.counter), now: ctx.now });
  let refused: { kind: LoginFailureKind; limit: number; retryAfterSeconds: number } | undefined;
  for (const { counter, limit } of counters) {
    const unit = units.find((u) => u.kind === counter.kind);
    if (!unit || unit.failures <= limit) continue;
    const retryAfterSeconds = secondsUntil(new Date(unit.windowStartedAt.getTime() + counter.windowSeconds * 1000), ctx.now);
    if (!refused || retryAfterSeconds > refused.retryAfterSeconds) refused = { kind: counter.kind, limit, retryAfterSeconds };
  }
  if (!refused) return units;
  await releaseLoginUnits(ctx.db, { units });
  throw new AppError('rate_limited', {
    detail: `${REFUSED_DETAIL[refused.kind]}; retry after ${refused.retryAfterSeconds} seconds`,
    retryAfterSeconds: refused.retryAfterSeconds,
    rateLimit: { limit: refused.limit, remaining: 0, resetSeconds: refused.retryAfterSeconds },
  });
}

export async function login(ctx: LoginContext, input: LoginInput): Promise<LoginAnswer> {
  const r = new Refusals();
  if (notBlank(r, input.email, '/email')) maxLength(r, input.email, 254, '/email');
  r.check(input.password.length > 0, '/password', 'must not be empty');
  r.throwIfAny();

  const units = await reserveAttempt(ctx, input.email);
  let matched: Awaited<ReturnType<typeof findLoginCandidates>>;
  try {
    const candidates = await findLoginCandidates(ctx.db, { email: input.email.trim(), organizationId: input.organization_id });
    matched = [];
    if (candidates.length === 0) await verifyPassword(null, input.password);
    for (const c of candidates) if (await verifyPassword(c.passwordHash, input.password)) matched.push(c);
  } catch (e) {
    // Not a failure of the password: the units go back.
    await releaseLoginUnits(ctx.db, { units }).catch(() => undefined);
    throw e;
  }
  // A failure keeps its units.
  if (matched.length === 0) throw new AppError('unauthenticated', { detail: FAILED_DETAIL });
  // The password is right: this attempt's units go back (nobody else's failures are touched).
  await releaseLoginUnits(ctx.db, { units });
  // Only the memberships this password opens are weighed and named: memberships of the same e-mail
  // elsewhere (another person's, or the same person's under another password) change nothing.
  if (matched.length > 1) {
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

export interface ChangePasswordInput {
  current_password: string;
  new_password: string;
}

/**
 * auth.changePassword: the caller (a session) sets a new password, naming the current one. The new
 * one meets the password policy of organization.members.add (422 at /new_password). A wrong current
 * password counts and is limited exactly as a failed login of the member's e-mail from this address
 * (429 with Retry-After past the limits) and answers 401 `current_password_wrong` at
 * /current_password; the session stays valid. Then, in one transaction, the hash is replaced and
 * every other session of the member ends; the one used here is kept.
 */
export async function changePassword(
  ctx: ServiceContext,
  login: Pick<LoginContext, 'ip' | 'settings'>,
  input: ChangePasswordInput,
): Promise<{ changed: true; sessions_ended: number }> {
  if (ctx.principal.via !== 'session') throw new AppError('person_required', { detail: 'Only a person signed in with a session changes their password' });
  const r = new Refusals();
  r.check(input.current_password.length > 0, '/current_password', 'must not be empty');
  checkPassword(r, input.new_password, '/new_password');
  if (input.new_password.normalize('NFC') === input.current_password.normalize('NFC')) r.add('/new_password', 'must differ from the current password');
  r.throwIfAny();

  const member = await findMemberCredentials(ctx.db, { organizationId: ctx.org.id, id: ctx.principal.memberId });
  if (!member?.active) throw new AppError('unauthenticated', { detail: 'The member is no longer known' });
  // The pool, as a login's: a wrong password is counted even though the change is refused.
  const attempt: LoginContext = { db: ctx.db, now: ctx.now, ip: login.ip, settings: login.settings };
  const units = await reserveAttempt(attempt, member.email ?? member.id);
  let right: boolean;
  try {
    right = await verifyPassword(member.passwordHash, input.current_password);
  } catch (e) {
    await releaseLoginUnits(ctx.db, { units }).catch(() => undefined);
    throw e;
  }
  if (!right) {
    throw new AppError('current_password_wrong', {
      detail: 'The current password is not right',
      errors: [{ pointer: '/current_password', detail: 'is not your current password' }],
    });
  }
  await releaseLoginUnits(ctx.db, { units });

  const passwordHash = await hashPassword(input.new_password);
  const ended = await ctx.db.transaction(async (tx) => {
    await updateMemberRow(tx, { organizationId: ctx.org.id, id: member.id, set: { passwordHash } });
    const count = await revokeMemberSessions(tx, { organizationId: ctx.org.id, memberId: member.id, now: ctx.now, exceptSessionId: ctx.principal.credentialId });
    await recordSettingsChange({ ...ctx, db: tx }, { entity: 'members', record_id: member.id, action: 'change_password', before: null, after: { id: member.id, sessions_ended: count } });
    return count;
  });
  return { changed: true, sessions_ended: ended };
}

/** auth.me: who the caller is, in which organization, with which effective permissions (sorted). */
export async function me(ctx: ServiceContext) {
  const member = await findMemberIdentity(ctx.db, { organizationId: ctx.org.id, id: ctx.principal.memberId });
  if (!member) throw new AppError('unauthenticated', { detail: 'The member is no longer known' });
  return {
    member: { id: member.id, name: member.name, email: member.email },
    organization: { id: ctx.org.id, name: ctx.org.name, time_zone: ctx.org.timeZone, record_languages: [...ctx.org.recordLanguages] },
    permissions: [...ctx.principal.permissions].sort(),
    via: ctx.principal.via === 'api_key' ? ('api_key' as const) : ('session' as const),
  };
}
