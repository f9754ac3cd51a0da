/**
 * A wall-clock time in an IANA zone → the instant it names (decision 0085). Without Temporal in
 * Node 22, the zone's offsets come from Intl: a zone changes its offset at most once within a day,
 * so the offsets a day either side are the only candidates, and a candidate counts only when the
 * zone's clock really shows the typed time at that instant.
 */

export type ZonedInstant =
  /** One instant; `ambiguous` when the clocks went back and the time occurred twice (the first is taken). */
  | { kind: 'unique' | 'ambiguous'; time: number }
  /** The clocks skipped this time (spring forward). */
  | { kind: 'nonexistent' };

const dayMs = 24 * 3600_000;
const formats = new Map<string, Intl.DateTimeFormat>();

/** `wallTime`: the typed date and time read as if it were UTC (milliseconds since the epoch). */
export function instantInZone(wallTime: number, timeZone: string): ZonedInstant {
  const offsets = new Set([offsetAt(wallTime - dayMs, timeZone), offsetAt(wallTime + dayMs, timeZone)]);
  const matches = [...offsets]
    .map((offset) => wallTime - offset)
    .filter((time) => wallClockAt(time, timeZone) === wallTime)
    .sort((a, b) => a - b);
  if (matches.length === 0) return { kind: 'nonexistent' };
  return { kind: matches.length > 1 ? 'ambiguous' : 'unique', time: matches[0]! };
}

/** The zone's offset from UTC at an instant, in milliseconds (Asia/Tokyo: +9 h). */
export function offsetAt(time: number, timeZone: string): number {
  return wallClockAt(time, timeZone) - time;
}

/** What the zone's clock shows at an instant, as milliseconds of that wall time read as UTC (whole seconds). */
function wallClockAt(time: number, timeZone: string): number {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timeZone, format);
  }
  const part = Object.fromEntries(
    format.formatToParts(new Date(Math.floor(time / 1000) * 1000)).map((p) => [p.type, Number(p.value)]),
  );
  return Date.UTC(part.year!, part.month! - 1, part.day!, part.hour!, part.minute!, part.second!);
}
