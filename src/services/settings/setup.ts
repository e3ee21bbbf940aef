import type { Database } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import type { SetupListQuery } from '../../db/queries/keyset';
import { findOrganization } from '../../db/queries/organizations';
import { PERMISSIONS } from '../../domain/permissions';
import { isCurrency } from '../../lib/code-lists';
import { AppError, conflict, notFound } from '../../lib/errors';
import { maxLength, notBlank, type Refusals } from '../../lib/refusals';
import { systemContext, SYSTEM_CREDENTIAL_ID, type ServiceContext } from '../context';
import { checkRevision } from '../revision';
import { recordSettingsChange } from './history';
import { keysetPage, type PageInput } from './page';

/**
 * The set-up toolkit: the ceremony every set-up family (settings.*, organization.members, roles and
 * profile, me.payoutChannels) goes through, written once so the families answer alike:
 * - a record is changed under its lock, against the revision the caller read (If-Match): absent or
 *   another organization's is 404, a stale revision 409 `revision_mismatch`;
 * - a change that leaves the record as it is writes nothing and records no history (the revision
 *   stays);
 * - deactivating a record that is already inactive (retired, ended, withdrawn) is 409 `conflict`;
 * - every write is one settings-history entry in the same transaction.
 * Each family keeps only its own rules (contiguous km bands, overlapping periods, grant fallbacks)
 * in its own file. Never used by the public operations' own checks.
 */

export const CODE_MAX = 50;
export const NAME_MAX = 200;

// Refusals and answers -------------------------------------------------------------------------

/** The one 404 and the one 409 of the project, re-exported for the set-up families. */
export { conflict, notFound } from '../../lib/errors';

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

/** Text that must be visible and at most `max` characters; answers it trimmed (unchecked when absent). */
export function visibleText(r: Refusals, value: string, pointer: string, max: number): string;
export function visibleText(r: Refusals, value: string | undefined, pointer: string, max: number): string | undefined;
export function visibleText(r: Refusals, value: string | undefined, pointer: string, max: number): string | undefined {
  if (value === undefined) return undefined;
  if (notBlank(r, value, pointer)) maxLength(r, value.trim(), max, pointer);
  return value.trim();
}

/** An ISO 4217 currency this service knows (data/currencies.json). */
export function knownCurrency(r: Refusals, value: string | undefined, pointer = '/currency'): boolean {
  return value === undefined || r.check(isCurrency(value), pointer, 'is not an ISO 4217 currency code this service knows');
}

/**
 * Runs an insert or update that a unique index guards; its violation (found first, or lost to a
 * concurrent request) is one answer: 409 `conflict` at `pointer`.
 */
export async function uniquely<T>(write: () => Promise<T>, constraint: string, pointer: string, message: string): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (isUniqueViolation(e, constraint)) throw conflict(pointer, 'is already in use', message);
    throw e;
  }
}

/** The row a write returned; none means the database broke its promise. */
export function written<T>(row: T | undefined): T {
  if (!row) throw new AppError('internal');
  return row;
}

/** Timestamps in answers: ISO 8601 UTC, null stays null. */
export function isoOrNull(value: Date | null): string | null {
  return value ? value.toISOString() : null;
}

/** A record locked for a change: absent (or another organization's) is 404; a stale If-Match is 409. */
export function lockedForChange<T extends { revision: number }>(row: T | undefined, expectedRevision: number, what: string): T {
  if (!row) throw notFound(what);
  checkRevision(row.revision, expectedRevision);
  return row;
}

/**
 * Whether a change (undefined members: not sent) leaves the record as it is: no write, no history.
 * Members are compared with the row's fields of the same name; a member the row has no field for
 * (members to invite, roles to grant) is a change whenever it is sent.
 */
export function leavesUnchanged(current: object, set: object): boolean {
  const row = current as Record<string, unknown>;
  return Object.entries(set).every(([k, v]) => v === undefined || (k in row && sameValue(row[k], v)));
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (a && b && typeof a === 'object' && typeof b === 'object') return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

/**
 * The system acting on one organization (the defaults of a new organization, the CLI, jobs, test
 * fixtures): every permission, recorded as the system.
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

// Lists ----------------------------------------------------------------------------------------

/** A set-up list's input: the page, and `include_inactive` for inactive (retired, ended) records too. */
export interface SetupListInput extends PageInput {
  include_inactive?: boolean;
}

/**
 * One page of a set-up list ordered by (key, id): the cursor is bound to the list, include_inactive
 * and the list's own `filters`; `fetch` gets the organization, include_inactive, where the page
 * starts and how many rows to read.
 */
export function setupListPage<R extends { id: string }, T>(
  ctx: ServiceContext,
  list: string,
  input: SetupListInput,
  filters: Record<string, unknown>,
  fetch: (q: SetupListQuery) => Promise<R[]>,
  keyOf: (row: R) => string,
  view: (row: R) => T,
): Promise<{ items: T[]; next_cursor: string | null }> {
  const includeInactive = input.include_inactive ?? false;
  return keysetPage(ctx, list, input, { include_inactive: includeInactive, ...filters }, (after, limit) => fetch({ organizationId: ctx.org.id, includeInactive, after, limit }), keyOf, view);
}

// The ceremony ---------------------------------------------------------------------------------

/** One record to change: its id and the revision the caller read (If-Match). */
export interface RecordChange {
  id: string;
  expected_revision: number;
}

/** What the toolkit needs of one family; the family's rules stay in the callbacks it passes. */
export interface SetupFamily<Row extends { id: string; revision: number }, View, Set extends object = Partial<Row>> {
  /** The settings-history entity: 'expenseCategories'. */
  entity: string;
  /** The record in answers: 'expense category' (404 "No such expense category in this organization"). */
  what: string;
  /** The record under its row lock (after any scope lock the family's rules need); undefined when absent or another organization's. */
  lock(ctx: ServiceContext, id: string): Promise<Row | undefined>;
  /** Writes `set` and bumps the revision; answers the row as stored. */
  write(ctx: ServiceContext, current: Row, set: Set): Promise<Row | undefined>;
  /** The record as the API answers it (and the history records it). */
  view(ctx: ServiceContext, row: Row): View | Promise<View>;
  /** Why the record takes no deactivation ('is already inactive', 'is already retired'), undefined while active. */
  inactive(ctx: ServiceContext, row: Row): string | undefined;
}

/** The record under its lock, at the revision the caller read. */
export async function lockedRecord<Row extends { id: string; revision: number }, View, Set extends object>(
  ctx: ServiceContext,
  f: SetupFamily<Row, View, Set>,
  input: RecordChange,
): Promise<Row> {
  return lockedForChange(await f.lock(ctx, input.id), input.expected_revision, f.what);
}

/** Records a new record (inserted by the family's own write) in the history and answers its view. */
export async function createdRecord<Row extends { id: string; revision: number }, View, Set extends object>(
  ctx: ServiceContext,
  f: SetupFamily<Row, View, Set>,
  inserted: Row | undefined,
): Promise<View> {
  const row = written(inserted);
  const after = await f.view(ctx, row);
  await recordSettingsChange(ctx, { entity: f.entity, record_id: row.id, action: 'create', before: null, after: after as Record<string, unknown> });
  return after;
}

/**
 * Writes `set` on a locked record and records it; a set that leaves the record as it is writes
 * nothing, records nothing and answers the record as it stands.
 */
export async function writeChange<Row extends { id: string; revision: number }, View, Set extends object>(
  ctx: ServiceContext,
  f: SetupFamily<Row, View, Set>,
  current: Row,
  set: Set | undefined,
  action: string,
): Promise<View> {
  if (!set || leavesUnchanged(current, set)) return f.view(ctx, current);
  const before = await f.view(ctx, current);
  const row = written(await f.write(ctx, current, set));
  const after = await f.view(ctx, row);
  await recordSettingsChange(ctx, { entity: f.entity, record_id: row.id, action, before: before as Record<string, unknown>, after: after as Record<string, unknown> });
  return after;
}

/**
 * An update: the record under its lock at the caller's revision, then the family's rules
 * (`change` answers what to write, or throws), then the write; nothing changed, nothing written.
 */
export async function changeRecord<Row extends { id: string; revision: number }, View, Set extends object>(
  ctx: ServiceContext,
  f: SetupFamily<Row, View, Set>,
  input: RecordChange,
  change: (current: Row) => Set | undefined | Promise<Set | undefined>,
  action: string | ((current: Row) => string) = 'update',
): Promise<View> {
  const current = await lockedRecord(ctx, f, input);
  return writeChange(ctx, f, current, await change(current), typeof action === 'string' ? action : action(current));
}

/**
 * A deactivation: the record under its lock at the caller's revision; one already inactive is 409
 * `conflict` at /id; then the family's rules (`deactivate` answers what to write, or throws).
 */
export async function deactivateRecord<Row extends { id: string; revision: number }, View, Set extends object>(
  ctx: ServiceContext,
  f: SetupFamily<Row, View, Set>,
  input: RecordChange,
  deactivate: (current: Row) => Set | Promise<Set>,
): Promise<View> {
  const current = await lockedRecord(ctx, f, input);
  const why = f.inactive(ctx, current);
  if (why) throw conflict('/id', why, `The ${f.what} ${why}`);
  return writeChange(ctx, f, current, await deactivate(current), 'deactivate');
}
