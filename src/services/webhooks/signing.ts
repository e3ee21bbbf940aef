/**
 * Standard Webhooks signing: a secret is `whsec_` and the base64 of 32 random bytes; a signature is
 * `v1,` and the base64 HMAC-SHA256, keyed with those bytes, of `{webhook-id}.{webhook-timestamp}.{body}`.
 * Several signatures (current and previous secret during a rotation) go space-separated in one header.
 */
import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

export function newSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

export function signature(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** The three Standard Webhooks headers of a message signed with every secret given. */
export function signedHeaders(secrets: string[], messageId: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((s) => signature(s, messageId, timestampSeconds, body)).join(' '),
  };
}
