/**
 * Money as the API gives it: a decimal string ("1234.50"), formatted for people without ever becoming
 * a JavaScript number (a double keeps about 15 significant digits; amounts may carry more).
 * Intl.NumberFormat formats a numeric string exactly.
 */
const DECIMAL = /^-?\d+(\.\d+)?$/;

export function isDecimalString(value: string): value is `${number}` {
  return DECIMAL.test(value);
}

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(locale: string, currency: string): Intl.NumberFormat {
  const key = `${locale}|${currency}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { style: 'currency', currency });
    formatters.set(key, f);
  }
  return f;
}

/** "12345678901234567.89", "MYR", "en-MY" → "RM 12,345,678,901,234,567.89". Text that is not a decimal is shown as it came. */
export function formatMoney(amount: string, currency: string, locale: string): string {
  if (!isDecimalString(amount)) return `${currency} ${amount}`;
  return formatter(locale, currency).format(amount);
}

/** A plain decimal (a quantity, a rate) with grouping, every digit kept. */
export function formatDecimal(value: string, locale: string): string {
  if (!isDecimalString(value)) return value;
  const fraction = value.split('.')[1]?.length ?? 0;
  return new Intl.NumberFormat(locale, { minimumFractionDigits: fraction, maximumFractionDigits: fraction }).format(value);
}
