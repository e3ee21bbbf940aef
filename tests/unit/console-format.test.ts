import { describe, expect, it } from 'vitest';
import { dateIn, formatDate, formatDateTime } from '../../web/src/format/date';
import { formatDecimal, formatMoney } from '../../web/src/format/money';

/** Intl's output carries no-break spaces in some locales; compared with plain spaces. */
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('console money', () => {
  it('formats a decimal string with every digit, never through a JavaScript number', () => {
    expect(plain(formatMoney('12345678901234567.89', 'MYR', 'en-MY'))).toBe('RM 12,345,678,901,234,567.89');
    expect(plain(formatMoney('12345678901234567.89', 'MYR', 'ms-MY'))).toBe('RM 12,345,678,901,234,567.89');
    // The same value as a number loses the sen: the reason the helper takes strings only.
    expect(plain(new Intl.NumberFormat('en-MY', { style: 'currency', currency: 'MYR' }).format(12345678901234567.89))).not.toBe('RM 12,345,678,901,234,567.89');
  });

  it('pads to the currency’s digits and keeps the sign', () => {
    expect(plain(formatMoney('1000', 'MYR', 'en-MY'))).toBe('RM 1,000.00');
    expect(plain(formatMoney('-0.5', 'MYR', 'en-MY'))).toBe('-RM 0.50');
    expect(plain(formatMoney('12.3', 'USD', 'en-MY'))).toBe('US$12.30');
    expect(plain(formatMoney('12.3', 'USD', 'ms-MY'))).toBe('USD 12.30');
    expect(plain(formatMoney('1500', 'JPY', 'en-MY'))).toBe('JP¥1,500');
  });

  it('shows text that is not a decimal as it came, with its currency', () => {
    expect(formatMoney('1e3', 'MYR', 'en-MY')).toBe('MYR 1e3');
    expect(formatMoney('', 'MYR', 'en-MY')).toBe('MYR ');
  });

  it('formats a quantity or rate keeping its decimals', () => {
    expect(formatDecimal('1234.567890', 'en-MY')).toBe('1,234.567890');
    expect(formatDecimal('0.55', 'ms-MY')).toBe('0.55');
  });
});

describe('console dates', () => {
  it('shows a calendar date as it is, whatever the browser’s zone', () => {
    expect(plain(formatDate('2026-11-27', 'en-MY'))).toBe('27 Nov 2026');
    expect(plain(formatDate('2026-11-27', 'ms-MY', 'long'))).toBe('27 November 2026');
    expect(formatDate('27/11/2026', 'en-MY')).toBe('27/11/2026');
  });

  it('shows an instant in the organization’s time zone', () => {
    // 16:30 UTC is past midnight in Kuala Lumpur (UTC+8): the next day there.
    expect(plain(formatDateTime('2026-11-27T16:30:00Z', 'en-MY', 'Asia/Kuala_Lumpur'))).toBe('28 Nov 2026, 12:30 am');
    expect(plain(formatDateTime('2026-11-27T16:30:00Z', 'ms-MY', 'Asia/Kuala_Lumpur'))).toBe('28 Nov 2026, 12:30 PG');
    expect(plain(formatDateTime('2026-11-27T16:30:00Z', 'en-MY', 'UTC'))).toBe('27 Nov 2026, 4:30 pm');
    expect(dateIn(new Date('2026-11-27T16:30:00Z'), 'Asia/Kuala_Lumpur')).toBe('2026-11-28');
    expect(dateIn(new Date('2026-11-27T16:30:00Z'), 'UTC')).toBe('2026-11-27');
  });
});
