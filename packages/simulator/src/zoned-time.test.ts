import { describe, expect, it } from 'vitest';
import { zonedTimeToUtc, zoneOffsetMs } from './zoned-time.js';

const utc = (y: number, mo: number, d: number, h: number, mi: number) =>
  new Date(zonedTimeToUtc({ year: y, month: mo, day: d, hour: h, minute: mi })).toISOString();

describe('UK local time → UTC (Europe/London via Intl)', () => {
  it('uses GMT in winter and BST in summer', () => {
    expect(utc(2023, 12, 26, 15, 0)).toBe('2023-12-26T15:00:00.000Z');
    expect(utc(2023, 8, 11, 20, 0)).toBe('2023-08-11T19:00:00.000Z');
    expect(zoneOffsetMs(Date.UTC(2024, 6, 1), 'Europe/London')).toBe(3_600_000);
    expect(zoneOffsetMs(Date.UTC(2024, 0, 1), 'Europe/London')).toBe(0);
  });

  it('switches on the last Sundays of March and October, not on a fixed date', () => {
    // 2024: 31 March and 27 October
    expect(utc(2024, 3, 30, 15, 0)).toBe('2024-03-30T15:00:00.000Z');
    expect(utc(2024, 3, 31, 15, 0)).toBe('2024-03-31T14:00:00.000Z');
    expect(utc(2024, 10, 26, 17, 30)).toBe('2024-10-26T16:30:00.000Z');
    expect(utc(2024, 10, 27, 14, 0)).toBe('2024-10-27T14:00:00.000Z');
    // 2023: 26 March and 29 October
    expect(utc(2023, 3, 26, 16, 30)).toBe('2023-03-26T15:30:00.000Z');
    expect(utc(2023, 10, 29, 14, 0)).toBe('2023-10-29T14:00:00.000Z');
  });

  it('moves a time in the spring gap forward and takes the earlier of an autumn repeat', () => {
    expect(utc(2023, 3, 26, 1, 30)).toBe('2023-03-26T01:30:00.000Z'); // 02:30 BST
    expect(utc(2023, 3, 26, 2, 0)).toBe('2023-03-26T01:00:00.000Z');
    expect(utc(2023, 10, 29, 1, 30)).toBe('2023-10-29T00:30:00.000Z'); // first 01:30, still BST
    expect(utc(2023, 10, 29, 2, 0)).toBe('2023-10-29T02:00:00.000Z');
  });

  it('works for other zones too', () => {
    expect(
      new Date(
        zonedTimeToUtc({ year: 2023, month: 8, day: 12, hour: 21, minute: 30 }, 'Europe/Madrid'),
      ).toISOString(),
    ).toBe('2023-08-12T19:30:00.000Z');
  });
});
