/**
 * Sums of decimal strings without a floating point ("0.10" + "0.20" is "0.30", not 0.30000000000000004):
 * each is scaled to whole units of its finest fraction and added as a BigInt.
 */
const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

export function addDecimals(a: string, b: string): string {
  const x = DECIMAL.exec(a.trim());
  const y = DECIMAL.exec(b.trim());
  if (!x || !y) return a;
  const places = Math.max(x[3]?.length ?? 0, y[3]?.length ?? 0);
  const scaled = (m: RegExpExecArray) => BigInt(`${m[1]}${m[2]}${(m[3] ?? '').padEnd(places, '0')}`);
  const sum = scaled(x) + scaled(y);
  const negative = sum < 0n;
  const digits = (negative ? -sum : sum).toString().padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places);
  const fraction = places ? `.${digits.slice(digits.length - places)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

/** "12.50" → "-12.50" (text that is not a decimal comes back as it is). */
export function negateDecimal(a: string): string {
  const s = a.trim();
  if (!DECIMAL.test(s)) return a;
  if (signOfDecimal(s) === 0) return s.replace(/^-/, '');
  return s.startsWith('-') ? s.slice(1) : `-${s}`;
}

/** a − b, exactly. */
export function subtractDecimals(a: string, b: string): string {
  return addDecimals(a, negateDecimal(b));
}

/** The sign of a decimal: -1, 0 or 1 (0 for text that is not a decimal). */
export function signOfDecimal(a: string): -1 | 0 | 1 {
  const x = DECIMAL.exec(a.trim());
  if (!x) return 0;
  if (/^0*$/.test(x[2]!) && /^0*$/.test(x[3] ?? '')) return 0;
  return x[1] ? -1 : 1;
}

/** Compares two decimals exactly: -1 when a < b, 0 when equal, 1 when a > b. */
export function compareDecimals(a: string, b: string): -1 | 0 | 1 {
  return signOfDecimal(subtractDecimals(a, b));
}

/** Whether the text is a decimal these functions read ("12", "12.5", "-0.10"). */
export function isDecimal(a: string): boolean {
  return DECIMAL.test(a.trim());
}

/**
 * `available` spread over `outstanding` amounts in their order (oldest first): each takes what it has
 * outstanding or what is left, whichever is less; once nothing is left the rest take "0". The amounts
 * keep the places they came with ("0.00" when nothing is left of a document given as "379.62").
 */
export function fillInOrder(available: string, outstanding: readonly string[]): string[] {
  let left = signOfDecimal(available) > 0 ? available : '0';
  return outstanding.map((owed) => {
    const places = owed.split('.')[1]?.length ?? 0;
    const zero = places ? `0.${'0'.repeat(places)}` : '0';
    if (signOfDecimal(left) <= 0 || signOfDecimal(owed) <= 0) return zero;
    const take = compareDecimals(owed, left) <= 0 ? owed : left;
    left = subtractDecimals(left, take);
    return addDecimals(take, zero);
  });
}
