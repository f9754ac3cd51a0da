/**
 * The EventBridge Scheduler adapter against a mocked SchedulerClient (no local EventBridge exists):
 * every request is asserted field by field, as AWS would receive it.
 */
import {
  ConflictException,
  CreateScheduleCommand,
  CreateScheduleGroupCommand,
  DeleteScheduleCommand,
  ListSchedulesCommand,
  ResourceNotFoundException,
  SchedulerClient,
  UpdateScheduleCommand,
} from '@aws-sdk/client-scheduler';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cronScheduleName,
  EventBridgeScheduler,
  wallClockIn,
} from '../../shared/adapters/aws/eventbridge-scheduler.ts';
import { boundedName, scheduleGroupName } from '../../shared/adapters/aws/schedule-names.ts';
import type { CronJob, Reservation } from '../../shared/domain/scheduling/model.ts';
import type { Schedule } from '../../shared/domain/scheduling/schedule.ts';
import { eventBridgeExpressions } from '../../shared/domain/scheduling/schedule-expression.ts';

const scheduler = mockClient(SchedulerClient);
afterEach(() => scheduler.reset());

const options = {
  groupPrefix: 'dogu-production',
  targetArn: 'arn:aws:lambda:ap-northeast-1:123456789012:function:scheduled-run',
  roleArn: 'arn:aws:iam::123456789012:role/scheduler',
  deadLetterArn: 'arn:aws:sqs:ap-northeast-1:123456789012:dead-letters',
};
const adapter = () => new EventBridgeScheduler({ client: new SchedulerClient({}), ...options });

const job = (overrides: Partial<CronJob> = {}): CronJob => ({
  id: 'cron_0193a2b4c5d6',
  projectId: 'prj_1',
  environmentId: 'env_1',
  name: 'Nightly report',
  schedule: { kind: 'cron', expression: '0 9 ? * MON-FRI *' },
  timeZone: 'Asia/Tokyo',
  actionId: 'act_1',
  arguments: {},
  executor: { kind: 'user', id: 'usr_1', email: 'ops@example.com' },
  setBy: { id: 'usr_1', email: 'ops@example.com' },
  state: 'running',
  overlap: 'allow',
  createdAt: '2026-11-22T00:00:00.000Z',
  updatedAt: '2026-11-22T00:00:00.000Z',
  version: 1,
  ...overrides,
});

const reservation = (overrides: Partial<Reservation> = {}): Reservation => ({
  id: 'rsv_0193a2b4',
  projectId: 'prj_1',
  environmentId: 'env_1',
  actionId: 'act_1',
  arguments: {},
  runAt: '2026-12-01T00:30:00.000Z',
  timeZone: 'Asia/Tokyo',
  executor: { kind: 'user', id: 'usr_1', email: 'ops@example.com' },
  createdBy: { id: 'usr_1', email: 'ops@example.com' },
  status: 'scheduled',
  createdAt: '2026-11-22T00:00:00.000Z',
  updatedAt: '2026-11-22T00:00:00.000Z',
  ...overrides,
});

const group = 'dogu-production.prj_1.env_1';
const inputsOf = (command: unknown) =>
  scheduler.commandCalls(command as never).map((call) => call.args[0].input as Record<string, unknown>);
const conflict = (message: string) => new ConflictException({ message, Message: message, $metadata: {} });
const notFound = (message: string) =>
  new ResourceNotFoundException({ message, Message: message, $metadata: {} });

const cronTarget = (jobId: string) => ({
  Arn: options.targetArn,
  RoleArn: options.roleArn,
  Input: JSON.stringify({
    kind: 'cron',
    projectId: 'prj_1',
    jobId,
    scheduledAt: '<aws.scheduler.scheduled-time>',
  }),
  RetryPolicy: { MaximumEventAgeInSeconds: 3600, MaximumRetryAttempts: 10 },
  DeadLetterConfig: { Arn: options.deadLetterArn },
});

describe('EventBridgeScheduler.putCronJob', () => {
  it('creates one enabled schedule per expression in the environment group, in the job zone', async () => {
    scheduler.on(CreateScheduleCommand).resolves({});
    scheduler.on(ListSchedulesCommand).resolves({ Schedules: [{ Name: 'cron_0193a2b4c5d6-1' }] });
    await adapter().putCronJob(job());
    expect(inputsOf(CreateScheduleCommand)).toEqual([
      {
        Name: 'cron_0193a2b4c5d6-1',
        GroupName: group,
        ScheduleExpression: 'cron(0 9 ? * MON-FRI *)',
        ScheduleExpressionTimezone: 'Asia/Tokyo',
        FlexibleTimeWindow: { Mode: 'OFF' },
        State: 'ENABLED',
        Target: cronTarget('cron_0193a2b4c5d6'),
      },
    ]);
    expect(inputsOf(ListSchedulesCommand)).toEqual([{ GroupName: group, NamePrefix: 'cron_0193a2b4c5d6-' }]);
    expect(inputsOf(UpdateScheduleCommand)).toEqual([]);
    expect(inputsOf(DeleteScheduleCommand)).toEqual([]);
  });

  it('updates the schedule when it exists already (ConflictException), and disables a stopped job', async () => {
    scheduler.on(CreateScheduleCommand).rejects(conflict('Schedule already exists.'));
    scheduler.on(UpdateScheduleCommand).resolves({});
    scheduler.on(ListSchedulesCommand).resolves({ Schedules: [] });
    await adapter().putCronJob(job({ state: 'stopped', timeZone: 'Europe/Berlin' }));
    const created = inputsOf(CreateScheduleCommand);
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ State: 'DISABLED', ScheduleExpressionTimezone: 'Europe/Berlin' });
    // UpdateSchedule replaces the whole definition: it must carry every field CreateSchedule did.
    expect(inputsOf(UpdateScheduleCommand)).toEqual(created);
  });

  it('creates the group on demand and retries once when the group does not exist', async () => {
    scheduler.on(CreateScheduleCommand).rejectsOnce(notFound('Schedule group not found.')).resolves({});
    scheduler.on(CreateScheduleGroupCommand).resolves({});
    scheduler.on(ListSchedulesCommand).resolves({ Schedules: [] });
    await adapter().putCronJob(job());
    expect(inputsOf(CreateScheduleGroupCommand)).toEqual([{ Name: group }]);
    const created = inputsOf(CreateScheduleCommand);
    expect(created).toHaveLength(2);
    expect(created[1]).toEqual(created[0]);
  });

  it('tolerates a group another container created meanwhile', async () => {
    scheduler.on(CreateScheduleCommand).rejectsOnce(notFound('Schedule group not found.')).resolves({});
    scheduler.on(CreateScheduleGroupCommand).rejects(conflict('Group already exists.'));
    scheduler.on(ListSchedulesCommand).resolves({ Schedules: [] });
    await expect(adapter().putCronJob(job())).resolves.toBeUndefined();
    expect(inputsOf(CreateScheduleCommand)).toHaveLength(2);
  });

  it('does not retry forever: a group that still cannot be found fails the call', async () => {
    scheduler.on(CreateScheduleCommand).rejects(notFound('Schedule group not found.'));
    scheduler.on(CreateScheduleGroupCommand).resolves({});
    await expect(adapter().putCronJob(job())).rejects.toBeInstanceOf(ResourceNotFoundException);
    expect(inputsOf(CreateScheduleCommand)).toHaveLength(2);
  });

  it('deletes the schedules of expressions the job no longer has, across pages, and nothing else', async () => {
    const schedule: Schedule = {
      kind: 'form',
      days: { by: 'dayOfMonth', days: [1, 15, 'L'] },
      times: { kind: 'fixed', times: ['09:00'] },
    };
    const count = eventBridgeExpressions(schedule).length;
    expect(count).toBeGreaterThan(1); // the contract: 'L' cannot share a field with day numbers
    scheduler.on(CreateScheduleCommand).resolves({});
    scheduler.on(DeleteScheduleCommand).resolves({});
    const id = 'cron_0193a2b4c5d6';
    scheduler
      .on(ListSchedulesCommand)
      .resolvesOnce({
        Schedules: [{ Name: `${id}-1` }, { Name: `${id}-${count + 1}` }, { Name: `${id}-x` }],
        NextToken: 'page-2',
      })
      .resolvesOnce({ Schedules: [{ Name: `${id}-${count}` }, { Name: `${id}-${count + 2}` }] });
    await adapter().putCronJob(job({ schedule }));
    expect(inputsOf(CreateScheduleCommand).map((input) => input.Name)).toEqual(
      Array.from({ length: count }, (_, index) => `${id}-${index + 1}`),
    );
    expect(inputsOf(CreateScheduleCommand).map((input) => input.ScheduleExpression)).toEqual(
      eventBridgeExpressions(schedule).map((expression) => `cron(${expression})`),
    );
    expect(inputsOf(ListSchedulesCommand)).toEqual([
      { GroupName: group, NamePrefix: `${id}-` },
      { GroupName: group, NamePrefix: `${id}-`, NextToken: 'page-2' },
    ]);
    expect(inputsOf(DeleteScheduleCommand)).toEqual([
      { GroupName: group, Name: `${id}-${count + 1}` },
      { GroupName: group, Name: `${id}-${count + 2}` },
    ]);
  });
});

describe('EventBridgeScheduler.deleteCronJob', () => {
  it('deletes every schedule of the job and ignores one that is already gone', async () => {
    scheduler.on(ListSchedulesCommand).resolves({
      Schedules: [{ Name: 'cron_0193a2b4c5d6-1' }, { Name: 'cron_0193a2b4c5d6-2' }],
    });
    scheduler.on(DeleteScheduleCommand).rejectsOnce(notFound('Schedule not found.')).resolves({});
    await adapter().deleteCronJob(job());
    expect(inputsOf(DeleteScheduleCommand)).toEqual([
      { GroupName: group, Name: 'cron_0193a2b4c5d6-1' },
      { GroupName: group, Name: 'cron_0193a2b4c5d6-2' },
    ]);
  });

  it('does nothing when the group was never created', async () => {
    scheduler.on(ListSchedulesCommand).rejects(notFound('Schedule group not found.'));
    await adapter().deleteCronJob(job());
    expect(inputsOf(DeleteScheduleCommand)).toEqual([]);
  });

  it('passes on other errors (no silent loss of a schedule that keeps firing)', async () => {
    scheduler.on(ListSchedulesCommand).resolves({ Schedules: [{ Name: 'cron_0193a2b4c5d6-1' }] });
    scheduler.on(DeleteScheduleCommand).rejects(new Error('throttled'));
    await expect(adapter().deleteCronJob(job())).rejects.toThrow('throttled');
  });
});

describe('EventBridgeScheduler reservations', () => {
  it("creates a one-time at() schedule on UTC's clock (the instant, decision 0085) that deletes itself", async () => {
    scheduler.on(CreateScheduleCommand).resolves({});
    await adapter().putReservation(reservation());
    expect(inputsOf(CreateScheduleCommand)).toEqual([
      {
        Name: 'rsv_0193a2b4',
        GroupName: group,
        // 09:30 in Tokyo (UTC+9), given as the instant it is.
        ScheduleExpression: 'at(2026-12-01T00:30:00)',
        ScheduleExpressionTimezone: 'UTC',
        FlexibleTimeWindow: { Mode: 'OFF' },
        State: 'ENABLED',
        ActionAfterCompletion: 'DELETE',
        Target: {
          Arn: options.targetArn,
          RoleArn: options.roleArn,
          Input: JSON.stringify({ kind: 'reservation', projectId: 'prj_1', reservationId: 'rsv_0193a2b4' }),
          RetryPolicy: { MaximumEventAgeInSeconds: 3600, MaximumRetryAttempts: 10 },
          DeadLetterConfig: { Arn: options.deadLetterArn },
        },
      },
    ]);
  });

  it('formats at() to the second, and the second 01:30 of a fall-back night stays the second', async () => {
    scheduler.on(CreateScheduleCommand).resolves({});
    await adapter().putReservation(
      reservation({ runAt: '2026-07-01T23:15:42.000Z', timeZone: 'America/Los_Angeles' }),
    );
    // 01:30 PST (UTC−8) on 2026-11-01, after 01:30 PDT: on Los Angeles' clock both are 01:30.
    await adapter().putReservation(
      reservation({ runAt: '2026-11-01T09:30:00.000Z', timeZone: 'America/Los_Angeles' }),
    );
    expect(
      inputsOf(CreateScheduleCommand).map((c) => [c.ScheduleExpression, c.ScheduleExpressionTimezone]),
    ).toEqual([
      ['at(2026-07-01T23:15:42)', 'UTC'],
      ['at(2026-11-01T09:30:00)', 'UTC'],
    ]);
    expect(wallClockIn('2026-12-31T15:00:00Z', 'Asia/Tokyo')).toBe('2027-01-01T00:00:00');
    expect(wallClockIn('2026-03-01T00:00:00+09:00', 'UTC')).toBe('2026-02-28T15:00:00');
    expect(() => wallClockIn('tomorrow', 'UTC')).toThrow("'tomorrow' is not an ISO 8601 date-time.");
  });

  it('updates a reservation whose schedule exists and deletes it, ignoring one that already fired', async () => {
    scheduler.on(CreateScheduleCommand).rejects(conflict('exists'));
    scheduler.on(UpdateScheduleCommand).resolves({});
    scheduler.on(DeleteScheduleCommand).rejects(notFound('Schedule not found.'));
    await adapter().putReservation(reservation());
    expect(inputsOf(UpdateScheduleCommand)).toEqual(inputsOf(CreateScheduleCommand));
    await adapter().deleteReservation(reservation());
    expect(inputsOf(DeleteScheduleCommand)).toEqual([{ GroupName: group, Name: 'rsv_0193a2b4' }]);
  });
});

describe('schedule names', () => {
  it('keeps valid short names and hashes long or invalid ones within 64 characters', () => {
    expect(boundedName('cron_0193a2b4c5d6')).toBe('cron_0193a2b4c5d6');
    const long = 'x'.repeat(70);
    expect(boundedName(long)).toHaveLength(64);
    expect(boundedName(long)).not.toBe(boundedName(`${long}y`));
    expect(boundedName('a/b c')).toMatch(/^a_b_c-[0-9a-f]{24}$/);
    expect(cronScheduleName('x'.repeat(80), 999).length).toBeLessThanOrEqual(64);
  });

  it('names one group per environment under the stage prefix, hashed when too long', () => {
    expect(scheduleGroupName('dogu-dev', 'prj_1', 'env_1')).toBe('dogu-dev.prj_1.env_1');
    const a = scheduleGroupName('dogu-production', `prj_${'a'.repeat(32)}`, `env_${'b'.repeat(32)}`);
    const b = scheduleGroupName('dogu-production', `prj_${'a'.repeat(32)}`, `env_${'c'.repeat(32)}`);
    for (const name of [a, b]) {
      expect(name).toMatch(/^dogu-production\.[0-9a-f]{48}$/);
    }
    expect(a).not.toBe(b);
    // A '.' in an id would make two pairs read alike: such names are hashed.
    expect(scheduleGroupName('dogu-dev', 'a.b', 'c')).not.toBe(scheduleGroupName('dogu-dev', 'a', 'b.c'));
  });

  it('refuses a group prefix IAM could not scope', () => {
    expect(
      () => new EventBridgeScheduler({ client: new SchedulerClient({}), ...options, groupPrefix: 'a.b' }),
    ).toThrow("Scheduler group prefix 'a.b' must be 1–40 characters");
  });
});
