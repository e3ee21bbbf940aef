import type { z } from 'zod';
import { AppError, type FieldError } from './errors';

function escapePointerToken(t: PropertyKey): string {
  return String(t).replace(/~/g, '~0').replace(/\//g, '~1');
}

export type InputLocation = (name: string) => 'body' | 'query' | 'path';

/**
 * A length, range or blank check is a rule (422 validation); a wrong type, format, enum value or an
 * unknown field means the request is not of the endpoint's shape (400). Schemas mark other rules
 * with `params: { rule: true }` on a refinement.
 */
function isRuleIssue(issue: z.core.$ZodIssue): boolean {
  if (issue.code === 'too_big' || issue.code === 'too_small') return true;
  if (issue.code === 'custom') return (issue.params as { rule?: boolean } | undefined)?.rule === true;
  return false;
}

export function pointerFor(path: readonly PropertyKey[], locate: InputLocation): string {
  const [first, ...rest] = path;
  if (first === undefined) return '';
  const where = locate(String(first));
  const prefix = where === 'body' ? '' : `/${where}`;
  return `${prefix}/${[first, ...rest].map(escapePointerToken).join('/')}`;
}

/** What the request carried at an issue's path (`undefined` when nothing was sent there). */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const token of path) {
    if (value === null || typeof value !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(value, token)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[token];
  }
  return value;
}

/**
 * zod 4 leaves `input` off its issues unless parsing asked for it (tRPC does not), so the value is
 * looked up in the raw input: nothing there is a missing field, anything else is of the wrong type.
 */
function describe(issue: z.core.$ZodIssue, rawInput: unknown): string {
  if (issue.code === 'invalid_type') {
    const received = 'input' in issue ? issue.input : valueAt(rawInput, issue.path);
    if (received === undefined) return 'is required';
    const expected = issue.expected === 'object' ? 'a JSON object' : `of type ${issue.expected}`;
    return received === null ? `must be ${expected}, not null` : `must be ${expected}`;
  }
  return issue.message;
}

/**
 * Turns a zod failure of the input into a 400 `invalid_request` or a 422 `validation`. `rawInput` is
 * the input as received (body merged with path and query parameters), to tell missing from wrong.
 */
export function inputError(error: z.ZodError, locate: InputLocation, rawInput?: unknown): AppError {
  const fieldErrors: FieldError[] = [];
  let shapeError = false;
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      shapeError = true;
      for (const key of issue.keys) {
        fieldErrors.push({ pointer: pointerFor([...issue.path, key], locate), detail: 'is not a field this operation accepts' });
      }
      continue;
    }
    if (!isRuleIssue(issue)) shapeError = true;
    fieldErrors.push({ pointer: pointerFor(issue.path, locate), detail: describe(issue, rawInput) });
  }
  const detail = fieldErrors
    .map((e) => `${e.pointer ? e.pointer.replace(/^\//, '').replace(/\//g, '.') : 'body'} ${e.detail}`)
    .join('; ');
  return new AppError(shapeError ? 'invalid_request' : 'validation', { detail, errors: fieldErrors });
}
