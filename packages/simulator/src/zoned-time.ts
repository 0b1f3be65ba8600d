/**
 * Wall-clock time in a named time zone → UTC, through `Intl` (the zone's real rules, DST included), never a fixed
 * offset. football-data.co.uk writes kick-off times in UK local time (`Europe/London`): GMT in winter, BST (UTC+1)
 * from the last Sunday of March to the last Sunday of October.
 *
 * @packageDocumentation
 */

/** The time zone of football-data.co.uk's `Date`/`Time` columns. */
export const UK_TIME_ZONE = 'Europe/London';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Offset of `timeZone` from UTC at the instant `utcMs`, in ms (e.g. 3 600 000 for BST). */
export function zoneOffsetMs(utcMs: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(utcMs))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  const wholeSeconds = Math.floor(utcMs / 1000) * 1000;
  return wall - wholeSeconds;
}

/** A wall-clock date and time: year, month 1–12, day, hour 0–23, minute. */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/**
 * The UTC instant (unix ms) of a wall-clock time in `timeZone`.
 *
 * Disambiguation follows Temporal's `"compatible"`: a time that occurs twice (autumn, clocks go back) resolves to the
 * earlier instant; a time that does not exist (spring gap, clocks go forward) is moved forward by the length of the
 * gap (01:30 on the last Sunday of March in London → 02:30 BST = 01:30 UTC).
 */
export function zonedTimeToUtc(wall: WallTime, timeZone: string = UK_TIME_ZONE): number {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  const DAY = 86_400_000;
  const before = zoneOffsetMs(asUtc - DAY, timeZone);
  const after = zoneOffsetMs(asUtc + DAY, timeZone);
  const valid = [...new Set([before, after])]
    .map((o) => asUtc - o)
    .filter((utc) => asUtc - zoneOffsetMs(utc, timeZone) === utc)
    .sort((a, b) => a - b);
  if (valid.length > 0) return valid[0]!;
  // in the gap: keep the offset in force before the transition, which lands after it
  return asUtc - before;
}
