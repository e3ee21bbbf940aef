/**
 * Splitting documents into submissions LHDN accepts (Submit Documents): at most 100 documents and
 * 5 MB of request body per submission, at most 300 KB per document. A document over 300 KB can
 * never be accepted, so it is answered apart (`tooLarge`) instead of being sent. The body size is
 * computed exactly as the client serialises the envelope, so a batch never trips the 5 MB check.
 */
import { documentBase64, documentHash } from './serialize';

export const MAX_DOCUMENTS_PER_SUBMISSION = 100;
export const MAX_SUBMISSION_BYTES = 5 * 1024 * 1024;
export const MAX_DOCUMENT_BYTES = 300 * 1024;

export interface DocumentToSubmit {
  /** The document's own number (LHDN's `codeNumber`, answered back as `invoiceCodeNumber`). */
  codeNumber: string;
  /** The document exactly as stored: the hash and the base64 are over these bytes. */
  bytes: Buffer;
}

export interface EnvelopeEntry {
  format: 'JSON';
  documentHash: string;
  codeNumber: string;
  document: string;
}

export function envelopeEntry(doc: DocumentToSubmit): EnvelopeEntry {
  return {
    format: 'JSON',
    documentHash: documentHash(doc.bytes),
    codeNumber: doc.codeNumber,
    document: documentBase64(doc.bytes),
  };
}

/** The serialised submission body: `{"documents":[…]}`. */
export function envelopeBody(docs: DocumentToSubmit[]): string {
  return JSON.stringify({ documents: docs.map(envelopeEntry) });
}

const ENVELOPE_OVERHEAD = Buffer.byteLength('{"documents":[]}');
const HASH_PLACEHOLDER = '0'.repeat(64);

/** Bytes one document adds to the body, without encoding it (base64 never needs JSON escaping). */
function entryBytes(doc: DocumentToSubmit): number {
  const shell = JSON.stringify({ format: 'JSON', documentHash: HASH_PLACEHOLDER, codeNumber: doc.codeNumber, document: '' });
  return Buffer.byteLength(shell) + 4 * Math.ceil(doc.bytes.length / 3);
}

export interface Batches<T> {
  /** In the given order; each within the count and body-size limits. */
  batches: T[][];
  /** Documents over 300 KB, never sent. */
  tooLarge: T[];
}

export function batchDocuments<T extends DocumentToSubmit>(docs: readonly T[]): Batches<T> {
  const batches: T[][] = [];
  const tooLarge: T[] = [];
  let current: T[] = [];
  let size = ENVELOPE_OVERHEAD;
  for (const doc of docs) {
    if (doc.bytes.length > MAX_DOCUMENT_BYTES) {
      tooLarge.push(doc);
      continue;
    }
    // A comma separates entries after the first.
    const added = entryBytes(doc) + (current.length > 0 ? 1 : 0);
    if (current.length > 0 && (current.length >= MAX_DOCUMENTS_PER_SUBMISSION || size + added > MAX_SUBMISSION_BYTES)) {
      batches.push(current);
      current = [];
      size = ENVELOPE_OVERHEAD;
    }
    size += entryBytes(doc) + (current.length > 0 ? 1 : 0);
    current.push(doc);
  }
  if (current.length > 0) batches.push(current);
  return { batches, tooLarge };
}
