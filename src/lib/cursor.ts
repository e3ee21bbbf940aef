import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from './canonical-json';
import { AppError } from './errors';

/**
 * Opaque keyset cursors: base64url(JSON payload) "." base64url(HMAC-SHA256). The payload carries the
 * last row's (sort value, id) and a digest of the sort, order and filters that issued it, so a cursor
 * can neither be forged nor replayed against a different query.
 */

export interface CursorBinding {
  sort: string;
  order: 'asc' | 'desc';
  /** Every filter of the query, canonicalised by the caller (undefined members are dropped). */
  filters: Record<string, unknown>;
}

export interface CursorPosition {
  /** The sort key value of the last row of the page (string form; null sorts last). */
  value: string | null;
  id: string;
}

interface Payload {
  v: 1;
  b: string;
  k: [string | null, string];
}

/** Digests of recent bindings (a query's sort, order and filters repeat from page to page and caller to caller). */
const digests = new Map<string, string>();
const DIGESTS_KEPT = 1_000;

function bindingDigest(binding: CursorBinding): string {
  const text = canonicalJson(binding);
  let digest = digests.get(text);
  if (digest === undefined) {
    digest = createHmac('sha256', 'cursor-binding').update(text).digest('base64url').slice(0, 22);
    if (digests.size >= DIGESTS_KEPT) digests.clear();
    digests.set(text, digest);
  }
  return digest;
}

function sign(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('base64url');
}

export function encodeCursor(secret: string, binding: CursorBinding, position: CursorPosition): string {
  const payload: Payload = { v: 1, b: bindingDigest(binding), k: [position.value, position.id] };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${sign(secret, body)}`;
}

/** 400 for a cursor that does not decode or verify (or carries a position no query could have issued). */
export const invalidCursor = () =>
  new AppError('invalid_request', {
    detail: 'cursor is not a cursor this service issued (pass next_cursor back unchanged)',
    errors: [{ pointer: '/query/cursor', detail: 'does not decode or verify' }],
  });

/** Verifies and opens a cursor: 400 when it does not decode or verify, 422 when issued for another query. */
export function decodeCursor(secret: string, cursor: string, binding: CursorBinding): CursorPosition {
  const [body, mac, extra] = cursor.split('.');
  if (!body || !mac || extra !== undefined) throw invalidCursor();
  const expected = Buffer.from(sign(secret, body));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalidCursor();
  let payload: Payload;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload;
  } catch {
    throw invalidCursor();
  }
  if (payload?.v !== 1 || !Array.isArray(payload.k) || typeof payload.k[1] !== 'string') throw invalidCursor();
  if (payload.b !== bindingDigest(binding)) {
    throw new AppError('validation', {
      detail: 'cursor was issued for a different sort, order or filters; start again without a cursor',
      errors: [{ pointer: '/query/cursor', detail: 'was issued for a different sort, order or filters' }],
    });
  }
  return { value: payload.k[0], id: payload.k[1] };
}
