/**
 * Schedules → EventBridge cron expressions, time-zone checks, and run times computed with croner.
 * The embedded scheduler and the previews use these run times, EventBridge Scheduler fires the same
 * expressions on AWS; the DST rules below make the two agree (see docs/scheduling.md).
 */
import { Cron } from 'croner';
import { DoguError } from '../errors.ts';
import {
  cronTextToEventBridge,
  formatList,
  formatWeekdays,
  invalidSchedule,
  weekdayNames,
} from './cron-syntax.ts';
import type { Schedule, ScheduleDays, ScheduleTimes } from './schedule.ts';
import { offsetAt } from './zoned-time.ts';

/** EventBridge cron expressions (6 fields `min hour dom month dow year`, no `cron(` wrapper) for the schedule:
 *  one or more (the form cannot always be one expression). Throws DoguError('invalid_definition', message,
 *  { errors: [{ pointer: '/schedule/...', detail }] }) with precise messages. */
export function eventBridgeExpressions(schedule: Schedule): string[] {
  if (schedule.kind === 'cron') return cronTextToEventBridge(schedule.expression);
  const days = dayFields(schedule.days);
  const times = timeFields(schedule.times);
  return days.flatMap((day) => times.map((time) => `${time} ${day} *`));
}

/** `dom month dow` for each expression the days need. */
function dayFields(days: ScheduleDays): string[] {
  if (days.by === 'weekday') {
    const numbers = days.weekdays.map((day) => weekdayNames.indexOf(day) + 1);
    return new Set(numbers).size === 7 ? ['* * ?'] : [`? * ${formatWeekdays(numbers)}`];
  }
  const numbers = days.days.filter((day) => day !== 'L');
  const fields: string[] = [];
  if (numbers.length > 0) fields.push(`${new Set(numbers).size === 31 ? '*' : formatList(numbers)} * ?`);
  // EventBridge's 'L' must stand alone in the field, so the last day gets its own expression.
  if (numbers.length < days.days.length) fields.push('L * ?');
  return fields;
}

const hhmm = /^(\d{1,2}):(\d{2})$/;

/** `minute hour` for each expression the times need. */
function timeFields(times: ScheduleTimes): string[] {
  switch (times.kind) {
    case 'hourly':
      return [`${minuteList(times.minutes)} *`];
    case 'interval':
      return [intervalFields(times.every, times.unit)];
    case 'fixed':
      return fixedTimeFields(times.times);
  }
}

const minuteList = (minutes: number[]) => (new Set(minutes).size === 60 ? '*' : formatList(minutes));

function intervalFields(every: number, unit: 'minutes' | 'hours'): string {
  const pointer = '/schedule/times/every';
  if (unit === 'minutes') {
    if (!Number.isInteger(every) || every < 1 || every > 59) {
      throw invalidSchedule(
        pointer,
        `Every ${every} minutes is not possible: choose 1-59 minutes (the count restarts at each full hour) or use hours.`,
      );
    }
    return `0/${every} *`;
  }
  if (!Number.isInteger(every) || every < 1 || every > 23) {
    throw invalidSchedule(
      pointer,
      `Every ${every} hours is not possible: choose 1-23 hours (the count restarts at midnight) or use fixed times.`,
    );
  }
  return `0 0/${every}`;
}

/** Groups times so minutes sharing the same hours share one expression: 09:00, 18:00 → `0 9,18`. */
function fixedTimeFields(texts: string[]): string[] {
  const hoursByMinute = new Map<number, Set<number>>();
  texts.forEach((text, index) => {
    const match = hhmm.exec(text.trim());
    const pointer = `/schedule/times/times/${index}`;
    if (!match) throw invalidSchedule(pointer, `Time '${text}' must be written HH:MM (24-hour), e.g. 09:00.`);
    const hour = Number(match[1]);
    const minute = Number(match[2]);
    if (hour > 23 || minute > 59) {
      throw invalidSchedule(pointer, `Time '${text}' is not a time of day between 00:00 and 23:59.`);
    }
    const hours = hoursByMinute.get(minute) ?? new Set<number>();
    hours.add(hour);
    hoursByMinute.set(minute, hours);
  });
  const minutesByHours = new Map<string, number[]>();
  for (const [minute, hours] of hoursByMinute) {
    const key = formatList([...hours]);
    minutesByHours.set(key, [...(minutesByHours.get(key) ?? []), minute]);
  }
  return [...minutesByHours]
    .map(([hours, minutes]) => ({ hours, minutes, first: Math.min(...minutes) }))
    .sort((a, b) => a.first - b.first)
    .map(({ hours, minutes }) => `${formatList(minutes)} ${hours}`);
}

/** Throws DoguError('invalid_definition', …, pointer '/timeZone') unless an IANA zone name Intl knows. */
export function assertTimeZone(timeZone: string): void {
  const refuse = (detail: string) =>
    new DoguError('invalid_definition', detail, { errors: [{ pointer: '/timeZone', detail }] });
  let resolved: string;
  try {
    // Offsets such as +09:00 are refused: EventBridge takes zone names only, and they ignore DST.
    if (!/^[A-Za-z]/.test(timeZone)) throw new RangeError('not a name');
    resolved = new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
  } catch {
    throw refuse(
      `Time zone '${timeZone}' is not an IANA time zone name such as 'Asia/Tokyo' or 'America/New_York'.`,
    );
  }
  if (resolved !== timeZone && resolved.toLowerCase() === timeZone.toLowerCase()) {
    throw refuse(`Time zone '${timeZone}' must be written '${resolved}'.`);
  }
}

/** Fast repeated use (the embedded scheduler holds 10,000 of these): croner instances built once. */
export interface CompiledSchedule {
  next(after: Date): Date | undefined;
}

export function compileSchedule(expressions: string[], timeZone: string): CompiledSchedule {
  const crons = expressions.map((expression) => toCroner(expression, timeZone));
  return {
    next(after) {
      let earliest: Date | undefined;
      for (const cron of crons) {
        const run = nextEventBridgeRun(cron, timeZone, after, 'next');
        if (run && (!earliest || run < earliest)) earliest = run;
      }
      return earliest;
    },
  };
}

/** The next `count` run times strictly after `after`, merged over all expressions, de-duplicated. */
export function nextRunTimes(expressions: string[], timeZone: string, after: Date, count: number): Date[] {
  const schedule = compileSchedule(expressions, timeZone);
  const runs: Date[] = [];
  for (let run = schedule.next(after); run && runs.length < count; run = schedule.next(run)) runs.push(run);
  return runs;
}

/** Every run time in (from, to], oldest first, at most `max` (the newest `max` if more). */
export function runTimesBetween(
  expressions: string[],
  timeZone: string,
  from: Date,
  to: Date,
  max: number,
): Date[] {
  // Walking back from `to` costs `max` steps however long the window is.
  const cursors = expressions.map((expression) => {
    const cron = toCroner(expression, timeZone);
    return { cron, run: nextEventBridgeRun(cron, timeZone, new Date(to.getTime() + 1), 'previous') };
  });
  const runs: Date[] = [];
  while (runs.length < max) {
    let latest: (typeof cursors)[number] | undefined;
    for (const cursor of cursors) {
      if (cursor.run && cursor.run > from && (!latest?.run || cursor.run > latest.run)) latest = cursor;
    }
    const run = latest?.run;
    if (!latest || !run) break;
    if (runs.at(-1)?.getTime() !== run.getTime()) runs.push(run);
    for (const cursor of cursors) {
      if (cursor.run?.getTime() === run.getTime()) {
        cursor.run = nextEventBridgeRun(cursor.cron, timeZone, run, 'previous');
      }
    }
  }
  return runs.reverse();
}

const croners = new Map<string, Cron>();
/** Beyond this many distinct (zone, expression) pairs the cache starts over rather than grow without end. */
const maxCachedCroners = 50_000;

/**
 * The croner reading of a validated EventBridge expression (croner wants seconds first; 1 = Sunday).
 * Building one costs ~0.2 ms (croner fills a 10,000-entry year table) and jobs share expressions, so
 * instances are shared: without a callback a Cron keeps no state between nextRun calls.
 */
function toCroner(expression: string, timeZone: string): Cron {
  const key = `${timeZone} ${expression}`;
  let cron = croners.get(key);
  if (!cron) {
    if (croners.size >= maxCachedCroners) croners.clear();
    cron = new Cron(`0 ${expression}`, {
      timezone: timeZone,
      mode: '7-part',
      alternativeWeekdays: true,
      sloppyRanges: true,
    });
    croners.set(key, cron);
  }
  return cron;
}

/**
 * The run croner finds, adjusted to EventBridge's DST rules: a wall-clock time that does not exist (spring
 * forward) is skipped, where croner would run a fixed-time job at the end of the gap; a wall-clock time that
 * occurs twice (fall back) runs once, where croner would run an interval job twice.
 */
function nextEventBridgeRun(cron: Cron, timeZone: string, from: Date, direction: 'next' | 'previous') {
  let cursor = from;
  for (let guard = 0; guard < 1000; guard += 1) {
    const run = direction === 'next' ? cron.nextRun(cursor) : cron.previousRuns(1, cursor)[0];
    if (!run) return undefined;
    if (cron.match(run) && !repeatsEarlierWallTime(run, timeZone)) return run;
    cursor = run;
  }
  return undefined;
}

/** Minutes the zone is ahead of UTC at `at`. */
function utcOffsetMinutes(at: Date, timeZone: string): number {
  return Math.round(offsetAt(at.getTime(), timeZone) / 60_000);
}

/** Whether the wall-clock time at `at` already happened once, earlier, before the clocks went back. */
function repeatsEarlierWallTime(at: Date, timeZone: string): boolean {
  const offsetNow = utcOffsetMinutes(at, timeZone);
  // No zone changes its offset twice within three hours, so three hours back is before any fall-back.
  const offsetBefore = utcOffsetMinutes(new Date(at.getTime() - 3 * 3_600_000), timeZone);
  if (offsetBefore <= offsetNow) return false;
  const earlier = new Date(at.getTime() - (offsetBefore - offsetNow) * 60_000);
  return utcOffsetMinutes(earlier, timeZone) === offsetBefore;
}
