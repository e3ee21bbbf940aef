import { z } from 'zod';
import { expectedRevision, setEtag } from '../http';
import type { ResponseOut } from '../context';
import { isoDate as boundedDate, pageInputShape, recordIdShape } from '../schemas';

/**
 * Building blocks of the settings.<entity>.* procedures (tRPC only, DESIGN section 15). Texts are
 * plain strings here: blank and over-long values are the services' rules (422 with a pointer), and
 * a wrong type or an unknown field stays a 400 of the strict schemas.
 */

/** A body boolean, piped so no adapter's coercion turns "false" into true (STACK-NOTES). */
export const bool = () => z.boolean().pipe(z.boolean());

/** A list's input: `include_inactive` (default false) where records can be inactive, `limit`, `cursor`. */
export function listInput<S extends z.ZodRawShape>(extra: S) {
  return z.strictObject({ include_inactive: bool().optional(), ...pageInputShape, ...extra });
}

/** `{ id }` of the record to deactivate; If-Match carries its revision. */
export const deactivateInput = z.strictObject(recordIdShape);

/** The revision an update or deactivation expects (If-Match: missing 428, malformed 400), passed to the service. */
export function withRevision<T extends object>(ctx: { ifMatch?: string }, input: T): T & { expected_revision: number } {
  return { ...input, expected_revision: expectedRevision(ctx) };
}

/** Answers the record with its revision as ETag. */
export function answered<T extends { revision: number }>(ctx: { out: ResponseOut }, record: T): T {
  setEtag(ctx, record.revision);
  return record;
}

/** A date YYYY-MM-DD from DATE_MIN to DATE_MAX (malformed or outside: 400). */
export const isoDate = () => boundedDate({ message: 'must be a date YYYY-MM-DD' });
