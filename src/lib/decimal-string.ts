import { z } from 'zod';

/**
 * The decimal-string shape on its own (no decimal.js, no code lists), so that input schemas the
 * console bundles stay free of server-only modules. src/lib/money.ts re-exports it.
 */

/** Accepted shape of decimal strings: optional minus, digits, optional fraction. No exponent, no "+", no ".5". */
export const DECIMAL_PATTERN = /^-?\d+(\.\d+)?$/;

export const DECIMAL_MESSAGE = 'must be a decimal string such as "12.50"';

/** zod schema for a decimal string (see DECIMAL_PATTERN). */
export function decimalString() {
  return z.string().regex(DECIMAL_PATTERN, DECIMAL_MESSAGE);
}
