/** One serialisation: minified, deterministic, and the hex SHA-256 `documentHash` over exactly its bytes. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildDocument } from '../../src/integrations/myinvois/document';
import { documentBase64, documentHash, serialiseForSubmission, serializeDocument } from '../../src/integrations/myinvois/serialize';
import { invoiceInput } from './fixtures';

describe('serializeDocument', () => {
  const doc = buildDocument(invoiceInput());
  const json = serializeDocument(doc);

  it('is minified JSON in the builder key order, amounts as JSON numbers', () => {
    expect(json).not.toMatch(/\n|": |, "/);
    expect(json.startsWith('{"_D":"urn:oasis:names:specification:ubl:schema:xsd:Invoice-2","_A":')).toBe(true);
    expect(json).toContain('"InvoiceTypeCode":[{"_":"01","listVersionID":"1.0"}],"DocumentCurrencyCode":[{"_":"MYR"}]');
    expect(json).toContain('"PayableAmount":[{"_":216,"currencyID":"MYR"}]');
    expect(JSON.parse(json)).toEqual(doc);
  });

  it('gives the same bytes for the same input', () => {
    expect(serializeDocument(buildDocument(invoiceInput()))).toBe(json);
  });

  it('documentHash is hex SHA-256 of the exact UTF-8 bytes, base64 carries the same bytes', () => {
    const withAccent = serializeDocument(buildDocument(invoiceInput({ number: 'INV-Café-1' })));
    const bytes = Buffer.from(withAccent, 'utf8');
    expect(documentHash(withAccent)).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(documentHash(withAccent)).toMatch(/^[0-9a-f]{64}$/);
    expect(Buffer.from(documentBase64(withAccent), 'base64').equals(bytes)).toBe(true);
    const sub = serialiseForSubmission(buildDocument(invoiceInput({ number: 'INV-Café-1' })));
    expect(sub).toEqual({ json: withAccent, documentHash: documentHash(bytes), document: bytes.toString('base64') });
  });

  it('a re-indented copy of the same document has another hash: the stored bytes are what counts', () => {
    expect(documentHash(JSON.stringify(doc, null, 2))).not.toBe(documentHash(json));
  });

  it('refuses values JSON cannot carry', () => {
    expect(() => serializeDocument({ a: [{ _: Number.NaN }] })).toThrow(/a\/0\/_/);
    expect(() => serializeDocument({ a: undefined })).toThrow(/undefined/);
  });
});
