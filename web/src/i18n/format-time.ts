/** Times as the console shows them: to the minute with the weekday, in its language. */

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

/** `2026-05-01T00:00:00.000Z` as the reader's local date and time, to the minute. */
export function formatTime(iso: string | undefined, language: string): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(...toTheMinute(language));
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
