/**
 * Reading dates and times that callers send, in one place. JavaScript's Date is lenient where a
 * caller expects a refusal: `2026-02-30` becomes 2 March, `25:00` the next day, and Unix seconds
 * beyond ±8.64e12 make `toISOString()` throw a RangeError (a 500). Every reader of a caller's date
 * goes through here: an ISO 8601 text must name a day that exists and a time on the clock, and
 * every instant must lie in the years 0001–9999 (what `YYYY-MM-DD` and the databases can hold).
 */

/** 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z, in milliseconds since the epoch. */
export const earliestTimeMs = -62_135_596_800_000;
export const latestTimeMs = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** `YYYY-MM-DD`, optionally `[T ]hh:mm[:ss[.fff]]`, optionally a zone `Z` or `±hh[:]mm`. */
const isoDateTime =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-](\d{2}):?(\d{2}))?)?$/;

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

export interface IsoDateTime {
  /** Milliseconds since the epoch; a text without a zone is read as UTC, never as the server's time. */
  time: number;
  /** Whether the text had a time of day. */
  hasTime: boolean;
  /** Whether the text named its zone (`Z` or an offset). */
  hasZone: boolean;
}

/** Why a text is not an ISO 8601 date, for a message after the field's name; undefined when it is. */
export type DateProblem = 'format' | 'no-such-date' | 'out-of-range';

export function parseIsoDateTime(text: string): IsoDateTime | DateProblem {
  const match = isoDateTime.exec(text);
  if (!match) return 'format';
  const [, y, mo, d, h, mi, s, fraction, zone, zoneHours, zoneMinutes] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return 'no-such-date';
  const hour = Number(h ?? 0);
  const minute = Number(mi ?? 0);
  const second = Number(s ?? 0);
  if (hour > 23 || minute > 59 || second > 59) return 'no-such-date';
  if (zoneHours !== undefined && (Number(zoneHours) > 23 || Number(zoneMinutes) > 59)) return 'no-such-date';
  const milliseconds = fraction === undefined ? 0 : Number(fraction.padEnd(3, '0').slice(0, 3));
  // Date.UTC maps years 0–99 to 1900–1999; setting the year afterwards keeps 0001–0099 as written.
  const utc = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, milliseconds));
  utc.setUTCFullYear(year);
  const offsetMinutes =
    zone === undefined || zone === 'Z'
      ? 0
      : (zone.startsWith('-') ? -1 : 1) * (Number(zoneHours) * 60 + Number(zoneMinutes));
  const time = utc.getTime() - offsetMinutes * 60_000;
  if (time < earliestTimeMs || time > latestTimeMs) return 'out-of-range';
  return { time, hasTime: h !== undefined, hasZone: zone !== undefined };
}

/** Unix seconds as milliseconds, or 'out-of-range' outside the years 0001–9999. */
export function unixSecondsToTime(seconds: number): number | 'out-of-range' {
  const time = seconds * 1000;
  if (!Number.isFinite(time) || time < earliestTimeMs || time > latestTimeMs) return 'out-of-range';
  return time;
}

export const dateProblemText: Record<DateProblem, string> = {
  format: 'must be a date such as 2026-11-22 or 2026-11-22T09:00:00+09:00',
  'no-such-date': 'is not a valid date: no such day or time on the calendar',
  'out-of-range': 'must lie between the years 0001 and 9999',
};
