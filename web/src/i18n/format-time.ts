/** Times as the console shows them: to the minute with the weekday, in its language. */
import { instantInZone } from '../../../shared/domain/scheduling/zoned-time.ts';

/** Date and time to the minute with the weekday, in the console's language. */
const toTheMinute = (language: string, timeZone?: string): [string, Intl.DateTimeFormatOptions] => [
  language === 'ja' ? 'ja-JP' : 'en-GB',
  {
    ...(timeZone ? { timeZone } : {}),
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    weekday: 'short',
  },
];

/** The browser's zone, which times without a zone of their own are shown in. */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * `2026-05-01T00:00:00.000Z` as the reader's local date and time, to the minute, with the zone
 * named (decision 0085: every time the console shows carries its zone).
 */
export function formatTime(iso: string | undefined, language: string): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toLocaleString(...toTheMinute(language))} (${browserTimeZone()})`;
}

/**
 * A `datetime-local` input's value read in a zone (not the browser's) → ISO instant; undefined when
 * empty, invalid or skipped by the clocks; a repeated time is its first occurrence, as the API reads it.
 */
export function instantOfLocalInput(value: string, timeZone: string): string | undefined {
  if (!value) return undefined;
  const wall = Date.parse(`${value.length === 16 ? `${value}:00` : value}Z`);
  if (Number.isNaN(wall)) return undefined;
  try {
    const resolved = instantInZone(wall, timeZone);
    return resolved.kind === 'nonexistent' ? undefined : new Date(resolved.time).toISOString();
  } catch {
    return undefined;
  }
}

/** A time in the schedule's own zone (what the form means), e.g. `2026-05-01 09:00 (Asia/Tokyo)`. */
export function formatInZone(iso: string, timeZone: string, language: string): string {
  const date = new Date(iso);
  try {
    // An unknown zone throws a RangeError: the stored text is then shown as it is.
    return `${date.toLocaleString(...toTheMinute(language, timeZone))} (${timeZone})`;
  } catch {
    return iso;
  }
}
