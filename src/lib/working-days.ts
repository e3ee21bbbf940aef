import { addDays } from './dates';

/**
 * Working days in a Malaysian organization's calendar: which days are the weekend depends on the
 * state (Kedah, Kelantan and Terengganu rest Friday and Saturday; every other state, Johor included
 * since 1 January 2025, Saturday and Sunday). Days are calendar dates (YYYY-MM-DD), weekdays ISO
 * numbers (1 = Monday ... 7 = Sunday). Public holidays are not known here. Pure functions, no clock.
 */

export type IsoWeekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

export const SATURDAY_SUNDAY: readonly IsoWeekday[] = [6, 7];
export const FRIDAY_SATURDAY: readonly IsoWeekday[] = [5, 6];

/** MyInvois state codes (data/state-codes.json) whose weekend is Friday and Saturday: Kedah, Kelantan, Terengganu. */
const FRIDAY_SATURDAY_STATES = new Set(['02', '03', '11']);

/** The weekend of a MyInvois state code; an unknown or absent code gets Saturday and Sunday. */
export function weekendDaysForState(stateCode: string | null | undefined): readonly IsoWeekday[] {
  return stateCode && FRIDAY_SATURDAY_STATES.has(stateCode.trim()) ? FRIDAY_SATURDAY : SATURDAY_SUNDAY;
}

function parseDay(day: string): Date {
  const d = /^\d{4}-\d{2}-\d{2}$/.test(day) ? new Date(`${day}T00:00:00Z`) : new Date(NaN);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== day) throw new RangeError(`not a calendar date (YYYY-MM-DD): ${day}`);
  return d;
}

/** The ISO weekday of a calendar date. */
export function isoWeekday(day: string): IsoWeekday {
  return (((parseDay(day).getUTCDay() + 6) % 7) + 1) as IsoWeekday;
}

function weekendSet(weekendDays: readonly number[]): Set<number> {
  const set = new Set(weekendDays);
  for (const d of set) if (!Number.isInteger(d) || d < 1 || d > 7) throw new RangeError(`weekend days are ISO weekdays 1 to 7, not ${d}`);
  if (set.size === 7) throw new RangeError('a week needs at least one working day');
  return set;
}

export function isWorkingDay(day: string, weekendDays: readonly number[]): boolean {
  return !weekendSet(weekendDays).has(isoWeekday(day));
}

/**
 * The day `n` working days after `day` (before it when n is negative), not counting `day` itself:
 * Thursday + 1 is Friday in Selangor and Sunday in Kedah. n = 0 answers `day` unchanged.
 */
export function addWorkingDays(day: string, n: number, weekendDays: readonly number[]): string {
  if (!Number.isInteger(n)) throw new RangeError(`a whole number of working days, not ${n}`);
  const weekend = weekendSet(weekendDays);
  parseDay(day);
  const perWeek = 7 - weekend.size;
  const step = n < 0 ? -1 : 1;
  let left = Math.abs(n);
  // Any seven consecutive days hold `perWeek` working days: jump whole weeks, then walk the rest.
  const weeks = Math.max(0, Math.floor((left - 1) / perWeek));
  let current = addDays(day, step * 7 * weeks);
  left -= weeks * perWeek;
  while (left > 0) {
    current = addDays(current, step);
    if (!weekend.has(isoWeekday(current))) left -= 1;
  }
  return current;
}

/**
 * Working days after `from` up to and including `to` (negative when `to` is earlier): the n with
 * addWorkingDays(from, n) = to whenever `to` is a working day. Equal days answer 0.
 */
export function workingDaysBetween(from: string, to: string, weekendDays: readonly number[]): number {
  const weekend = weekendSet(weekendDays);
  const [a, b] = [parseDay(from).getTime(), parseDay(to).getTime()];
  if (a === b) return 0;
  if (b < a) {
    // Backwards, the days counted are [to, from): `to` in, `from` out.
    const working = (d: string) => (weekend.has(isoWeekday(d)) ? 0 : 1);
    return -(workingDaysBetween(to, from, weekendDays) - working(from) + working(to));
  }
  const days = Math.round((b - a) / 86_400_000);
  const weeks = Math.floor(days / 7);
  let count = weeks * (7 - weekend.size);
  let current = addDays(from, weeks * 7);
  while (current !== to) {
    current = addDays(current, 1);
    if (!weekend.has(isoWeekday(current))) count += 1;
  }
  return count;
}
