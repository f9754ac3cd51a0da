import { describe, expect, it } from 'vitest';
import { DoguError } from '../../shared/domain/errors.ts';
import type { Schedule, ScheduleDays, ScheduleTimes } from '../../shared/domain/scheduling/schedule.ts';
import {
  assertTimeZone,
  compileSchedule,
  eventBridgeExpressions,
  nextRunTimes,
  runTimesBetween,
} from '../../shared/domain/scheduling/schedule-expression.ts';

const tokyo = 'Asia/Tokyo';
const newYork = 'America/New_York';
const form = (days: ScheduleDays, times: ScheduleTimes): Schedule => ({ kind: 'form', days, times });
const cron = (expression: string): Schedule => ({ kind: 'cron', expression });
const weekdays = (...days: ('SUN' | 'MON' | 'TUE' | 'WED' | 'THU' | 'FRI' | 'SAT')[]): ScheduleDays => ({
  by: 'weekday',
  weekdays: days,
});
const monthDays = (...days: (number | 'L')[]): ScheduleDays => ({ by: 'dayOfMonth', days });
const at = (...times: string[]): ScheduleTimes => ({ kind: 'fixed', times });
const iso = (dates: Date[]) => dates.map((date) => date.toISOString());

/** The DoguError a call throws, as the API would report it. */
function failure(call: () => unknown) {
  try {
    call();
  } catch (error) {
    if (!(error instanceof DoguError)) throw error;
    return { code: error.code, message: error.message, errors: error.errors };
  }
  throw new Error('expected a DoguError');
}

describe('eventBridgeExpressions: the form', () => {
  const allDays = monthDays(...Array.from({ length: 31 }, (_, index) => index + 1));
  it.each<[string, Schedule, string[]]>([
    ['two weekdays', form(weekdays('MON', 'FRI'), at('09:00')), ['0 9 ? * MON,FRI *']],
    [
      'weekdays sorted, de-duplicated, run as range',
      form(weekdays('FRI', 'MON', 'WED', 'TUE', 'THU', 'MON'), at('09:00')),
      ['0 9 ? * MON-FRI *'],
    ],
    [
      'all seven weekdays',
      form(weekdays('SAT', 'SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI'), at('09:00')),
      ['0 9 * * ? *'],
    ],
    ['weekend', form(weekdays('SAT', 'SUN'), at('10:15')), ['15 10 ? * SUN,SAT *']],
    ['days of month sorted', form(monthDays(15, 1), at('09:00', '18:00')), ['0 9,18 1,15 * ? *']],
    ['consecutive days as range', form(monthDays(3, 1, 2, 10), at('00:00')), ['0 0 1-3,10 * ? *']],
    ['every day of the month', form(allDays, at('07:45')), ['45 7 * * ? *']],
    ['last day alone', form(monthDays('L'), at('18:00')), ['0 18 L * ? *']],
    [
      'last day gets its own expression',
      form(monthDays('L', 1), at('09:00')),
      ['0 9 1 * ? *', '0 9 L * ? *'],
    ],
    [
      'times with different minutes',
      form(weekdays('MON'), at('09:00', '18:30')),
      ['0 9 ? * MON *', '30 18 ? * MON *'],
    ],
    [
      'minutes sharing hours share one expression',
      form(weekdays('MON'), at('18:30', '09:00', '09:30', '18:00')),
      ['0,30 9,18 ? * MON *'],
    ],
    [
      'single-digit hour accepted, duplicates dropped',
      form(weekdays('MON'), at('18:30', '9:05', '09:05')),
      ['5 9 ? * MON *', '30 18 ? * MON *'],
    ],
    ['day edges', form(monthDays(1), at('23:59', '00:00')), ['0 0 1 * ? *', '59 23 1 * ? *']],
    [
      'hourly at minutes',
      form(weekdays('MON', 'TUE', 'WED', 'THU', 'FRI'), { kind: 'hourly', minutes: [30, 0, 30] }),
      ['0,30 * ? * MON-FRI *'],
    ],
    ['every 5 minutes', form(allDays, { kind: 'interval', every: 5, unit: 'minutes' }), ['0/5 * * * ? *']],
    [
      'every 59 minutes',
      form(monthDays(1), { kind: 'interval', every: 59, unit: 'minutes' }),
      ['0/59 * 1 * ? *'],
    ],
    [
      'every 3 hours',
      form(weekdays('SUN'), { kind: 'interval', every: 3, unit: 'hours' }),
      ['0 0/3 ? * SUN *'],
    ],
    [
      'last day and the 1st, twice a day',
      form(monthDays(1, 'L'), at('09:00', '21:00')),
      ['0 9,21 1 * ? *', '0 9,21 L * ? *'],
    ],
  ])('%s', (_, schedule, expected) => {
    expect(eventBridgeExpressions(schedule)).toEqual(expected);
  });
});

describe('eventBridgeExpressions: cron text', () => {
  it.each<[string, string[]]>([
    // EventBridge's own 6-field syntax, normalised.
    ['cron(0 9 ? * MON-FRI *)', ['0 9 ? * MON-FRI *']],
    ['  0   9 ? * mon-fri   * ', ['0 9 ? * MON-FRI *']],
    ['0/15 * * * ? *', ['0/15 * * * ? *']],
    ['0 8 ? * MON#1 *', ['0 8 ? * 2#1 *']],
    ['0 8 ? * 2#1 *', ['0 8 ? * 2#1 *']],
    ['15 10 ? * 6L 2026-2027', ['15 10 ? * 6L 2026-2027']],
    ['0 9 15W * ? *', ['0 9 15W * ? *']],
    ['0 18 L * ? *', ['0 18 L * ? *']],
    ['0 12 * jan-mar ? 2025', ['0 12 * JAN-MAR ? 2025']],
    ['10-40/10 8-17 ? * 2-6 *', ['10-40/10 8-17 ? * 2-6 *']],
    // 5-field cron: weekdays shift from 0-7 (Sunday 0 or 7) to 1-7 (Sunday 1).
    ['0 9 * * 1-5', ['0 9 ? * MON-FRI *']],
    ['0 9 * * 0', ['0 9 ? * SUN *']],
    ['0 9 * * 7', ['0 9 ? * SUN *']],
    ['0 9 * * 1', ['0 9 ? * MON *']],
    ['0 9 * * 6', ['0 9 ? * SAT *']],
    ['0 9 * * sun,sat', ['0 9 ? * SUN,SAT *']],
    ['0 9 * * fri-sun', ['0 9 ? * SUN,FRI,SAT *']],
    ['0 9 * * 5-7', ['0 9 ? * SUN,FRI,SAT *']],
    ['0 9 * * 0,7', ['0 9 ? * SUN *']],
    ['0 9 * * 0-6', ['0 9 * * ? *']],
    ['0 9 * * */2', ['0 9 ? * SUN,TUE,THU,SAT *']],
    ['0 9 * * 1#1', ['0 9 ? * 2#1 *']],
    ['0 9 * * 0#2', ['0 9 ? * 1#2 *']],
    ['0 9 * * 5L', ['0 9 ? * 6L *']],
    ['*/15 * * * *', ['*/15 * * * ? *']],
    ['0 9 1,15 * *', ['0 9 1,15 * ? *']],
    ['30 2 L * *', ['30 2 L * ? *']],
    ['0 9 * jan-mar mon', ['0 9 ? JAN-MAR MON *']],
    ['0 9 ? * 1', ['0 9 ? * MON *']],
    // Both restricted: cron runs when either matches, EventBridge needs one expression per field.
    ['0 9 1 * 1', ['0 9 1 * ? *', '0 9 ? * MON *']],
    ['0 9 L * 5', ['0 9 L * ? *', '0 9 ? * FRI *']],
  ])('%s', (expression, expected) => {
    expect(eventBridgeExpressions(cron(expression))).toEqual(expected);
  });
});

describe('eventBridgeExpressions: refusals', () => {
  it.each<[string, string]>([
    ['61 9 * * ? *', "Minute field '61' is out of range 0-59."],
    ['0 24 * * *', "Hour field '24' is out of range 0-23."],
    ['0 9 32 * ?', "Day-of-month field '32' is out of range 1-31."],
    ['0 9 0 * ? *', "Day-of-month field '0' is out of range 1-31."],
    ['0 9 * 13 ? *', "Month field '13' is out of range 1-12 or JAN-DEC."],
    ['0 9 ? * 8 *', "Day-of-week field '8' is out of range 1-7 or SUN-SAT."],
    ['0 9 ? * 0 *', "Day-of-week field '0' is out of range 1-7 or SUN-SAT."],
    ['0 9 * * 8', "Day-of-week field '8' is out of range 0-7 or SUN-SAT."],
    ['0 9 * * ? 1969', "Year field '1969' is out of range 1970-2199."],
    ['0 9 * * MOM', "Day-of-week field 'MOM' is not a valid value: use 0-7 or SUN-SAT."],
    ['x 9 * * *', "Minute field 'x' is not a valid value: use 0-59."],
    [
      '0 9 * * * *',
      "Exactly one of day-of-month and day-of-week must be '?' (EventBridge cannot restrict both): e.g. '0 9 ? * * *'. Seconds fields are not supported.",
    ],
    [
      '0 9 1 * MON *',
      "Exactly one of day-of-month and day-of-week must be '?' (EventBridge cannot restrict both): e.g. '0 9 ? * MON *'. Seconds fields are not supported.",
    ],
    ['0 9 ? * ? *', "Only one of day-of-month and day-of-week can be '?': put '*' in the other."],
    [
      '0 0 9 * * ? *',
      'Cron expressions with a seconds field are not supported: schedules run at most once a minute. Use 5 fields (minute hour day-of-month month day-of-week) or 6 (… year).',
    ],
    [
      '0 9 * *',
      "A cron expression has 5 fields (minute hour day-of-month month day-of-week) or EventBridge's 6 (… year); '0 9 * *' has 4.",
    ],
    [
      'rate(5 minutes)',
      "rate() expressions are not supported: use the form's fixed interval (every N minutes or hours).",
    ],
    [
      'at(2026-12-01T09:00:00)',
      'at() is a one-time schedule: create a reservation for a single run instead.',
    ],
    [
      'cron(0 9 * * 1)',
      "cron(…) needs EventBridge's 6 fields (minute hour day-of-month month day-of-week year).",
    ],
    ['cron(0 9 * * ? *', "Expression 'cron(0 9 * * ? *' is missing its closing ')'."],
    ['@daily', "Nicknames such as '@daily' are not supported: write the fields, e.g. '0 0 * * *' for daily."],
    ['*/0 * * * *', "Minute field step '0' in '*/0' must be a whole number from 1 to 60."],
    ['0 22-2 * * *', "Hour field range '22-2' goes backwards: split it into two parts, e.g. '22-23,0-2'."],
    [
      '0 9 ? * FRI-MON *',
      "Day-of-week field range 'FRI-MON' goes backwards: split it into two parts, e.g. 'FRI-SAT,SUN-MON'.",
    ],
    [
      '0 9 ? * 3#1,6#3 *',
      "Day-of-week field '3#1,6#3' may hold only one '#' or 'L' value, e.g. '2#1' or '6L'.",
    ],
    ['0 9 ? * 2#6 *', "Day-of-week field '2#6': the number after '#' must be 1-5."],
    [
      '0 9 ? * */2 *',
      "Day-of-week field '*/2': EventBridge allows no '/' steps here; list the values instead.",
    ],
    [
      '0 9 ? * L *',
      "Day-of-week field 'L' alone means Saturday: write SAT, or e.g. '6L' for the last Friday.",
    ],
    ['0 9 1,L * ? *', "Day-of-month field '1,L': 'L' (last day of the month) must stand alone."],
    ['0 9 1-5W * ? *', "Day-of-month field '1-5W': 'W' follows a single day, e.g. '15W'."],
    ['0 ? * * *', "Hour field cannot be '?': only day-of-month or day-of-week can."],
    ['0 9 1,,2 * ?', "Day-of-month field '1,,2' has an empty list entry."],
    ['0 9-17/ * * *', "Hour field step '' in '9-17/' must be a whole number from 1 to 24."],
  ])('%s', (expression, message) => {
    expect(failure(() => eventBridgeExpressions(cron(expression)))).toEqual({
      code: 'invalid_definition',
      message,
      errors: [{ pointer: '/schedule/expression', detail: message }],
    });
  });

  it.each<[string, Schedule, string, string]>([
    [
      'hour 24',
      form(weekdays('MON'), at('09:00', '24:00')),
      '/schedule/times/times/1',
      "Time '24:00' is not a time of day between 00:00 and 23:59.",
    ],
    [
      'minute 60',
      form(weekdays('MON'), at('12:60')),
      '/schedule/times/times/0',
      "Time '12:60' is not a time of day between 00:00 and 23:59.",
    ],
    [
      'not HH:MM',
      form(weekdays('MON'), at('09:00', '10:00', '9am')),
      '/schedule/times/times/2',
      "Time '9am' must be written HH:MM (24-hour), e.g. 09:00.",
    ],
    [
      'every 60 minutes',
      form(weekdays('MON'), { kind: 'interval', every: 60, unit: 'minutes' }),
      '/schedule/times/every',
      'Every 60 minutes is not possible: choose 1-59 minutes (the count restarts at each full hour) or use hours.',
    ],
    [
      'every 0 minutes',
      form(weekdays('MON'), { kind: 'interval', every: 0, unit: 'minutes' }),
      '/schedule/times/every',
      'Every 0 minutes is not possible: choose 1-59 minutes (the count restarts at each full hour) or use hours.',
    ],
    [
      'every 24 hours',
      form(weekdays('MON'), { kind: 'interval', every: 24, unit: 'hours' }),
      '/schedule/times/every',
      'Every 24 hours is not possible: choose 1-23 hours (the count restarts at midnight) or use fixed times.',
    ],
  ])('form: %s', (_, schedule, pointer, message) => {
    expect(failure(() => eventBridgeExpressions(schedule))).toEqual({
      code: 'invalid_definition',
      message,
      errors: [{ pointer, detail: message }],
    });
  });
});

describe('assertTimeZone', () => {
  it.each(['Asia/Tokyo', 'America/New_York', 'UTC', 'Europe/Berlin'])('accepts %s', (zone) => {
    expect(assertTimeZone(zone)).toBeUndefined();
  });

  it.each<[string, string]>([
    [
      'Mars/Olympus',
      "Time zone 'Mars/Olympus' is not an IANA time zone name such as 'Asia/Tokyo' or 'America/New_York'.",
    ],
    [
      '+09:00',
      "Time zone '+09:00' is not an IANA time zone name such as 'Asia/Tokyo' or 'America/New_York'.",
    ],
    ['', "Time zone '' is not an IANA time zone name such as 'Asia/Tokyo' or 'America/New_York'."],
    ['asia/tokyo', "Time zone 'asia/tokyo' must be written 'Asia/Tokyo'."],
  ])('refuses %j', (zone, message) => {
    expect(failure(() => assertTimeZone(zone))).toEqual({
      code: 'invalid_definition',
      message,
      errors: [{ pointer: '/timeZone', detail: message }],
    });
  });
});

describe('nextRunTimes', () => {
  // Friday 2026-11-20 09:30 in Tokyo.
  const friday = new Date('2026-11-20T09:30:00+09:00');
  it.each<[string, string, string, Date, string[]]>([
    [
      'weekdays',
      '0 9 ? * MON-FRI *',
      tokyo,
      friday,
      ['2026-11-23T09:00:00+09:00', '2026-11-24T09:00:00+09:00'],
    ],
    [
      '1 is Sunday',
      '30 2 ? * 1 *',
      tokyo,
      friday,
      ['2026-11-22T02:30:00+09:00', '2026-11-29T02:30:00+09:00'],
    ],
    [
      '7 is Saturday',
      '0 9 ? * 7 *',
      tokyo,
      friday,
      ['2026-11-21T09:00:00+09:00', '2026-11-28T09:00:00+09:00'],
    ],
    [
      '5-field 0 is Sunday',
      '0 9 * * 0',
      tokyo,
      friday,
      ['2026-11-22T09:00:00+09:00', '2026-11-29T09:00:00+09:00'],
    ],
    [
      '5-field 7 is Sunday',
      '0 9 * * 7',
      tokyo,
      friday,
      ['2026-11-22T09:00:00+09:00', '2026-11-29T09:00:00+09:00'],
    ],
    [
      '5-field 6 is Saturday',
      '0 9 * * 6',
      tokyo,
      friday,
      ['2026-11-21T09:00:00+09:00', '2026-11-28T09:00:00+09:00'],
    ],
    [
      'first Monday (2#1)',
      '0 8 ? * 2#1 *',
      tokyo,
      friday,
      ['2026-12-07T08:00:00+09:00', '2027-01-04T08:00:00+09:00'],
    ],
    [
      'last Friday (6L)',
      '15 10 ? * 6L 2026-2027',
      tokyo,
      friday,
      ['2026-11-27T10:15:00+09:00', '2026-12-25T10:15:00+09:00'],
    ],
    [
      'last day of month',
      '0 18 L * ? *',
      tokyo,
      friday,
      ['2026-11-30T18:00:00+09:00', '2026-12-31T18:00:00+09:00'],
    ],
    [
      '31st skips 30-day months',
      '0 9 31 * ? *',
      tokyo,
      new Date('2026-11-01T00:00:00+09:00'),
      ['2026-12-31T09:00:00+09:00', '2027-01-31T09:00:00+09:00'],
    ],
    [
      '31st skips February and April',
      '0 9 31 * ? *',
      tokyo,
      new Date('2027-01-31T10:00:00+09:00'),
      ['2027-03-31T09:00:00+09:00', '2027-05-31T09:00:00+09:00'],
    ],
    [
      'Feb 29 only in leap years',
      '0 9 29 2 ? *',
      tokyo,
      new Date('2026-01-01T00:00:00+09:00'),
      ['2028-02-29T09:00:00+09:00', '2032-02-29T09:00:00+09:00'],
    ],
    [
      'last day of February, non-leap then leap',
      '0 9 L 2 ? *',
      tokyo,
      new Date('2027-01-01T00:00:00+09:00'),
      ['2027-02-28T09:00:00+09:00', '2028-02-29T09:00:00+09:00'],
    ],
    [
      'nearest weekday to a Sunday 15th',
      '0 9 15W * ? *',
      tokyo,
      new Date('2026-11-01T00:00:00+09:00'),
      ['2026-11-16T09:00:00+09:00', '2026-12-15T09:00:00+09:00'],
    ],
    [
      'interval restarts at the hour',
      '0/25 * * * ? *',
      tokyo,
      new Date('2026-11-20T10:40:00+09:00'),
      ['2026-11-20T10:50:00+09:00', '2026-11-20T11:00:00+09:00', '2026-11-20T11:25:00+09:00'],
    ],
    [
      'every 5 hours restarts at midnight',
      '0 0/5 * * ? *',
      tokyo,
      new Date('2026-11-20T20:30:00+09:00'),
      ['2026-11-21T00:00:00+09:00', '2026-11-21T05:00:00+09:00'],
    ],
    [
      'strictly after a run time',
      '0 9 * * ? *',
      tokyo,
      new Date('2026-11-20T09:00:00+09:00'),
      ['2026-11-21T09:00:00+09:00', '2026-11-22T09:00:00+09:00'],
    ],
    ['a past year never runs', '0 12 * * ? 2025', tokyo, friday, []],
    // America/New_York: DST starts 2026-03-08 02:00 (→ 03:00) and ends 2026-11-01 02:00 (→ 01:00).
    [
      'New York keeps 09:00 across spring forward',
      '0 9 * * ? *',
      newYork,
      new Date('2026-03-07T12:00:00Z'),
      ['2026-03-07T14:00:00Z', '2026-03-08T13:00:00Z'],
    ],
    [
      'a time in the spring gap is skipped',
      '30 2 * * ? *',
      newYork,
      new Date('2026-03-07T12:00:00Z'),
      ['2026-03-09T06:30:00Z', '2026-03-10T06:30:00Z'],
    ],
    [
      'a repeated fall-back time runs once',
      '30 1 * * ? *',
      newYork,
      new Date('2026-11-01T04:50:00Z'),
      ['2026-11-01T05:30:00Z', '2026-11-02T06:30:00Z'],
    ],
    [
      'an interval runs the repeated hour once',
      '0/30 * * * ? *',
      newYork,
      new Date('2026-11-01T04:50:00Z'),
      ['2026-11-01T05:00:00Z', '2026-11-01T05:30:00Z', '2026-11-01T07:00:00Z', '2026-11-01T07:30:00Z'],
    ],
    [
      'an interval skips the spring gap',
      '0/30 * * * ? *',
      newYork,
      new Date('2026-03-08T06:40:00Z'),
      ['2026-03-08T07:00:00Z', '2026-03-08T07:30:00Z'],
    ],
  ])('%s: %s', (_, expression, zone, after, expected) => {
    const expressions = eventBridgeExpressions(cron(expression));
    const runs = nextRunTimes(expressions, zone, after, expected.length === 0 ? 2 : expected.length);
    expect(iso(runs)).toEqual(iso(expected.map((text) => new Date(text))));
  });

  it('merges the expressions of a 5-field day-of-month-or-weekday schedule and drops duplicates', () => {
    // 2026-12-01 is a Tuesday: both expressions fire then, the job runs once.
    const expressions = eventBridgeExpressions(cron('0 9 1 * 2'));
    expect(expressions).toEqual(['0 9 1 * ? *', '0 9 ? * TUE *']);
    expect(iso(nextRunTimes(expressions, tokyo, friday, 3))).toEqual(
      iso([
        new Date('2026-11-24T09:00:00+09:00'),
        new Date('2026-12-01T09:00:00+09:00'),
        new Date('2026-12-08T09:00:00+09:00'),
      ]),
    );
  });

  it('merges the times of a form that needs two expressions', () => {
    const expressions = eventBridgeExpressions(form(weekdays('MON'), at('18:30', '09:00')));
    expect(iso(nextRunTimes(expressions, tokyo, friday, 3))).toEqual(
      iso([
        new Date('2026-11-23T09:00:00+09:00'),
        new Date('2026-11-23T18:30:00+09:00'),
        new Date('2026-11-30T09:00:00+09:00'),
      ]),
    );
  });
});

describe('compileSchedule', () => {
  it('answers the next run after any time, over all expressions', () => {
    const schedule = compileSchedule(['0 9 L * ? *', '0 9 1 * ? *'], tokyo);
    expect(schedule.next(new Date('2026-11-20T00:00:00Z'))?.toISOString()).toBe('2026-11-30T00:00:00.000Z');
    expect(schedule.next(new Date('2026-11-30T00:00:00Z'))?.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(schedule.next(new Date('2026-11-30T00:00:00.001Z'))?.toISOString()).toBe(
      '2026-12-01T00:00:00.000Z',
    );
  });

  it('answers undefined when the schedule has no more runs', () => {
    expect(
      compileSchedule(['0 12 * * ? 2026'], tokyo).next(new Date('2026-12-31T03:00:00Z')),
    ).toBeUndefined();
    expect(
      compileSchedule(['0 12 * * ? 2026'], tokyo).next(new Date('2026-12-31T02:00:00Z'))?.toISOString(),
    ).toBe('2026-12-31T03:00:00.000Z');
  });
});

describe('runTimesBetween', () => {
  const daily = ['0 9 * * ? *'];
  const from = new Date('2026-11-01T09:00:00+09:00');
  const to = new Date('2026-11-10T09:00:00+09:00');

  it('lists every run in (from, to], oldest first', () => {
    const runs = runTimesBetween(daily, tokyo, from, to, 100);
    expect(runs).toHaveLength(9);
    expect(runs[0]?.toISOString()).toBe(new Date('2026-11-02T09:00:00+09:00').toISOString());
    expect(runs.at(-1)?.toISOString()).toBe(to.toISOString());
  });

  it('keeps the newest runs when there are more than max', () => {
    expect(iso(runTimesBetween(daily, tokyo, from, to, 3))).toEqual(
      iso(['2026-11-08', '2026-11-09', '2026-11-10'].map((day) => new Date(`${day}T09:00:00+09:00`))),
    );
  });

  it('is quick over a long window with a small cap', () => {
    // No clock: walking a window of every minute of 474 years from its start would take days and time
    // the test out; walking back from its end takes five steps.
    const runs = runTimesBetween(
      ['* * * * ? *'],
      tokyo,
      new Date('2026-01-01T00:00:00Z'),
      new Date('2500-01-01T00:00:00Z'),
      5,
    );
    expect(iso(runs)).toEqual(
      ['23:56', '23:57', '23:58', '23:59']
        .map((time) => `2499-12-31T${time}:00.000Z`)
        .concat('2500-01-01T00:00:00.000Z'),
    );
  });

  it('merges expressions and drops the duplicates', () => {
    const runs = runTimesBetween(
      eventBridgeExpressions(cron('0 9 1 * 2')),
      tokyo,
      new Date('2026-11-20T00:00:00Z'),
      new Date('2026-12-31T00:00:00Z'),
      100,
    );
    expect(iso(runs)).toEqual(
      iso(
        ['11-24', '12-01', '12-08', '12-15', '12-22', '12-29'].map(
          (day) => new Date(`2026-${day}T09:00:00+09:00`),
        ),
      ),
    );
  });

  it('counts the repeated fall-back hour once', () => {
    const runs = runTimesBetween(
      ['0/30 * * * ? *'],
      newYork,
      new Date('2026-11-01T04:00:00Z'),
      new Date('2026-11-01T08:00:00Z'),
      100,
    );
    expect(iso(runs)).toEqual(
      ['04:30', '05:00', '05:30', '07:00', '07:30', '08:00'].map((time) => `2026-11-01T${time}:00.000Z`),
    );
  });

  it('answers nothing for an empty window', () => {
    expect(runTimesBetween(daily, tokyo, to, to, 10)).toEqual([]);
  });
});
