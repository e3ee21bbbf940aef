import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/lib/canonical-json';
import { decodeCursor, encodeCursor, type CursorBinding } from '../../src/lib/cursor';
import { requestFingerprint } from '../../src/services/idempotency/idempotency';

/**
 * Stored idempotency fingerprints and cursors that clients hold were made with the canonical JSON
 * of each; these values were computed before the two copies became one (lib/canonical-json.ts) and
 * must never change.
 */
const SECRET = 'test-cursor-secret-0123456789';
const binding: CursorBinding = {
  sort: 'invoice_date',
  order: 'asc',
  filters: { kind: 'sales_invoice', group: undefined, outstanding: true, q: 'kedai "maju" é', invoiceDateFrom: '2026-01-01', projectId: undefined },
};
const PINNED_CURSOR =
  'eyJ2IjoxLCJiIjoid2VCRzZ5aElXeEpGZ2RXSzNheV9faiIsImsiOlsiMjAyNi0wMS0wNSIsIjAxOTBhMGIwLTAwMDAtNzAwMC04MDAwLTAwMDAwMDAwMDAwMSJdfQ.9n3yfAEFq8E5yFpc1AqH0sfbSEE-B9C7FcQ62iYGNbs';
const PINNED_EMPTY_CURSOR =
  'eyJ2IjoxLCJiIjoiUVpYM25Db1dmRE8xSXJoSUdfX29XRiIsImsiOltudWxsLCIwMTkwYTBiMC0wMDAwLTcwMDAtODAwMC0wMDAwMDAwMDAwMDIiXX0.CaRr2yQtIFcXt5CmVA6L3q1qwt45m0Haludgi0tc5M8';

describe('canonical JSON: one function for fingerprints and cursors, outputs unchanged', () => {
  it('sorts keys at every depth, keeps array order, drops undefined members, writes undefined elements as null', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[2,{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson([1, undefined, 'x'])).toBe('[1,null,"x"]');
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson({ 'é': '"q"', A: false })).toBe('{"A":false,"é":"\\"q\\""}');
  });

  it('a cursor issued before the change still decodes, and the same page issues the same cursor', () => {
    const position = { value: '2026-01-05', id: '0190a0b0-0000-7000-8000-000000000001' };
    expect(encodeCursor(SECRET, binding, position)).toBe(PINNED_CURSOR);
    // Key order of the filters does not matter.
    const reordered: CursorBinding = { order: 'asc', filters: { invoiceDateFrom: '2026-01-01', q: 'kedai "maju" é', outstanding: true, kind: 'sales_invoice' }, sort: 'invoice_date' };
    expect(decodeCursor(SECRET, PINNED_CURSOR, reordered)).toEqual(position);
    const empty = { sort: 'created_at', order: 'desc', filters: {} } as const;
    expect(encodeCursor(SECRET, empty, { value: null, id: '0190a0b0-0000-7000-8000-000000000002' })).toBe(PINNED_EMPTY_CURSOR);
  });

  it('a stored fingerprint still matches its request', () => {
    const input = {
      lines: [{ unit_price: '10.00', quantity: '1', description: 'Jasa "A"', shares: [] }],
      kind: 'sales_invoice',
      customer_id: 'c1',
      payment_terms_days: 30,
      fx_rate: undefined,
      custom_fields: { b: '2', a: '1' },
    };
    expect(requestFingerprint({ method: 'post', route: 'receivables.invoices.create', input })).toBe(
      'a77e708611bf93cedee2c2356a1c6bed2628ce6898fbcfc5a123c998d92ad632',
    );
    expect(requestFingerprint({ method: 'POST', route: 'documents.upload', input: undefined })).toBe(
      '7dfb62e06accb9dcdea9ab07bdf6e7e034b67cee02b9e92a8153e4f555566af9',
    );
  });
});
