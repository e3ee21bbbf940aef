import { AppError } from '../../lib/errors';
import type { Permission } from '../../services/access/permissions';
import { hasPermission, type Principal } from '../../services/access/principal';
import { middleware } from '../trpc';

/** 403 `forbidden` unless the principal holds the permission. */
export function assertPermission(principal: Principal | undefined, permission: Permission): void {
  if (!principal || !hasPermission(principal, permission)) {
    throw new AppError('forbidden', { detail: `This operation needs the permission ${permission}` });
  }
}

export function requirePermission(permission: Permission) {
  return middleware(async ({ ctx, next }) => {
    assertPermission((ctx as { principal?: Principal }).principal, permission);
    return next();
  });
}
