import { z } from 'zod';
import { decimalString } from '../../lib/money';
import type { ResponseOut } from '../context';
import { setEtag } from '../http';
import { isoDate, pageInputShape } from '../schemas';

/**
 * Input pieces the set-up procedures share. Shape faults (wrong type, malformed date or decimal,
 * unknown field) are 400; lengths and blanks are rules (422), the service trims and checks the rest.
 */

/** Visible text of at most `max` characters (whitespace-only is refused by the service). */
export const text = (max: number) =>
  z.string().min(1, { message: 'must not be blank' }).max(max, { message: `must be at most ${max} characters` });

/** A JSON boolean; the pipe keeps trpc-to-openapi's coercion away (STACK-NOTES: the coercion trap). */
export const flag = () => z.boolean().pipe(z.boolean());

/** A day (YYYY-MM-DD) within the years the service accepts (schemas.ts isoDate: 1900 to 9999). */
export const day = () => isoDate({ message: 'must be a date (YYYY-MM-DD)' });

/** A decimal string (`-?digits[.digits]`); places and ranges are the service's rules (422). */
export const decimalInput = () => decimalString().max(40, { message: 'must be at most 40 characters' });

export const currencyCode = () => z.string().regex(/^[A-Z]{3}$/, { message: 'must be an ISO 4217 code (three capital letters)' });

/** A set-up list's input: `include_inactive` (retired, ended, deactivated too) and the page. */
export const listInputShape = { include_inactive: flag().optional(), ...pageInputShape };

/** A timestamp on output. */
export const timestamp = () => z.iso.datetime({ offset: true });

/** The answer of a create: 201 with the record's revision as ETag. */
export function answerCreated(ctx: { out: ResponseOut }, revision: number): void {
  ctx.out.status = 201;
  setEtag(ctx, revision);
}

/** The answer of a change: the record's new revision as ETag. */
export function answerChanged(ctx: { out: ResponseOut }, revision: number): void {
  setEtag(ctx, revision);
}
