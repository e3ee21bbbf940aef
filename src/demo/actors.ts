import { createInProcessClient, type InProcessClient } from '../client';
import type { AppDeps } from '../deps';
import { authenticate } from '../services/access/authenticate';
import { serviceContext, type ServiceContext } from '../services/context';
import type { DemoMember } from './types';

/**
 * How the demo acts as a person. Operations go through the in-process client with the member's
 * session, exactly as that person's requests would (authentication, permission, the write's own
 * transaction, nested in the seed's as a savepoint). What is no tRPC operation yet (an upload,
 * issuing a receivable, a receipt) goes to its service with the context that same session resolves
 * to. Never a database query here.
 */

/** Nobody signed in: the caller of `auth.login`. */
export function anonymous(deps: AppDeps): InProcessClient {
  return createInProcessClient(deps, {});
}

function sessionOf(member: DemoMember): string {
  if (!member.session_token) throw new Error(`demo: ${member.name} has no session (inactive members cannot act)`);
  return member.session_token;
}

/**
 * The member's client. `at` moves the clock the operation sees (a claim filed two weeks ago);
 * `ifMatch` is the revision an update or a deactivation expects.
 */
export function as(deps: AppDeps, member: DemoMember, opts: { at?: Date; ifMatch?: number } = {}): InProcessClient {
  const { at, ifMatch } = opts;
  const clocked = at ? { ...deps, now: () => at } : deps;
  return createInProcessClient(clocked, { token: sessionOf(member), ...(ifMatch === undefined ? {} : { ifMatch: `"${ifMatch}"` }) });
}

/**
 * The service context of the member's session at `at`: the principal and the organization's settings
 * a request with that session is given (src/services/access/authenticate.ts, the middleware's step).
 */
export async function contextOf(deps: AppDeps, member: DemoMember, at: Date): Promise<ServiceContext> {
  const { principal, org } = await authenticate(deps.db, `Bearer ${sessionOf(member)}`, at);
  return serviceContext(deps.db, principal, org, at, deps.config.CURSOR_SECRET);
}

/** Every item of a keyset list, page after page. */
export async function allPages<T>(page: (cursor: string | undefined) => Promise<{ items: T[]; next_cursor: string | null }>): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  do {
    const p = await page(cursor);
    out.push(...p.items);
    cursor = p.next_cursor ?? undefined;
  } while (cursor);
  return out;
}

/** The record of `items` with `code`; the demo relies on it (a default the organization was created with). */
export function byCode<T extends { code: string }>(items: T[], code: string, what: string): T {
  const found = items.find((i) => i.code === code);
  if (!found) throw new Error(`demo: the organization has no ${what} ${code}`);
  return found;
}

export const minutesAfter = (at: Date, n: number) => new Date(at.getTime() + n * 60_000);

export function daysBefore(today: string, n: number): string {
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - n);
  return d.toISOString().slice(0, 10);
}
