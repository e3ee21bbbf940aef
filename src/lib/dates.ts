/** The calendar date (YYYY-MM-DD) at `now` in the given IANA time zone: an organization's "today". */
/** One formatter per time zone: building an Intl.DateTimeFormat costs far more than using it. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The last day worked out per time zone, with the minute it holds for: every UTC offset is a whole
 * number of minutes, so a day begins and ends on a minute's boundary and one answer serves the
 * whole minute (formatToParts costs about 10 µs, and every request asks).
 */
const lastDays = new Map<string, { minute: number; day: string }>();

export function todayIn(timeZone: string, now: Date): string {
  const minute = Math.floor(now.getTime() / 60_000);
  const last = lastDays.get(timeZone);
  if (last && last.minute === minute) return last.day;
  const day = dayIn(timeZone, now);
  if (last || lastDays.size < 1_000) lastDays.set(timeZone, { minute, day });
  return day;
}

function dayIn(timeZone: string, now: Date): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    if (dayFormats.size < 1_000) dayFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(now);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

export function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** `date` (YYYY-MM-DD) plus `days` calendar days. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
