/** Who is calling, narrowed once by the authentication middleware. */
export interface Principal {
  organizationId: string;
  memberId: string;
  /** A person's session, an integration's API key, or the system (CLI, demo, jobs). */
  via: 'api_key' | 'session' | 'system';
  /** The API key's or the session's id: the scope of idempotency keys and per-key limits. */
  credentialId: string;
  permissions: ReadonlySet<string>;
}

export function hasPermission(p: Principal, permission: string): boolean {
  return p.permissions.has(permission);
}

/** People's decisions (docs/design.md §5) need a session; the system acts for people in the CLI and demo. */
export function isPerson(p: Principal): boolean {
  return p.via === 'session' || p.via === 'system';
}
