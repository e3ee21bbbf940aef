/**
 * Recognises a unique violation (SQLSTATE 23505) of a named constraint, whichever driver raised
 * it: postgres.js names it in `constraint_name`, PGlite in `constraint`; drizzle wraps either in a
 * DrizzleQueryError whose `cause` is the driver's error, so the cause chain is followed.
 */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const fields = e as { code?: unknown; constraint?: unknown; constraint_name?: unknown };
    if (fields.code === '23505') return (fields.constraint_name ?? fields.constraint) === constraint;
  }
  return false;
}

/** SQLSTATEs and driver codes that mean the connection itself is gone (the server ended it, or the socket closed). */
const LOST_CONNECTION_CODES = new Set(['57P01', '57P02', '57P03', 'CONNECTION_CLOSED', 'CONNECTION_DESTROYED', 'CONNECTION_ENDED', 'ECONNRESET', 'EPIPE']);

/**
 * Recognises a database connection that was lost (administrator or crash shutdown of its backend,
 * SQLSTATE class 08, a closed socket), following the cause chain as isUniqueViolation does.
 */
export function isLostConnection(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (LOST_CONNECTION_CODES.has(code) || code.startsWith('08'))) return true;
  }
  return false;
}
