import { AppError } from '../lib/errors';

/**
 * Optimistic locking: the revision a caller sent (If-Match) against the record's current one, read
 * under the record's lock. Stale is 409 `revision_mismatch` (the contract's choice; RFC 9110 would say 412).
 */
export function checkRevision(current: number, expected: number): void {
  if (current !== expected) {
    throw new AppError('revision_mismatch', {
      detail: `The record is at revision ${current}, not ${expected}; read it again and re-apply your change`,
      errors: [{ pointer: '/headers/if-match', detail: `is stale (current revision is ${current})` }],
    });
  }
}
