/** The permission vocabulary lives in src/domain/permissions.ts; re-exported for existing imports. */
export { BUILT_IN_ROLES, BUILT_IN_ROLE_KEYS, isPermission, PERMISSIONS, type BuiltInRole, type Permission } from '../../domain/permissions';
