import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** One-shot digest (crypto.hash: no Hash object per call; every supported Node has it). */
export function sha256Hex(value: string | Buffer): string {
  return hash('sha256', value, 'hex');
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Constant-time comparison of two hex digests. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
