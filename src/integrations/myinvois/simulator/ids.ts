/**
 * Identifiers the simulator hands out: 26-character Latin alphanumeric UUIDs and submission UIDs
 * (as LHDN's), the longer `longId` of a valid document, and JWT-shaped access tokens.
 */
import { createHmac, randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function randomString(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[bytes[i]! % ALPHABET.length];
  return out;
}

/** A 26-character uppercase alphanumeric id (document UUID or submission UID). */
export function newUid(): string {
  return randomString(26);
}

/** The `longId` LHDN returns for a valid document, used in the validation link. */
export function newLongId(): string {
  return randomString(40);
}

function base64url(value: string | Buffer): string {
  return Buffer.from(value).toString('base64url');
}

/** A JWT-shaped bearer token (HS256 over a per-simulator secret); the simulator looks tokens up by value. */
export function signToken(secret: string, claims: Record<string, unknown>): string {
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = base64url(JSON.stringify(claims));
  const signature = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}

export function newSecret(): string {
  return randomBytes(32).toString('hex');
}
