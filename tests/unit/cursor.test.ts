import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../src/lib/cursor';
import { AppError } from '../../src/lib/errors';

const secret = 'unit-test-secret-0123456789';
const binding = { sort: 'created_at', order: 'desc' as const, filters: { kind: 'sales_invoice', q: undefined } };
const position = { value: '2026-11-21T04:00:00.000Z', id: '9b2f6f3e-2c55-4d40-9a55-0d9c1f1b2a11' };

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    return e as AppError;
  }
  throw new Error('expected a refusal');
}

describe('cursor', () => {
  it('round-trips a position for the same query, whatever the order of the filter keys', () => {
    const c = encodeCursor(secret, binding, position);
    expect(c).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(decodeCursor(secret, c, { ...binding, filters: { q: undefined, kind: 'sales_invoice' } })).toEqual(position);
  });

  it('a cursor sent with a different sort, order or filters is 422 validation at /query/cursor', () => {
    const c = encodeCursor(secret, binding, position);
    for (const other of [{ ...binding, sort: 'due_on' }, { ...binding, order: 'asc' as const }, { ...binding, filters: { kind: 'customer_credit_note' } }]) {
      const e = refusal(() => decodeCursor(secret, c, other));
      expect(e.appCode).toBe('validation');
      expect(e.fieldErrors?.[0]?.pointer).toBe('/query/cursor');
    }
  });

  it('a tampered, truncated, foreign-secret or garbage cursor is 400', () => {
    const c = encodeCursor(secret, binding, position);
    const [body, mac] = c.split('.') as [string, string];
    const forgedBody = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), k: ['2000-01-01', position.id] })).toString('base64url');
    for (const bad of [`${forgedBody}.${mac}`, c.slice(0, -2), encodeCursor('another-secret-0123456789', binding, position), 'garbage', '', `${c}.x`]) {
      expect(refusal(() => decodeCursor(secret, bad, binding)).appCode).toBe('invalid_request');
    }
  });
});
