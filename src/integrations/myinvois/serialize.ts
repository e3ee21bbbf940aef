/**
 * The one serialisation of a MyInvois document: minified JSON (JSON.stringify, keys in the order the
 * builder wrote them, no whitespace), UTF-8. These bytes are stored, base64-encoded into the submission
 * and hashed for its `documentHash` (hex SHA-256 of exactly these bytes). Never re-serialise a stored
 * document: parse-and-stringify may change number spelling or key order and break hash and signature.
 */
import { createHash } from 'node:crypto';

/** Minified JSON of the document; refuses what JSON cannot carry faithfully (NaN, Infinity, undefined members). */
export function serializeDocument(document: unknown): string {
  assertSerialisable(document, '');
  return JSON.stringify(document);
}

function assertSerialisable(value: unknown, path: string): void {
  if (typeof value === 'number' && !Number.isFinite(value)) throw new Error(`${path || '/'}: ${value} is not a JSON number`);
  if (value === undefined || typeof value === 'function' || typeof value === 'bigint' || typeof value === 'symbol') {
    throw new Error(`${path || '/'}: ${typeof value} is not JSON`);
  }
  if (Array.isArray(value)) value.forEach((v, i) => assertSerialisable(v, `${path}/${i}`));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) assertSerialisable(v, `${path}/${k}`);
  }
}

/** The UTF-8 bytes of a serialised document. */
export function documentBytes(serialised: string): Buffer {
  return Buffer.from(serialised, 'utf8');
}

/** LHDN's `documentHash`: hex SHA-256 over the exact bytes submitted. */
export function documentHash(serialised: string | Buffer): string {
  return createHash('sha256').update(typeof serialised === 'string' ? documentBytes(serialised) : serialised).digest('hex');
}

/** The submission's `document` field: base64 of the exact bytes. */
export function documentBase64(serialised: string | Buffer): string {
  return (typeof serialised === 'string' ? documentBytes(serialised) : serialised).toString('base64');
}

/** Everything a submission needs from one serialisation. */
export function serialiseForSubmission(document: unknown): { json: string; documentHash: string; document: string } {
  const json = serializeDocument(document);
  return { json, documentHash: documentHash(json), document: documentBase64(json) };
}
