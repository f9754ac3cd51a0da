/**
 * The schedule form's state and the request body it makes. The form keeps text as typed (so a
 * half-typed "1, 1" is not reformatted under the cursor); `scheduleOf` turns it into the API's
 * `Schedule` or names the field that cannot be read.
 */
import type { Schedule, Weekday } from './api.ts';

export interface ScheduleDraft {
  mode: 'form' | 'cron';
  daysBy: 'weekday' | 'dayOfMonth';
  weekdays: Weekday[];
  /** "1, 15, L" */
  monthDays: string;
  timesKind: 'fixed' | 'hourly' | 'interval';
  fixedTimes: string[];
  /** "0, 30" */
  hourlyMinutes: string;
  every: string;
  unit: 'minutes' | 'hours';
  expression: string;
}

export const defaultScheduleDraft: ScheduleDraft = {
  mode: 'form',
  daysBy: 'weekday',
  weekdays: ['MON', 'TUE', 'WED', 'THU', 'FRI'],
  monthDays: '1',
  timesKind: 'fixed',
  fixedTimes: ['09:00'],
  hourlyMinutes: '0',
  every: '15',
  unit: 'minutes',
  expression: '0 9 ? * MON-FRI *',
};

/** A field of the schedule form that can hold an error. */
export type ScheduleField = 'days' | 'times' | 'expression' | 'timeZone';

export type ScheduleResult =
  | { ok: true; schedule: Schedule }
  | { ok: false; field: ScheduleField; key: string; vars?: Record<string, string> };

const listOf = (text: string) =>
  text
    .split(/[\s,、]+/)
    .map((part) => part.trim())
    .filter(Boolean);

export function scheduleOf(draft: ScheduleDraft): ScheduleResult {
  if (draft.mode === 'cron') {
    const expression = draft.expression.trim();
    if (!expression) return { ok: false, field: 'expression', key: 'scheduling.form.expressionRequired' };
    return { ok: true, schedule: { kind: 'cron', expression } };
  }
  let days: Extract<Schedule, { kind: 'form' }>['days'];
  if (draft.daysBy === 'weekday') {
    if (draft.weekdays.length === 0) return { ok: false, field: 'days', key: 'scheduling.form.pickWeekday' };
    days = { by: 'weekday', weekdays: draft.weekdays };
  } else {
    const parts = listOf(draft.monthDays);
    if (parts.length === 0) return { ok: false, field: 'days', key: 'scheduling.form.pickMonthDay' };
    const values: (number | 'L')[] = [];
    for (const part of parts) {
      if (part.toUpperCase() === 'L') values.push('L');
      else if (/^\d{1,2}$/.test(part)) values.push(Number(part));
      else return { ok: false, field: 'days', key: 'scheduling.form.badMonthDay', vars: { value: part } };
    }
    days = { by: 'dayOfMonth', days: values };
  }
  if (draft.timesKind === 'fixed') {
    const times = draft.fixedTimes.map((time) => time.trim()).filter(Boolean);
    if (times.length === 0) return { ok: false, field: 'times', key: 'scheduling.form.pickTime' };
    return { ok: true, schedule: { kind: 'form', days, times: { kind: 'fixed', times } } };
  }
  if (draft.timesKind === 'hourly') {
    const parts = listOf(draft.hourlyMinutes);
    if (parts.length === 0) return { ok: false, field: 'times', key: 'scheduling.form.pickMinute' };
    const bad = parts.find((part) => !/^\d{1,2}$/.test(part));
    if (bad) return { ok: false, field: 'times', key: 'scheduling.form.badMinute', vars: { value: bad } };
    return {
      ok: true,
      schedule: { kind: 'form', days, times: { kind: 'hourly', minutes: parts.map(Number) } },
    };
  }
  if (!/^\d+$/.test(draft.every.trim())) {
    return { ok: false, field: 'times', key: 'scheduling.form.badInterval', vars: { value: draft.every } };
  }
  return {
    ok: true,
    schedule: {
      kind: 'form',
      days,
      times: { kind: 'interval', every: Number(draft.every), unit: draft.unit },
    },
  };
}

/** The form state that shows a stored schedule (editing a job). */
export function draftOf(schedule: Schedule): ScheduleDraft {
  if (schedule.kind === 'cron')
    return { ...defaultScheduleDraft, mode: 'cron', expression: schedule.expression };
  const draft: ScheduleDraft = { ...defaultScheduleDraft, mode: 'form' };
  if (schedule.days.by === 'weekday') {
    draft.daysBy = 'weekday';
    draft.weekdays = schedule.days.weekdays;
  } else {
    draft.daysBy = 'dayOfMonth';
    draft.monthDays = schedule.days.days.join(', ');
  }
  const times = schedule.times;
  draft.timesKind = times.kind;
  if (times.kind === 'fixed') draft.fixedTimes = times.times;
  else if (times.kind === 'hourly') draft.hourlyMinutes = times.minutes.join(', ');
  else {
    draft.every = String(times.every);
    draft.unit = times.unit;
  }
  return draft;
}

/** Which schedule field a server pointer (`#/schedule/times/times/1`) is about. */
export function scheduleFieldOf(pointer: string): ScheduleField | undefined {
  const path = pointer.replace(/^#/, '');
  if (path.startsWith('/timeZone')) return 'timeZone';
  if (path.startsWith('/schedule/days')) return 'days';
  if (path.startsWith('/schedule/times')) return 'times';
  if (path.startsWith('/schedule')) return 'expression';
  return undefined;
}

export const commonTimeZones = [
  'Asia/Tokyo',
  'UTC',
  'Asia/Seoul',
  'Asia/Shanghai',
  'Asia/Singapore',
  'Asia/Kolkata',
  'Australia/Sydney',
  'Europe/London',
  'Europe/Paris',
  'Europe/Berlin',
  'America/New_York',
  'America/Chicago',
  'America/Los_Angeles',
];

/** Every IANA zone the browser knows, the common ones first. */
export function timeZoneOptions(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  const all = intl.supportedValuesOf ? intl.supportedValuesOf('timeZone') : [];
  return [...commonTimeZones, ...all.filter((zone) => !commonTimeZones.includes(zone))];
}
