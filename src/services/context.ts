import type { Database } from '../db/client';
import type { SellerIdentity } from '../db/schema';
import { todayIn } from '../lib/dates';
import { cursorSecret } from './access/cursor-secret';
import type { Principal } from './access/principal';

/**
 * What every service call gets: the database handle of this step (the write's transaction inside
 * writes), who is acting, the organization's settings (resolved with authentication, not re-read by
 * each service) and the clock. Services never look at HTTP; they take `(ctx, input)` with input in
 * snake_case as the API has it.
 */
export interface OrganizationSettings {
  id: string;
  name: string;
  baseCurrency: string;
  timeZone: string;
  recordLanguages: string[];
  seller: SellerIdentity;
  /**
   * The organization's auth epoch read with the credential (auth_epochs); set for requests, absent
   * for the system's contexts. Keys the process cache of its configuration (org-config-cache.ts).
   */
  configEpoch?: number;
}

export interface ServiceContext {
  db: Database;
  principal: Principal;
  org: OrganizationSettings;
  /** The organization's calendar date at `now` (YYYY-MM-DD). */
  today: string;
  now: Date;
  /** The key list cursors are signed with (CURSOR_SECRET, or the one stored in the database). */
  cursorSecret: () => Promise<string>;
}

/** The system actor: the CLI, the demo and jobs act on an organization without a person's credential. */
export const SYSTEM_CREDENTIAL_ID = '00000000-0000-0000-0000-000000000000';

export function serviceContext(
  db: Database,
  principal: Principal,
  org: OrganizationSettings,
  now: Date,
  configuredCursorSecret?: string,
): ServiceContext {
  // The secret is read through the pool's handle, never a transaction's: it is shared by every request.
  const secretDb = db;
  return { db, principal, org, now, today: todayIn(org.timeZone, now), cursorSecret: () => cursorSecret(secretDb, configuredCursorSecret) };
}

/**
 * A context for the system acting on an organization: every permission, as `memberId` the member on
 * whose behalf it records (the organization's owner for the CLI), never a session or a key.
 */
export function systemContext(
  db: Database,
  org: OrganizationSettings,
  now: Date,
  actingMemberId: string,
  permissions: Iterable<string>,
  configuredCursorSecret?: string,
): ServiceContext {
  const principal: Principal = { organizationId: org.id, memberId: actingMemberId, via: 'system', credentialId: SYSTEM_CREDENTIAL_ID, permissions: new Set(permissions) };
  return serviceContext(db, principal, org, now, configuredCursorSecret);
}

/** The same context on another handle (a transaction opened inside a service). */
export function withDb(ctx: ServiceContext, db: Database): ServiceContext {
  return { ...ctx, db };
}
