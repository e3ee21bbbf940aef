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
