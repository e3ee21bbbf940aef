import type { Database } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { findOrganization } from '../../db/queries/organizations';
import { AppError } from '../../lib/errors';
import { maxLength, notBlank, type Refusals } from '../../lib/refusals';
import { PERMISSIONS } from '../../domain/permissions';
import { systemContext, SYSTEM_CREDENTIAL_ID, type ServiceContext } from '../context';
import { checkRevision } from '../revision';
import { decodePage, DEFAULT_PAGE_LIMIT, pageOf, type PageInput } from './page';

/**
 * Rules shared by the set-up services of reference data (settings.<entity>.*): one wording and one
 * limit for codes and names everywhere, one answer for a code in use, one way to load a record for
 * a change. Never used by the public operations' own checks.
 */

export const CODE_MAX = 50;
export const NAME_MAX = 200;

/** A code: not blank, at most 50 characters. */
export function checkCode(r: Refusals, value: string | undefined, pointer = '/code'): void {
  if (value === undefined) return;
  if (notBlank(r, value, pointer)) maxLength(r, value, CODE_MAX, pointer);
}

/** A name or label: not blank, at most `max` characters. */
export function checkName(r: Refusals, value: string | undefined, pointer = '/name', max = NAME_MAX): void {
  if (value === undefined) return;
  if (notBlank(r, value, pointer)) maxLength(r, value, max, pointer);
}

/**
 * Runs an insert or update that a unique index guards; its violation (found first, or lost to a
 * concurrent request) is one answer: 409 `conflict` at `pointer`.
 */
export async function uniquely<T>(write: () => Promise<T>, constraint: string, pointer: string, detail: string): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (isUniqueViolation(e, constraint)) throw new AppError('conflict', { detail, errors: [{ pointer, detail: 'is already in use' }] });
    throw e;
  }
}

/** A record locked for a change: absent (or another organization's) is 404; a stale If-Match is 409. */
export function lockedForChange<T extends { revision: number }>(row: T | undefined, expectedRevision: number, what: string): T {
  if (!row) throw new AppError('not_found', { detail: `No such ${what} in this organization` });
  checkRevision(row.revision, expectedRevision);
  return row;
}

export function must<T>(row: T | undefined): T {
  if (!row) throw new AppError('internal');
  return row;
}

/**
 * The system acting on one organization (the defaults of a new organization, the CLI, and the old
 * signatures the demo and tests still call): every permission, recorded as the system.
 */
export async function systemContextFor(db: Database, organizationId: string, now = new Date()): Promise<ServiceContext> {
  const org = await findOrganization(db, { organizationId });
  if (!org) throw new AppError('not_found', { detail: 'No such organization' });
  return systemContext(
    db,
    { id: org.id, name: org.name, baseCurrency: org.baseCurrency, timeZone: org.timeZone, recordLanguages: org.recordLanguages, seller: org.seller },
    now,
    SYSTEM_CREDENTIAL_ID,
    PERMISSIONS,
  );
}

/**
 * One page of a set-up list ordered by (key, id): decodes the cursor (bound to the list and its
 * filters), fetches limit + 1 rows after it and answers `{ items, next_cursor }`.
 */
export async function keysetPage<R extends { id: string }, T>(
  ctx: ServiceContext,
  list: string,
  input: PageInput,
  filters: Record<string, unknown>,
  fetch: (after: { value: string; id: string } | undefined, limit: number) => Promise<R[]>,
  keyOf: (row: R) => string,
  view: (row: R) => T,
): Promise<{ items: T[]; next_cursor: string | null }> {
  const position = await decodePage(ctx, list, input, filters);
  const limit = input.limit ?? DEFAULT_PAGE_LIMIT;
  const after = position ? { value: position.value ?? '', id: position.id } : undefined;
  const rows = await fetch(after, limit + 1);
  return pageOf(ctx, list, filters, rows, limit, (r) => ({ value: keyOf(r), id: r.id }), view);
}

/** Whether a patch (undefined members: not sent) leaves the record as it is: no write, no history. */
export function leavesUnchanged(current: object, patch: Record<string, unknown>): boolean {
  const row = current as Record<string, unknown>;
  return Object.entries(patch).every(([k, v]) => v === undefined || sameValue(row[k], v));
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object') return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}
