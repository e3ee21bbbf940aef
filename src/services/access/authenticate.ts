import type { Database } from '../../db/client';
import { findApiKeyForAuth, findSessionForAuth, slideSession, touchApiKey } from '../../db/queries/access';
import { sameDigest, sha256Hex } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import type { OrganizationSettings } from '../context';
import type { Principal } from './principal';

/** A caller narrowed once: who (principal) and the organization's settings they act in. */
export interface Authenticated {
  principal: Principal;
  org: OrganizationSettings;
}

function orgOf(row: {
  orgId: string;
  orgName: string;
  orgBaseCurrency: string;
  orgTimeZone: string;
  orgRecordLanguages: string[];
  orgSeller: OrganizationSettings['seller'];
  authEpoch: number;
}): OrganizationSettings {
  return {
    id: row.orgId,
    name: row.orgName,
    baseCurrency: row.orgBaseCurrency,
    timeZone: row.orgTimeZone,
    recordLanguages: row.orgRecordLanguages,
    seller: row.orgSeller,
    configEpoch: row.authEpoch,
  };
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const API_KEY_RE = new RegExp(`^fk_(${UUID})_([A-Za-z0-9_-]{20,200})$`);
const SESSION_RE = /^fs_[A-Za-z0-9_-]{20,200}$/;

/** True when the token is session-shaped (`fs_…`). */
export const isSessionToken = (token: string) => SESSION_RE.test(token);

export type CredentialKind = 'api_key' | 'session' | 'unknown';

/** Which kind of credential a bearer token claims to be. */
export function credentialKind(token: string): CredentialKind {
  if (token.startsWith('fk_')) return 'api_key';
  if (token.startsWith('fs_')) return 'session';
  return 'unknown';
}

export function bearerToken(authorization: string | undefined): string | undefined {
  if (!authorization) return undefined;
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
  return m?.[1];
}

/** 401; the edge adds the Bearer challenge every 401 carries. */
function unauthenticated(detail: string): AppError {
  return new AppError('unauthenticated', { detail });
}

/** An API key's token split into its id and secret; undefined when the token is not key-shaped. */
export function parseApiKeyToken(token: string): { id: string; secret: string } | undefined {
  const m = API_KEY_RE.exec(token);
  return m ? { id: m[1]!.toLowerCase(), secret: m[2]! } : undefined;
}

/** An authenticated API key, with what a process needs to cache its principal. */
export interface AuthenticatedKey extends Authenticated {
  secretHash: string;
  expiresAt: Date | null;
  /** The organization's auth epoch, read in the same statement as the key. */
  epoch: number;
}

export interface AuthenticateOptions {
  /**
   * Record `last_used_at` here (once a minute). False when the request's rate-limit statement
   * records it instead (hitKeyChecked).
   */
  touch?: boolean;
}

/** Authenticates an API key from its id and secret, or throws 401. */
export async function authenticateApiKey(db: Database, token: { id: string; secret: string }, now: Date, opts: AuthenticateOptions = {}): Promise<AuthenticatedKey> {
  const key = await findApiKeyForAuth(db, token.id);
  const secretHash = sha256Hex(token.secret);
  if (!key || !sameDigest(key.secretHash, secretHash)) throw unauthenticated('The API key is not valid');
  if (key.revokedAt) throw unauthenticated('The API key has been revoked');
  if (key.expiresAt && key.expiresAt <= now) throw unauthenticated('The API key has expired');
  if (!key.ownerActive) throw unauthenticated("The API key's owner is no longer active");
  const ownerPermissions = new Set(key.ownerPermissions);
  // Use is recorded at most once a minute: most requests write nothing.
  if (opts.touch !== false && (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() >= 60_000)) {
    await touchApiKey(db, { organizationId: key.organizationId, id: key.id, now });
  }
  const principal: Principal = {
    organizationId: key.organizationId,
    memberId: key.ownerMemberId,
    via: 'api_key',
    credentialId: key.id,
    permissions: new Set(key.permissions.filter((p) => ownerPermissions.has(p))),
  };
  return { principal, org: orgOf(key), secretHash, expiresAt: key.expiresAt, epoch: key.authEpoch };
}

/** A cached key is still good for this token at this time (its epoch is checked by the caller's statement). */
export function cachedKeyStillValid(cached: { secretHash: string; expiresAt: Date | null }, token: { secret: string }, now: Date): boolean {
  if (cached.expiresAt && cached.expiresAt <= now) return false;
  return sameDigest(cached.secretHash, sha256Hex(token.secret));
}

/**
 * Resolves a bearer credential to a principal, or throws 401. An API key's effective permissions are
 * its own intersected with its owner's current ones.
 */
export async function authenticate(db: Database, authorization: string | undefined, now: Date): Promise<Authenticated> {
  if (!authorization) throw unauthenticated('The Authorization header is missing');
  const token = bearerToken(authorization);
  if (!token) throw unauthenticated('The Authorization header must be "Bearer <token>"');

  const key = parseApiKeyToken(token);
  if (key) {
    const { principal, org } = await authenticateApiKey(db, key, now);
    return { principal, org };
  }

  if (SESSION_RE.test(token)) {
    const session = await findSessionForAuth(db, sha256Hex(token));
    if (!session) throw unauthenticated('The session is not valid');
    if (session.revokedAt || session.expiresAt <= now || !session.memberActive) {
      throw unauthenticated('The session is no longer valid');
    }
    await slide(db, session, now);
    const permissions = session.memberPermissions;
    const principal: Principal = {
      organizationId: session.organizationId,
      memberId: session.memberId,
      via: 'session',
      credentialId: session.id,
      permissions: new Set(permissions),
    };
    return { principal, org: orgOf(session) };
  }

  throw unauthenticated('The bearer token is malformed');
}

/** However often it is used, a session ends this long after it was created (it must be renewed by logging in again). */
export const SESSION_MAX_LIFETIME_MS = 30 * 24 * 3600_000;

/**
 * Sliding sessions: each use moves the expiry to `idle_seconds` from now (12 hours for a login),
 * never past the session's maximum lifetime. Written only when the expiry moves by more than a
 * minute, so a busy session costs one write a minute, not one per request.
 */
async function slide(db: Database, session: { organizationId: string; id: string; createdAt: Date; expiresAt: Date; idleSeconds: number }, now: Date) {
  const cap = session.createdAt.getTime() + Math.max(SESSION_MAX_LIFETIME_MS, session.idleSeconds * 1000);
  const next = Math.min(now.getTime() + session.idleSeconds * 1000, cap);
  if (next - session.expiresAt.getTime() > 60_000) {
    await slideSession(db, { organizationId: session.organizationId, id: session.id, expiresAt: new Date(next) });
  }
}
