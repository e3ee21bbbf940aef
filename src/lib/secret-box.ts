import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM for small values kept encrypted at rest (payout channel fields). The sealed form is
 * `v1.<iv>.<tag>.<ciphertext>` in base64url; the 12-byte IV is random per value, the 16-byte tag
 * authenticates it, and the organization id is bound as additional data so a value copied into
 * another organization's row does not open.
 */
export function seal(key: Buffer, plaintext: string, associatedData: string): string {
  assertKey(key);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(associatedData, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return ['v1', iv.toString('base64url'), tag.toString('base64url'), ciphertext.toString('base64url')].join('.');
}

export function open(key: Buffer, sealed: string, associatedData: string): string {
  assertKey(key);
  const [version, iv, tag, ciphertext] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('not a sealed value');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(associatedData, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}

function assertKey(key: Buffer) {
  if (key.length !== 32) throw new Error('an AES-256 key is 32 bytes');
}

/** Parses a 32-byte key written as 64 hex digits or as base64/base64url; undefined when malformed. */
export function parseKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) {
    const key = Buffer.from(trimmed, 'base64');
    return key.length === 32 ? key : undefined;
  }
  return undefined;
}

/** A development key derived from a label (the embedded database folder); never for production. */
export function derivedDevelopmentKey(label: string): Buffer {
  return createHash('sha256').update(`finance-api/payout-encryption/development/${label}`).digest();
}
