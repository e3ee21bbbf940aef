import { describe, expect, it } from 'vitest';
import { isLostConnection, isUniqueViolation } from '../../src/db/errors';

/**
 * How the service reads a database error. A lost connection (its backend ended by the server, a
 * closed socket) is what the process survives without shutting down; a unique violation is what a
 * service turns into a conflict. Drizzle wraps the driver's error in `cause`: both are followed.
 */
const wrapped = (cause: unknown) => Object.assign(new Error('Failed query'), { cause });

describe('isLostConnection', () => {
  it.each([
    ['an administrator ending the backend (57P01)', { code: '57P01' }],
    ['a crash shutdown of the server (57P02)', { code: '57P02' }],
    ['a server that cannot connect now (57P03)', { code: '57P03' }],
    ['a connection exception (class 08)', { code: '08006' }],
    ["postgres.js's closed connection", { code: 'CONNECTION_CLOSED' }],
    ["postgres.js's destroyed connection", { code: 'CONNECTION_DESTROYED' }],
    ['a reset socket', { code: 'ECONNRESET' }],
  ])('recognises %s, also inside drizzle’s wrapper', (_name, error) => {
    expect(isLostConnection(Object.assign(new Error('x'), error))).toBe(true);
    expect(isLostConnection(wrapped(Object.assign(new Error('x'), error)))).toBe(true);
  });

  it.each([
    ['a unique violation', { code: '23505' }],
    ['a serialization failure', { code: '40001' }],
    ['a syntax error', { code: '42601' }],
    ['an error without a code', {}],
  ])('does not take %s for one', (_name, error) => {
    expect(isLostConnection(wrapped(Object.assign(new Error('x'), error)))).toBe(false);
  });

  it('answers false for values that are not errors', () => {
    for (const value of [undefined, null, 'CONNECTION_CLOSED', 42]) expect(isLostConnection(value)).toBe(false);
  });
});

describe('isUniqueViolation', () => {
  it('names the constraint from postgres.js (constraint_name) or PGlite (constraint), through the wrapper', () => {
    expect(isUniqueViolation(wrapped({ code: '23505', constraint_name: 'customers_code' }), 'customers_code')).toBe(true);
    expect(isUniqueViolation(wrapped({ code: '23505', constraint: 'customers_code' }), 'customers_code')).toBe(true);
    expect(isUniqueViolation(wrapped({ code: '23505', constraint: 'other' }), 'customers_code')).toBe(false);
    expect(isUniqueViolation(wrapped({ code: '23503', constraint: 'customers_code' }), 'customers_code')).toBe(false);
  });
});
