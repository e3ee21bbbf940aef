/**
 * Dates as people of the organization read them. A calendar date ("2026-11-27": an invoice date, a
 * claim's expense date) has no time zone and is shown as it is; an instant ("2026-11-27T16:30:00Z":
 * a submission, a decision) is shown in the organization's time zone, not the browser's.
 */
export const DEFAULT_TIME_ZONE = 'Asia/Kuala_Lumpur';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "2026-11-27", "en-MY" → "27 Nov 2026". */
export function formatDate(isoDate: string, locale: string, style: 'medium' | 'long' = 'medium'): string {
  const m = ISO_DATE.exec(isoDate);
  if (!m) return isoDate;
  const at = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return new Intl.DateTimeFormat(locale, { dateStyle: style, timeZone: 'UTC' }).format(at);
}

/** "2026-11-27T16:30:00Z", "en-MY", "Asia/Kuala_Lumpur" → "28 Nov 2026, 12:30 am". */
export function formatDateTime(instant: string, locale: string, timeZone: string = DEFAULT_TIME_ZONE): string {
  const at = new Date(instant);
  if (Number.isNaN(at.getTime())) return instant;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(at);
}

/** The calendar date an instant falls on in the time zone ("2026-11-28"), e.g. for "today" in the organization. */
export function dateIn(instant: Date, timeZone: string = DEFAULT_TIME_ZONE): string {
  const parts = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone }).formatToParts(instant);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}
