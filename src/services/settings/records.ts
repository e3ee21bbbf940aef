import { isUniqueViolation } from '../../db/errors';
import { isCurrency } from '../../lib/code-lists';
import { AppError } from '../../lib/errors';
import { maxLength, notBlank, type Refusals } from '../../lib/refusals';
import { DEFAULT_PAGE_LIMIT, type PageInput } from './page';

/**
 * Small pieces every set-up service repeats: the same 404 for absent and foreign records, the same
 * 409 for a code in use, visible text checked and trimmed, page sizes. Rules stay in each service.
 */

/** Absent, or of another organization: the same answer. */
export function notFound(what: string): AppError {
  return new AppError('not_found', { detail: `No such ${what} in this organization` });
}

/** 409 `conflict` naming the field whose value clashes with the current state. */
export function conflict(pointer: string, detail: string, message?: string): AppError {
  return new AppError('conflict', { detail: message ?? detail, errors: [{ pointer, detail }] });
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

/** Runs an insert or update; a unique violation of `constraint` becomes 409 `conflict` at `pointer`. */
export async function uniqueOrConflict<T>(write: Promise<T>, constraint: string, pointer: string, message: string): Promise<T> {
  try {
    return await write;
  } catch (e) {
    // One answer for a value in use, whether found by an earlier request or raced by a concurrent one.
    if (isUniqueViolation(e, constraint)) throw conflict(pointer, 'is already in use', message);
    throw e;
  }
}

/** The row a write returned; none means the database broke its promise. */
export function written<T>(row: T | undefined): T {
  if (!row) throw new AppError('internal');
  return row;
}

export function pageLimit(input: PageInput): number {
  return input.limit ?? DEFAULT_PAGE_LIMIT;
}

/** Timestamps in answers: ISO 8601 UTC, null stays null. */
export function isoOrNull(value: Date | null): string | null {
  return value ? value.toISOString() : null;
}
