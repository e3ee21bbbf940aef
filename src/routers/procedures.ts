import type { Permission } from '../services/access/permissions';
import { authenticated } from './middleware/authenticate';
import { requirePermission } from './middleware/require-permission';
import { writeTransaction } from './middleware/write-transaction';
import { publicProcedure } from './trpc';

/**
 * The pipeline every operation goes through, in order:
 * authenticate → rate limit → permission → (writes) idempotency + transaction → handler.
 */
export const authedProcedure = publicProcedure.use(authenticated);

export function readProcedure(permission: Permission) {
  return authedProcedure.use(requirePermission(permission));
}

export function writeProcedure(permission: Permission) {
  return authedProcedure.use(requirePermission(permission)).use(writeTransaction);
}
