import type { Permission } from '../services/access/permissions';
import { authenticated } from './middleware/authenticate';
import { rateLimited } from './middleware/rate-limit';
import { requirePermission } from './middleware/require-permission';
import { writeTransaction } from './middleware/write-transaction';
import { publicProcedure } from './trpc';

/**
 * The pipeline every operation goes through, in order:
 * authenticate → rate limit → permission → (writes) idempotency + transaction → handler.
 */
export const authedProcedure = publicProcedure.use(authenticated).use(rateLimited);

export function readProcedure(permission: Permission) {
  return authedProcedure.use(requirePermission(permission));
}

/** A write: one transaction, made idempotent by the Idempotency-Key (required with an API key). */
export function writeProcedure(permission: Permission) {
  return authedProcedure.use(requirePermission(permission)).use(writeTransaction);
}
