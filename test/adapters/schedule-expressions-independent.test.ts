/**
 * The EventBridge Scheduler requests Dogu sends, checked by someone else's evaluator (issue 26 item
 * 2): for cron jobs (the form and cron expressions; Asia/Tokyo and a zone with daylight saving) and
 * reservations, the `cron(...)`/`at(...)` expression with its `ScheduleExpressionTimezone` gives the
 * same next ten fire times under aws-cron-parser (an EventBridge-cron parser independent of croner,
 * which the embedded scheduler uses) as the embedded scheduler does.
 *
 * aws-cron-parser evaluates in UTC, so the test reads the zone's wall clock as if it were UTC, asks
 * the parser there, and maps each wall-clock time back to the instant it is in the zone, as
 * EventBridge does across daylight saving: a time that does not exist (spring forward) is skipped,
 * a time that occurs twice (fall back) fires once, at its first occurrence.
 */
import {
  CreateScheduleCommand,
  type CreateScheduleCommandInput,
  ListSchedulesCommand,
  SchedulerClient,
} from '@aws-sdk/client-scheduler';
import awsCronParser from 'aws-cron-parser';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { EventBridgeScheduler } from '../../shared/adapters/aws/eventbridge-scheduler.ts';
import type { CronJob, Reservation } from '../../shared/domain/scheduling/model.ts';
import type { Schedule } from '../../shared/domain/scheduling/schedule.ts';
import { eventBridgeExpressions, nextRunTimes } from '../../shared/domain/scheduling/schedule-expression.ts';

const scheduler = mockClient(SchedulerClient);
afterEach(() => scheduler.reset());

const adapter = () =>
  new EventBridgeScheduler({
    client: new SchedulerClient({}),
    groupPrefix: 'dogu-production',
    targetArn: 'arn:aws:lambda:ap-northeast-1:123456789012:function:scheduled-run',
    roleArn: 'arn:aws:iam::123456789012:role/scheduler',
    deadLetterArn: 'arn:aws:sqs:ap-northeast-1:123456789012:dead-letters',
  });

/** The CreateSchedule requests the adapter sends for a job or reservation. */
async function requestsFor(
  put: (a: EventBridgeScheduler) => Promise<void>,
): Promise<CreateScheduleCommandInput[]> {
  scheduler.reset();
  scheduler.on(ListSchedulesCommand).resolves({ Schedules: [] });
  scheduler.onAnyCommand().resolves({});
  await put(adapter());
  return scheduler.commandCalls(CreateScheduleCommand).map((call) => call.args[0].input);
}

const formatters = new Map<string, Intl.DateTimeFormat>();
/** The wall clock of `instant` in `zone`, as a Date whose UTC fields are those of the wall clock. */
function wallClock(instant: Date, zone: string): Date {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((p) => [p.type, p.value]));
  return new Date(
    Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!, +parts.second!),
  );
}

/** The instants whose wall clock in `zone` is `wall`: none (a gap), one, or two (an overlap). */
function instantsOf(wall: Date, zone: string): Date[] {
  const found = new Set<number>();
  // Every offset the zone can have lies within ±14 hours; try those near the wall time's.
  for (let hours = -15; hours <= 15; hours++) {
    const guess = new Date(wall.getTime() - hours * 3600_000);
    const offset = wallClock(guess, zone).getTime() - guess.getTime();
    const candidate = new Date(wall.getTime() - offset);
    if (wallClock(candidate, zone).getTime() === wall.getTime()) found.add(candidate.getTime());
  }
  return [...found].sort((a, b) => a - b).map((t) => new Date(t));
}

/** The next `count` fire times of EventBridge expressions in `zone` after `after`, by aws-cron-parser. */
function independentNextTimes(requests: CreateScheduleCommandInput[], after: Date, count: number): Date[] {
  const times = new Set<number>();
  for (const request of requests) {
    const zone = request.ScheduleExpressionTimezone!;
    const expression = request.ScheduleExpression!;
    const at = /^at\((.+)\)$/.exec(expression);
    if (at) {
      // at(yyyy-mm-ddThh:mm:ss): one wall-clock time in the zone (checked here: the parser has no at()).
      const [first] = instantsOf(new Date(`${at[1]}Z`), zone);
      if (first && first > after) times.add(first.getTime());
      continue;
    }
    const cron = awsCronParser.parse(/^cron\((.+)\)$/.exec(expression)![1]!);
    // From the wall clock a minute before `after` (so a time at `after`'s own minute is considered).
    let wall: Date | null = new Date(wallClock(after, zone).getTime() - 60_000);
    let found = 0;
    while (found < count * 2 && wall) {
      wall = awsCronParser.next(cron, new Date(wall.getTime() + 1000));
      if (!wall) break;
      const [first] = instantsOf(wall, zone); // a gap: skipped; an overlap: once, the first
      if (first && first > after) {
        times.add(first.getTime());
        found++;
      }
    }
  }
  return [...times]
    .sort((a, b) => a - b)
    .slice(0, count)
    .map((t) => new Date(t));
}

const cronJob = (schedule: Schedule, timeZone: string): CronJob => ({
  id: 'cron_0193a2b4c5d6',
  projectId: 'prj_1',
  environmentId: 'env_1',
  name: 'Checked',
  schedule,
  timeZone,
  actionId: 'act_1',
  arguments: {},
  executor: { kind: 'user', id: 'usr_1', email: 'ops@example.com' },
  setBy: { id: 'usr_1', email: 'ops@example.com' },
  state: 'running',
  overlap: 'allow',
  createdAt: '2026-11-01T00:00:00Z',
  updatedAt: '2026-11-01T00:00:00Z',
  version: 1,
});

const iso = (dates: Date[]) => dates.map((d) => d.toISOString());

const schedules: Record<string, Schedule> = {
  'cron: weekdays at 09:00': { kind: 'cron', expression: '0 9 ? * MON-FRI *' },
  'cron: 5-field, every 15 minutes in the night hours': { kind: 'cron', expression: '*/15 1-3 * * *' },
  'cron: the last Friday, 10:15': { kind: 'cron', expression: '15 10 ? * 6L *' },
  'cron: the first Monday, 08:00': { kind: 'cron', expression: '0 8 ? * 2#1 *' },
  'cron: the nearest weekday to the 15th': { kind: 'cron', expression: '0 9 15W * ? *' },
  'cron: the last day of the month, 02:30': { kind: 'cron', expression: '30 2 L * ? *' },
  'form: Mon/Wed/Fri at 01:30 and 02:30': {
    kind: 'form',
    days: { by: 'weekday', weekdays: ['MON', 'WED', 'FRI'] },
    times: { kind: 'fixed', times: ['01:30', '02:30'] },
  },
  'form: every day, hourly at :00 and :45': {
    kind: 'form',
    days: { by: 'weekday', weekdays: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] },
    times: { kind: 'hourly', minutes: [0, 45] },
  },
  'form: the 1st, 15th and last day, every 4 hours': {
    kind: 'form',
    days: { by: 'dayOfMonth', days: [1, 15, 'L'] },
    times: { kind: 'interval', every: 4, unit: 'hours' },
  },
};

/** Bases: an ordinary week, and just before each daylight-saving change of New York in 2026. */
const bases: Record<string, Date> = {
  'a November week': new Date('2026-11-20T00:30:00Z'),
  'before spring forward (2026-03-08)': new Date('2026-03-07T12:00:00Z'),
  'before fall back (2026-11-01)': new Date('2026-10-31T12:00:00Z'),
};

describe('cron job schedules: EventBridge requests vs the embedded scheduler', () => {
  for (const zone of ['Asia/Tokyo', 'America/New_York']) {
    for (const [name, schedule] of Object.entries(schedules)) {
      it(`${name} in ${zone}: the same next ten times from every base`, async () => {
        const job = cronJob(schedule, zone);
        const requests = await requestsFor((a) => a.putCronJob(job));
        expect(requests.length).toBe(eventBridgeExpressions(schedule).length);
        for (const request of requests) {
          expect(request.ScheduleExpressionTimezone).toBe(zone);
          expect(request.ScheduleExpression).toMatch(/^cron\(.+\)$/);
        }
        for (const [baseName, base] of Object.entries(bases)) {
          const embedded = nextRunTimes(eventBridgeExpressions(schedule), zone, base, 10);
          expect(embedded, baseName).toHaveLength(10);
          expect(iso(independentNextTimes(requests, base, 10)), `${baseName}`).toEqual(iso(embedded));
        }
      });
    }
  }

  it('the evaluator can disagree: a schedule shifted by an hour gives other times', async () => {
    const requests = await requestsFor((a) =>
      a.putCronJob(cronJob(schedules['cron: weekdays at 09:00']!, 'Asia/Tokyo')),
    );
    const shifted = requests.map((r) => ({ ...r, ScheduleExpression: 'cron(0 10 ? * MON-FRI *)' }));
    const base = bases['a November week']!;
    expect(iso(independentNextTimes(shifted, base, 10))).not.toEqual(
      iso(
        nextRunTimes(eventBridgeExpressions(schedules['cron: weekdays at 09:00']!), 'Asia/Tokyo', base, 10),
      ),
    );
  });
});

describe('reservations: at() with its zone is the instant reserved', () => {
  const reservation = (runAt: string, timeZone: string): Reservation => ({
    id: 'rsv_0193a2b4c5d6',
    purpose: 'reservation',
    projectId: 'prj_1',
    environmentId: 'env_1',
    actionId: 'act_1',
    arguments: {},
    runAt,
    timeZone,
    executor: { kind: 'user', id: 'usr_1', email: 'ops@example.com' },
    createdBy: { id: 'usr_1', email: 'ops@example.com' },
    status: 'scheduled',
    createdAt: '2026-11-01T00:00:00Z',
    updatedAt: '2026-11-01T00:00:00Z',
  });

  for (const [runAt, zone] of [
    ['2026-11-22T21:41:00.000Z', 'Asia/Tokyo'],
    ['2026-03-08T07:30:00.000Z', 'America/New_York'], // 03:30 EDT, just after spring forward
    ['2026-11-01T05:30:00.000Z', 'America/New_York'], // 01:30 EDT, the first of the two 01:30s
    ['2026-11-01T06:30:00.000Z', 'America/New_York'], // 01:30 EST, the second
  ] as const) {
    it(`${runAt} in ${zone}`, async () => {
      const [request] = await requestsFor((a) => a.putReservation(reservation(runAt, zone)));
      // at() names a wall-clock time; the reserved instant is sent on UTC's clock (decision 0085),
      // which never repeats a time (in New York 01:30 occurs twice the night the clocks go back).
      expect(request!.ScheduleExpressionTimezone).toBe('UTC');
      expect(request!.ScheduleExpression).toMatch(/^at\(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\)$/);
      const fired = independentNextTimes([request!], new Date(Date.parse(runAt) - 3600_000 * 3), 1);
      expect(iso(fired)).toEqual([runAt]);
    });
  }
});
