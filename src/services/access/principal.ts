/** Who is calling, narrowed once by the authentication middleware. */
export interface Principal {
  organizationId: string;
  memberId: string;
  via: 'api_key' | 'session';
  /** The API key's or the session's id: the scope of idempotency keys and per-key limits. */
  credentialId: string;
  permissions: ReadonlySet<string>;
}

export function hasPermission(p: Principal, permission: string): boolean {
  return p.permissions.has(permission);
}
