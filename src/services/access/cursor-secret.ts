import { randomBytes } from 'node:crypto';
import type { Database } from '../../db/client';
import { sharedSecret } from '../../db/queries/server-secrets';

const stored = new WeakMap<Database, Promise<string>>();

/**
 * The key that signs list cursors: CURSOR_SECRET when configured; otherwise one random secret
 * stored in the database on first use, so every process on the same database accepts the cursors
 * of the others and cursors survive restarts. Read once per database handle.
 */
export function cursorSecret(db: Database, configured: string | undefined): Promise<string> {
  if (configured) return Promise.resolve(configured);
  let secret = stored.get(db);
  if (!secret) {
    secret = sharedSecret(db, 'cursor', () => randomBytes(32).toString('base64url'));
    secret.catch(() => stored.delete(db));
    stored.set(db, secret);
  }
  return secret;
}
