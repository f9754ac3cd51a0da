/**
 * The Scheduler port on AWS: EventBridge Scheduler schedules that invoke the scheduled-run Lambda
 * (functions/scheduled-run.ts). One schedule group per environment, one schedule per EventBridge
 * expression of a cron job (`<jobId>-<n>`), one self-deleting `at()` schedule per reservation.
 */
import {
  ConflictException,
  CreateScheduleCommand,
  type CreateScheduleCommandInput,
  CreateScheduleGroupCommand,
  DeleteScheduleCommand,
  ListSchedulesCommand,
  ResourceNotFoundException,
  type SchedulerClient,
  UpdateScheduleCommand,
} from '@aws-sdk/client-scheduler';
import type { CronJob, Reservation } from '../../domain/scheduling/model.ts';
import type { Scheduler } from '../../domain/scheduling/ports.ts';
import { eventBridgeExpressions } from '../../domain/scheduling/schedule-expression.ts';
import { boundedName, scheduleGroupName } from './schedule-names.ts';

export interface EventBridgeSchedulerOptions {
  client: SchedulerClient;
  /** Start of every group name of this stage (`dogu-<stage>`): the IAM grants are scoped to it. */
  groupPrefix: string;
  /** ARN of the scheduled-run Lambda. */
  targetArn: string;
  /** The role EventBridge Scheduler assumes to invoke the target. */
  roleArn: string;
  /** SQS queue that receives deliveries which still failed after the retries. */
  deadLetterArn: string;
}

/**
 * A run that is an hour late is no longer what the user scheduled, and the next due time is usually
 * close: give up after an hour. Within it, ten attempts with EventBridge's exponential back-off ride
 * out Lambda throttling and short service errors. Duplicates are harmless because a run is keyed by
 * (jobId, scheduledAt), and events that are dropped land in the dead-letter queue, not in silence.
 */
export const deliveryRetryPolicy = { MaximumEventAgeInSeconds: 3600, MaximumRetryAttempts: 10 } as const;

/** Replaced by EventBridge with the due time of the invocation (the same on every retry). */
const scheduledTimePlaceholder = '<aws.scheduler.scheduled-time>';

type ScheduleDefinition = Omit<CreateScheduleCommandInput, 'ClientToken'> & {
  Name: string;
  GroupName: string;
};

export class EventBridgeScheduler implements Scheduler {
  readonly #options: EventBridgeSchedulerOptions;

  constructor(options: EventBridgeSchedulerOptions) {
    // The group name must stay recognisable by its prefix for IAM, so the prefix itself cannot be
    // shortened; 40 characters leave room for a collision-safe hash.
    if (!/^[0-9a-zA-Z_-]{1,40}$/.test(options.groupPrefix)) {
      throw new Error(
        `Scheduler group prefix '${options.groupPrefix}' must be 1–40 characters of letters, digits, '-' and '_'.`,
      );
    }
    this.#options = options;
  }

  async putCronJob(job: CronJob): Promise<void> {
    const expressions = eventBridgeExpressions(job.schedule);
    const groupName = this.#groupOf(job.projectId, job.environmentId);
    const names = expressions.map((_, index) => cronScheduleName(job.id, index + 1));
    for (const [index, expression] of expressions.entries()) {
      await this.#put({
        Name: names[index]!,
        GroupName: groupName,
        ScheduleExpression: `cron(${expression})`,
        ScheduleExpressionTimezone: job.timeZone,
        FlexibleTimeWindow: { Mode: 'OFF' },
        State: job.state === 'running' ? 'ENABLED' : 'DISABLED',
        Target: this.#target({
          kind: 'cron',
          projectId: job.projectId,
          jobId: job.id,
          scheduledAt: scheduledTimePlaceholder,
        }),
      });
    }
    // A schedule edited from three expressions to one must not keep firing the other two.
    const current = new Set(names);
    const stale = (await this.#cronScheduleNames(groupName, job.id)).filter((name) => !current.has(name));
    for (const name of stale) await this.#delete(groupName, name);
  }

  async deleteCronJob(job: CronJob): Promise<void> {
    const groupName = this.#groupOf(job.projectId, job.environmentId);
    for (const name of await this.#cronScheduleNames(groupName, job.id)) await this.#delete(groupName, name);
  }

  async putReservation(reservation: Reservation): Promise<void> {
    await this.#put({
      Name: reservationScheduleName(reservation.id),
      GroupName: this.#groupOf(reservation.projectId, reservation.environmentId),
      // The instant is already resolved (decision 0085): scheduled on UTC's clock, which never repeats
      // or skips a time, EventBridge cannot pick the other 01:30 of a night the clocks go back.
      ScheduleExpression: `at(${wallClockIn(reservation.runAt, 'UTC')})`,
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      State: 'ENABLED',
      // A one-time schedule is gone once it has fired: nothing to clean up, no quota used.
      ActionAfterCompletion: 'DELETE',
      Target: this.#target({
        kind: 'reservation',
        projectId: reservation.projectId,
        reservationId: reservation.id,
      }),
    });
  }

  async deleteReservation(reservation: Reservation): Promise<void> {
    await this.#delete(
      this.#groupOf(reservation.projectId, reservation.environmentId),
      reservationScheduleName(reservation.id),
    );
  }

  #groupOf(projectId: string, environmentId: string): string {
    return scheduleGroupName(this.#options.groupPrefix, projectId, environmentId);
  }

  #target(input: Record<string, string>): CreateScheduleCommandInput['Target'] {
    return {
      Arn: this.#options.targetArn,
      RoleArn: this.#options.roleArn,
      Input: JSON.stringify(input),
      RetryPolicy: { ...deliveryRetryPolicy },
      DeadLetterConfig: { Arn: this.#options.deadLetterArn },
    };
  }

  /** Create, or update when it exists; the group is created the first time one of its schedules is. */
  async #put(definition: ScheduleDefinition): Promise<void> {
    try {
      await this.#createOrUpdate(definition);
    } catch (error) {
      if (!(error instanceof ResourceNotFoundException)) throw error;
      await this.#createGroup(definition.GroupName);
      await this.#createOrUpdate(definition);
    }
  }

  async #createOrUpdate(definition: ScheduleDefinition): Promise<void> {
    try {
      await this.#options.client.send(new CreateScheduleCommand(definition));
    } catch (error) {
      if (!(error instanceof ConflictException)) throw error;
      // UpdateSchedule replaces the whole definition, so it takes the same fields.
      await this.#options.client.send(new UpdateScheduleCommand(definition));
    }
  }

  async #createGroup(name: string): Promise<void> {
    try {
      await this.#options.client.send(new CreateScheduleGroupCommand({ Name: name }));
    } catch (error) {
      // Another container created it at the same moment.
      if (!(error instanceof ConflictException)) throw error;
    }
  }

  async #delete(groupName: string, name: string): Promise<void> {
    try {
      await this.#options.client.send(new DeleteScheduleCommand({ GroupName: groupName, Name: name }));
    } catch (error) {
      // Already gone (a fired one-time schedule, or a group never created): what we wanted.
      if (!(error instanceof ResourceNotFoundException)) throw error;
    }
  }

  /** The names of the job's schedules that exist now, whatever expressions made them. */
  async #cronScheduleNames(groupName: string, jobId: string): Promise<string[]> {
    const prefix = `${cronScheduleBase(jobId)}-`;
    const names: string[] = [];
    let nextToken: string | undefined;
    try {
      do {
        const page = await this.#options.client.send(
          new ListSchedulesCommand({ GroupName: groupName, NamePrefix: prefix, NextToken: nextToken }),
        );
        for (const schedule of page.Schedules ?? []) {
          const name = schedule.Name ?? '';
          if (name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length))) names.push(name);
        }
        nextToken = page.NextToken;
      } while (nextToken);
    } catch (error) {
      if (error instanceof ResourceNotFoundException) return []; // no group: no schedules
      throw error;
    }
    return names;
  }
}

/** Room for `-<n>` with n up to 999 within the 64-character limit of a schedule name. */
const cronScheduleBase = (jobId: string) => boundedName(jobId, 60);

export const cronScheduleName = (jobId: string, n: number) => `${cronScheduleBase(jobId)}-${n}`;

export const reservationScheduleName = (reservationId: string) => boundedName(reservationId, 64);

/** `yyyy-mm-ddThh:mm:ss` of the instant `iso` on the wall clock of `timeZone`, as at() wants it. */
export function wallClockIn(iso: string, timeZone: string): string {
  const instant = new Date(iso);
  if (Number.isNaN(instant.getTime())) throw new Error(`'${iso}' is not an ISO 8601 date-time.`);
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}:${part('second')}`;
}
