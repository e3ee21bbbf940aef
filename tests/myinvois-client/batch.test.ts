/**
 * batchDocuments: submissions within LHDN's limits (100 documents, 5 MB of request body, 300 KB per
 * document), in order, with a document over 300 KB set apart instead of sent.
 */
import { describe, expect, it } from 'vitest';
import { batchDocuments, envelopeBody, MAX_DOCUMENT_BYTES, MAX_SUBMISSION_BYTES } from '../../src/integrations/myinvois/client-batch';

const doc = (codeNumber: string, size: number) => ({ codeNumber, bytes: Buffer.alloc(size, 'a') });
const codes = (batch: { codeNumber: string }[]) => batch.map((d) => d.codeNumber);

describe('batchDocuments', () => {
  it('splits small documents into batches of 100, in order, keeping what the caller attached', () => {
    const docs = Array.from({ length: 250 }, (_, i) => ({ ...doc(`INV-${i}`, 1_000), row: i }));
    const { batches, tooLarge } = batchDocuments(docs);
    expect(batches.map((b) => b.length)).toEqual([100, 100, 50]);
    expect(batches.flat().map((d) => d.row)).toEqual(docs.map((_, i) => i));
    expect(tooLarge).toEqual([]);
  });

  it('sets a document over 300 KB apart; one of exactly 300 KB is sent', () => {
    const { batches, tooLarge } = batchDocuments([doc('A', 10), doc('BIG', MAX_DOCUMENT_BYTES + 1), doc('EDGE', MAX_DOCUMENT_BYTES)]);
    expect(batches.map(codes)).toEqual([['A', 'EDGE']]);
    expect(codes(tooLarge)).toEqual(['BIG']);
  });

  it('keeps each submission body within 5 MB, as the client serialises it', () => {
    // 290 KB each: base64 makes ~387 KB, so 13 fit in 5 MB and the 14th starts a new batch.
    const docs = Array.from({ length: 30 }, (_, i) => doc(`INV-${i}`, 290 * 1024));
    const { batches } = batchDocuments(docs);
    expect(batches.map((b) => b.length)).toEqual([13, 13, 4]);
    for (const batch of batches) expect(Buffer.byteLength(envelopeBody(batch))).toBeLessThanOrEqual(MAX_SUBMISSION_BYTES);
    const firstPlusOne = [...batches[0]!, batches[1]![0]!];
    expect(Buffer.byteLength(envelopeBody(firstPlusOne))).toBeGreaterThan(MAX_SUBMISSION_BYTES);
  });

  it('counts code numbers that JSON escapes', () => {
    const quote = 'Q"\\'.repeat(2_000);
    const docs = Array.from({ length: 14 }, (_, i) => doc(`${quote}${i}`, 290 * 1024));
    for (const batch of batchDocuments(docs).batches) expect(Buffer.byteLength(envelopeBody(batch))).toBeLessThanOrEqual(MAX_SUBMISSION_BYTES);
  });

  it('answers nothing for nothing', () => {
    expect(batchDocuments([])).toEqual({ batches: [], tooLarge: [] });
  });
});
