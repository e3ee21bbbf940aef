import { AppError } from '../../lib/errors';
import type { Permission } from '../../services/access/permissions';
import { hasPermission, type Principal } from '../../services/access/principal';
import { middleware } from '../trpc';

export function requirePermission(permission: Permission) {
  return middleware(async ({ ctx, next }) => {
    const principal = (ctx as { principal?: Principal }).principal;
    if (!principal || !hasPermission(principal, permission)) {
      throw new AppError('forbidden', { detail: `This operation needs the permission ${permission}` });
    }
    return next();
  });
}
