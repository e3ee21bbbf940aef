import { describe, expect, it } from 'vitest';
import { todayIn } from '../../src/lib/dates';

describe('todayIn', () => {
  it('turns the day at local midnight, asked within the same minute as the last answer or not', () => {
    // Kuala Lumpur is UTC+8: its day begins at 16:00 UTC.
    expect(todayIn('Asia/Kuala_Lumpur', new Date('2026-11-26T15:59:00.000Z'))).toBe('2026-11-26');
    expect(todayIn('Asia/Kuala_Lumpur', new Date('2026-11-26T15:59:59.999Z'))).toBe('2026-11-26');
    expect(todayIn('Asia/Kuala_Lumpur', new Date('2026-11-26T16:00:00.000Z'))).toBe('2026-11-27');
    expect(todayIn('Asia/Kuala_Lumpur', new Date('2026-11-26T15:59:30.000Z'))).toBe('2026-11-26');
    // A zone a quarter of an hour off the hour (UTC+5:45) and one behind UTC, in turn.
    expect(todayIn('Asia/Kathmandu', new Date('2026-11-26T18:14:59.000Z'))).toBe('2026-11-26');
    expect(todayIn('Asia/Kathmandu', new Date('2026-11-26T18:15:00.000Z'))).toBe('2026-11-27');
    expect(todayIn('America/New_York', new Date('2026-11-27T04:59:59.000Z'))).toBe('2026-11-26');
    expect(todayIn('America/New_York', new Date('2026-11-27T05:00:00.000Z'))).toBe('2026-11-27');
    expect(todayIn('Asia/Kuala_Lumpur', new Date('2026-11-27T05:00:00.000Z'))).toBe('2026-11-27');
  });
});
