import { describe, expect, it } from 'vitest';
import { canonicalJson, parseIdempotencyKey, requestFingerprint } from '../../src/services/idempotency/idempotency';

describe('Idempotency-Key header', () => {
  it('accepts bare values and RFC 8941 strings, trimming surrounding whitespace', () => {
    expect(parseIdempotencyKey('order-42')).toBe('order-42');
    expect(parseIdempotencyKey('  order-42 ')).toBe('order-42');
    expect(parseIdempotencyKey('"order-42"')).toBe('order-42');
    expect(parseIdempotencyKey('"a \\"quoted\\" \\\\ key"')).toBe('a "quoted" \\ key');
    // Not a valid sf-string (a bare backslash escape): taken as a bare value.
    expect(parseIdempotencyKey('"a\\b"')).toBe('"a\\b"');
  });
  it('treats missing and empty as no key', () => {
    expect(parseIdempotencyKey(undefined)).toBeUndefined();
    expect(parseIdempotencyKey('')).toBeUndefined();
    expect(parseIdempotencyKey('""')).toBeUndefined();
    expect(parseIdempotencyKey('   ')).toBeUndefined();
  });
  it('refuses more than 255 characters with idempotency_key_required at /headers/idempotency-key', () => {
    expect(parseIdempotencyKey('k'.repeat(255))).toHaveLength(255);
    let err: any;
    try {
      parseIdempotencyKey('k'.repeat(256));
    } catch (e) {
      err = e;
    }
    expect(err.appCode).toBe('idempotency_key_required');
    expect(err.status).toBe(422);
    expect(err.fieldErrors).toEqual([{ pointer: '/headers/idempotency-key', detail: expect.any(String) }]);
  });
});

describe('request fingerprint', () => {
  it('canonical JSON sorts keys at every depth, keeps array order, drops undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[2,{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson('x')).toBe('"x"');
    expect(canonicalJson(null)).toBe('null');
  });
  it('depends on method, route and input, not on key order', () => {
    const base = { method: 'POST', route: 'receivables.invoices.create', input: { a: 1, b: [1, 2] } };
    const fp = requestFingerprint(base);
    expect(fp).toMatch(/^[0-9a-f]{64}$/);
    expect(requestFingerprint({ ...base, input: { b: [1, 2], a: 1 } })).toBe(fp);
    expect(requestFingerprint({ ...base, input: { a: 1, b: [2, 1] } })).not.toBe(fp);
    expect(requestFingerprint({ ...base, route: 'expenses.claims.create' })).not.toBe(fp);
    expect(requestFingerprint({ ...base, method: 'PUT' })).not.toBe(fp);
    // Path parameters travel in the input (the REST adapter merges them).
    expect(requestFingerprint({ ...base, input: { ...base.input, id: 'x' } })).not.toBe(fp);
  });
});
