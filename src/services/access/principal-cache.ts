import type { Database } from '../../db/client';
import type { Authenticated } from './authenticate';

/** What a process remembers of an API key it authenticated, and the auth epoch it was read under. */
export interface CachedPrincipal {
  authenticated: Authenticated;
  /** sha256 of the key's secret, hex: a token with another secret for the same key id never matches. */
  secretHash: string;
  expiresAt: Date | null;
  /** The organization's auth epoch read in the same statement as the key (auth_epochs). */
  epoch: number;
}

/**
 * API-key principals of one process, by key id, and session principals by `session:<token hash>`. An entry is only ever used together with a check of
 * its organization's epoch in the statement the request runs anyway (the rate-limit counters): a
 * revoked key, a deactivated owner or a changed role raises the epoch in the same transaction, so no
 * process uses a principal after the change committed. Bounded: the oldest entries go first.
 */
export class PrincipalCache {
  private readonly entries = new Map<string, CachedPrincipal>();

  constructor(private readonly maxEntries = 10_000) {}

  get(keyId: string): CachedPrincipal | undefined {
    return this.entries.get(keyId);
  }

  set(keyId: string, entry: CachedPrincipal): void {
    this.entries.delete(keyId);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(keyId, entry);
  }

  delete(keyId: string): void {
    this.entries.delete(keyId);
  }

  get size(): number {
    return this.entries.size;
  }
}

const caches = new WeakMap<Database, PrincipalCache>();

/** The cache of the process's database handle (one pool, one cache). */
export function principalCacheFor(db: Database): PrincipalCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new PrincipalCache()));
  return cache;
}
