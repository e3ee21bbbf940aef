/**
 * Working days per Malaysian state (src/lib/working-days.ts), with worked dates. November 2026:
 * Thursday 5, Friday 6, Saturday 7, Sunday 8, Monday 9, Tuesday 10.
 */
import { describe, expect, it } from 'vitest';
import { addWorkingDays, isoWeekday, isWorkingDay, weekendDaysForState, workingDaysBetween } from '../../src/lib/working-days';

const KEDAH = weekendDaysForState('02');
const SELANGOR = weekendDaysForState('10');

describe('weekendDaysForState', () => {
  it('Kedah, Kelantan and Terengganu rest Friday and Saturday', () => {
    for (const code of ['02', '03', '11']) expect(weekendDaysForState(code)).toEqual([5, 6]);
  });

  it('every other state, Johor included (since 1 January 2025), rests Saturday and Sunday', () => {
    for (const code of ['01', '04', '05', '06', '07', '08', '09', '10', '12', '13', '14', '15', '16', '17']) expect(weekendDaysForState(code)).toEqual([6, 7]);
  });

  it('an unknown or absent state gets Saturday and Sunday', () => {
    for (const code of [undefined, null, '', '99', 'Kedah']) expect(weekendDaysForState(code)).toEqual([6, 7]);
  });
});

describe('addWorkingDays', () => {
  it('ISO weekdays: 5 November 2026 is a Thursday, 8 November a Sunday', () => {
    expect(isoWeekday('2026-11-05')).toBe(4);
    expect(isoWeekday('2026-11-08')).toBe(7);
    expect(isWorkingDay('2026-11-08', KEDAH)).toBe(true);
    expect(isWorkingDay('2026-11-08', SELANGOR)).toBe(false);
  });

  it('Thursday + 3 across the weekend: Tuesday in both, through Sunday in Kedah and Friday in Selangor', () => {
    expect(addWorkingDays('2026-11-05', 3, KEDAH)).toBe('2026-11-10');
    expect(addWorkingDays('2026-11-05', 3, SELANGOR)).toBe('2026-11-10');
    // Thursday + 1: the next working day differs.
    expect(addWorkingDays('2026-11-05', 1, KEDAH)).toBe('2026-11-08');
    expect(addWorkingDays('2026-11-05', 1, SELANGOR)).toBe('2026-11-06');
    // Wednesday + 2.
    expect(addWorkingDays('2026-11-04', 2, KEDAH)).toBe('2026-11-08');
    expect(addWorkingDays('2026-11-04', 2, SELANGOR)).toBe('2026-11-06');
  });

  it('from a weekend day, the count starts on the next working day; 0 leaves the day as it is', () => {
    expect(addWorkingDays('2026-11-07', 1, SELANGOR)).toBe('2026-11-09');
    expect(addWorkingDays('2026-11-06', 1, KEDAH)).toBe('2026-11-08');
    expect(addWorkingDays('2026-11-07', 0, SELANGOR)).toBe('2026-11-07');
  });

  it('long spans and month and year ends: 10 working days from Thursday 24 December 2026 in Selangor', () => {
    expect(addWorkingDays('2026-12-24', 10, SELANGOR)).toBe('2027-01-07');
    expect(addWorkingDays('2026-12-24', 10, KEDAH)).toBe('2027-01-07');
    expect(addWorkingDays('2026-11-05', 5, SELANGOR)).toBe('2026-11-12');
    // 52 whole weeks (260 working days) land on Thursday 4 November 2027; one more is the Friday.
    expect(addWorkingDays('2026-11-05', 260, SELANGOR)).toBe('2027-11-04');
    expect(addWorkingDays('2026-11-05', 261, SELANGOR)).toBe('2027-11-05');
  });

  it('backwards with a negative count', () => {
    expect(addWorkingDays('2026-11-09', -1, SELANGOR)).toBe('2026-11-06');
    expect(addWorkingDays('2026-11-09', -1, KEDAH)).toBe('2026-11-08');
    expect(addWorkingDays('2026-11-10', -3, KEDAH)).toBe('2026-11-05');
    expect(addWorkingDays('2026-11-10', -3, SELANGOR)).toBe('2026-11-05');
  });

  it('agrees with a day-by-day walk for every start in a fortnight and every n up to 30', () => {
    for (const weekend of [KEDAH, SELANGOR, [7], [5]]) {
      for (let s = 0; s < 14; s++) {
        const start = addDaysUtc('2026-11-01', s);
        let day = start;
        for (let n = 1; n <= 30; n++) {
          do day = addDaysUtc(day, 1);
          while (weekend.includes(isoWeekday(day)));
          expect(addWorkingDays(start, n, weekend)).toBe(day);
          expect(workingDaysBetween(start, day, weekend)).toBe(n);
          expect(addWorkingDays(day, -n, weekend) <= start).toBe(true);
        }
      }
    }
  });

  it('refuses a malformed day, a fractional count and a week without working days', () => {
    expect(() => addWorkingDays('2026-02-30', 1, SELANGOR)).toThrow(RangeError);
    expect(() => addWorkingDays('5 Nov 2026', 1, SELANGOR)).toThrow(RangeError);
    expect(() => addWorkingDays('2026-11-05', 1.5, SELANGOR)).toThrow(RangeError);
    expect(() => addWorkingDays('2026-11-05', 1, [1, 2, 3, 4, 5, 6, 7])).toThrow(RangeError);
    expect(() => addWorkingDays('2026-11-05', 1, [0])).toThrow(RangeError);
  });
});

describe('workingDaysBetween', () => {
  it('counts the working days after `from` up to and including `to`', () => {
    // Thursday to the next Tuesday: Fri, Mon, Tue in Selangor; Sun, Mon, Tue in Kedah.
    expect(workingDaysBetween('2026-11-05', '2026-11-10', SELANGOR)).toBe(3);
    expect(workingDaysBetween('2026-11-05', '2026-11-10', KEDAH)).toBe(3);
    // Thursday to Sunday: Friday only in Selangor, Sunday only in Kedah.
    expect(workingDaysBetween('2026-11-05', '2026-11-08', SELANGOR)).toBe(1);
    expect(workingDaysBetween('2026-11-05', '2026-11-07', KEDAH)).toBe(0);
    expect(workingDaysBetween('2026-11-05', '2026-11-05', KEDAH)).toBe(0);
  });

  it('is negative backwards, matching addWorkingDays with a negative count', () => {
    expect(workingDaysBetween('2026-11-10', '2026-11-05', SELANGOR)).toBe(-3);
    expect(workingDaysBetween('2026-11-09', '2026-11-06', SELANGOR)).toBe(-1);
    expect(workingDaysBetween('2026-11-09', '2026-11-08', KEDAH)).toBe(-1);
    expect(addWorkingDays('2026-11-09', workingDaysBetween('2026-11-09', '2026-11-06', SELANGOR), SELANGOR)).toBe('2026-11-06');
  });

  it('a year in Selangor has 261 working days in 2026', () => {
    expect(workingDaysBetween('2025-12-31', '2026-12-31', SELANGOR)).toBe(261);
  });
});

function addDaysUtc(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}
