import { SIGNATURE_VIAS } from '../domain/approvals';
import { GAP_REASONS, GATES, REFUSAL_CODES } from '../domain/workflow';
import { z } from 'zod';
import { decimalString } from '../lib/decimal-string';

/** Shared building blocks of input and output schemas. */

/**
 * A UUID, in its canonical lower-case form on entry: ids are stored and compared in lower case, so an
 * id sent in upper case finds the same record everywhere.
 */
export const uuid = () => z.guid({ message: 'must be a UUID' }).toLowerCase();

/**
 * The days the service takes (a business choice inside what PostgreSQL's date holds): from
 * 1900-01-01, before any record a business keeps, to 9999-12-31, the last day of a four-digit year.
 * A day outside is 400 naming the field, as a malformed date is.
 */
export const DATE_MIN = '1900-01-01';
export const DATE_MAX = '9999-12-31';

/** A calendar day, `YYYY-MM-DD`, between DATE_MIN and DATE_MAX. */
export const isoDate = (params?: { message: string }) =>
  z.iso
    .date(params)
    .refine((v) => !/^\d{4}-\d{2}-\d{2}$/.test(v) || (v >= DATE_MIN && v <= DATE_MAX), { message: `must be a day from ${DATE_MIN} to ${DATE_MAX}` });

/** Path parameter `{id}`. */
export const idInput = z.strictObject({ id: uuid().describe('The record id') });

export const addressSchema = z
  .object({
    line1: z.string().optional(),
    line2: z.string().optional(),
    city: z.string().optional(),
    postcode: z.string().optional(),
    state: z.string().optional(),
  })
  .meta({ id: 'Address' });

export const customFieldsSchema = z.record(z.string(), z.string());

/** A decimal rate, quantity or percentage on output: plain decimal, no trailing zeros. */
export const rateOut = () => z.string().regex(/^-?\d+(\.\d+)?$/);
/** An amount on output: exactly the currency's minor units. */
export const amountOut = () => z.string().regex(/^-?\d+(\.\d+)?$/);

const labelsSchema = z
  .object({ en: z.string().max(200), ms: z.string().max(200).optional(), zh: z.string().max(200).optional() })
  .describe('Locale to text; en always present');

export const gapSchema = z
  .object({
    grant_id: uuid(),
    reason: z.enum(GAP_REASONS),
    analytic_account_id: uuid().optional(),
    axis_id: uuid().optional(),
    member_id: uuid().optional(),
    position_id: uuid().optional(),
  })
  .meta({ id: 'Gap' });

/** Contract 2.5: every exit of the current state, with whether this caller may take it. */
export const transitionDescriptorSchema = z
  .object({
    action_key: z.string(),
    to: z.string(),
    gate: z.enum(GATES),
    allowed: z.boolean(),
    labels: labelsSchema,
    requires_reason: z.boolean(),
    sole_owner_exception: z.boolean().optional(),
    refusal: z
      .object({
        code: z.enum(REFUSAL_CODES),
        detail: z.string(),
      })
      .optional(),
    gaps: z.array(gapSchema).optional(),
    signs: z
      .array(
        z.object({
          account_code: z.string(),
          account_name: z.string(),
          amount: amountOut(),
          analytic_account_id: uuid(),
          axis_id: uuid(),
          authority_member_id: uuid().describe('Whose authority the share is signed on: yours, or the member who delegated it to you'),
          via: z.enum(SIGNATURE_VIAS).describe('delegation: you act for authority_member_id'),
        }),
      )
      .optional(),
  })
  .meta({ id: 'TransitionDescriptor' });

/** Keyset page input of set-up lists: `limit` (1 to 100) and the previous page's `next_cursor`. */
export const pageInputShape = {
  // A pipe keeps trpc-to-openapi's coercion away (STACK-NOTES: the coercion trap).
  limit: z.int().pipe(z.int().min(1, { message: 'must be at least 1' }).max(100, { message: 'must be at most 100' })).optional(),
  cursor: z.string().min(1).max(1000).optional(),
};

/** A page of a set-up list: `{ items, next_cursor }`. */
export function pageOutput<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), next_cursor: z.string().nullable() });
}

/** Every procedure on one existing record takes its id; changes send If-Match as a header. */
export const recordIdShape = { id: uuid() };

// Set-up inputs ---------------------------------------------------------------------------------
// Shape faults (wrong type, malformed date or decimal, unknown field) are 400; blanks and lengths
// the services weigh are 422.

/** Visible text of at most `max` characters (whitespace-only is refused by the service). */
export const text = (max: number) =>
  z.string().min(1, { message: 'must not be blank' }).max(max, { message: `must be at most ${max} characters` });

/** A JSON boolean; the pipe keeps trpc-to-openapi's coercion away (STACK-NOTES: the coercion trap). */
export const flag = () => z.boolean().pipe(z.boolean());

/** A day (YYYY-MM-DD) within the years the service accepts (isoDate: 1900 to 9999). */
export const day = () => isoDate({ message: 'must be a date (YYYY-MM-DD)' });

/** A date YYYY-MM-DD from DATE_MIN to DATE_MAX (malformed or outside: 400). */
export const isoDateInput = () => isoDate({ message: 'must be a date YYYY-MM-DD' });

/** A decimal string (`-?digits[.digits]`); places and ranges are the service's rules (422). */
export const decimalInput = () => decimalString().max(40, { message: 'must be at most 40 characters' });

export const currencyCode = () => z.string().regex(/^[A-Z]{3}$/, { message: 'must be an ISO 4217 code (three capital letters)' });

/** A set-up list's input: `include_inactive` (retired, ended, deactivated too) and the page. */
export const listInputShape = { include_inactive: flag().optional(), ...pageInputShape };

/** A list's input with its own filters. */
export function listInput<S extends z.ZodRawShape>(extra: S) {
  return z.strictObject({ ...listInputShape, ...extra });
}

/** `{ id }` of the record to deactivate; If-Match carries its revision. */
export const deactivateInput = z.strictObject(recordIdShape);

/** A timestamp on output. */
export const timestamp = () => z.iso.datetime({ offset: true });
