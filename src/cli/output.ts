import { AppError, type FieldError } from '../lib/errors';

/**
 * What the admin CLI prints for an answer or a failure. A refusal (AppError) is printed as the API
 * would answer it; anything else without internals: no SQL, no stack, never a secret.
 */

export interface CliError {
  code: string;
  detail: string;
  errors?: FieldError[];
}

/** Where the command was when it failed: reading its arguments, reaching the database, or running. */
export type CliStage = 'arguments' | 'database' | 'command';

/** Whether an error, or anything it was caused by, carries SQL (a failed query names its statement). */
export function carriesSql(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    if ('query' in e || /failed query|\b(select|insert|update|delete|create|alter)\b .*\b(from|into|set|table)\b/i.test(String((e as Error).message))) return true;
  }
  return false;
}

/** What is printed for a failure: refusals as they are, everything else without internals. */
export function cliError(err: unknown, stage: CliStage): CliError {
  if (err instanceof AppError) {
    return { code: err.appCode, detail: err.detail ?? err.message, ...(err.fieldErrors?.length ? { errors: err.fieldErrors } : {}) };
  }
  if (stage === 'arguments') {
    const message = err instanceof Error ? err.message : String(err);
    const config = /^(Invalid configuration|PAYOUT_ENCRYPTION_KEY)/.test(message);
    return { code: config ? 'invalid_configuration' : 'invalid_request', detail: config ? message : `${message}; run with --help for the usage` };
  }
  if (stage === 'database') {
    // Reaching the database: the cause helps (refused, unknown database, the embedded one in use), SQL never.
    const message = err instanceof Error && !carriesSql(err) ? err.message : undefined;
    return { code: 'unavailable', detail: message ? `The database is not available: ${message}` : 'The database is not available' };
  }
  return { code: 'internal', detail: 'The command failed and nothing was changed; run it again, or check the database' };
}

export function formatHuman(result: unknown): string {
  if (result && typeof result === 'object' && !Array.isArray(result)) {
    return Object.entries(result)
      .map(([k, v]) => `${k}: ${typeof v === 'object' && v !== null ? JSON.stringify(v, null, 2) : String(v)}`)
      .join('\n');
  }
  return JSON.stringify(result, null, 2);
}

