/**
 * Managing cron jobs (spec 2.8, 3, 5.3): administrators, development leads, developers and action
 * operations leads manage; every member views. The store is written first, then the scheduler, so a
 * repeated save converges when the scheduler call failed.
 */
import { DoguError } from '../errors.ts';
import { authorize, requireEnvironment } from '../manage/access.ts';
import type { Principal } from '../model.ts';
import { bindArguments } from '../parameters.ts';
import { masterDataOf } from '../run-preparation.ts';
import type { CronJobInput } from './cron-job-input.ts';
import { recordMissedRuns } from './cron-runs.ts';
import type { SchedulingDeps } from './deps.ts';
import { chooseExecutor } from './executor.ts';
import { type JobScope, loadJob } from './job-scope.ts';
import type { CronJob } from './model.ts';
import { defaultTimeZone, type Schedule } from './schedule.ts';
import { assertTimeZone, eventBridgeExpressions, nextRunTimes } from './schedule-expression.ts';

export type CronJobView = CronJob & { expressions: string[]; nextRuns: string[] };

/** The expressions and next two runs of a schedule, for the form's live feedback (every member may ask). */
export async function previewCronSchedule(
  deps: SchedulingDeps,
  principal: Principal,
  scope: JobScope,
  input: { schedule: Schedule; timeZone?: string | undefined },
) {
  await authorize(deps.store, principal, scope.projectId, 'view');
  return previewSchedule(input.schedule, input.timeZone, deps.clock.now());
}

export function previewSchedule(schedule: Schedule, timeZone: string | undefined, now: Date) {
  const zone = timeZone ?? defaultTimeZone;
  assertTimeZone(zone);
  const expressions = eventBridgeExpressions(schedule);
  return { expressions, nextRuns: nextRunTimes(expressions, zone, now, 2).map((d) => d.toISOString()) };
}

export function viewOf(job: CronJob, now: Date): CronJobView {
  const expressions = eventBridgeExpressions(job.schedule);
  const nextRuns =
    job.state === 'running'
      ? nextRunTimes(expressions, job.timeZone, now, 2).map((d) => d.toISOString())
      : [];
  return { ...job, expressions, nextRuns };
}

export async function listCronJobs(deps: SchedulingDeps, principal: Principal, scope: JobScope) {
  await authorize(deps.store, principal, scope.projectId, 'view');
  await requireEnvironment(deps.store, scope.projectId, scope.environmentId);
  const now = deps.clock.now();
  return (await deps.schedules.listCronJobs(scope.projectId, scope.environmentId)).map((j) => viewOf(j, now));
}

export async function getCronJob(deps: SchedulingDeps, principal: Principal, scope: JobScope, jobId: string) {
  await authorize(deps.store, principal, scope.projectId, 'view');
  return viewOf(await loadJob(deps, scope, jobId), deps.clock.now());
}

export async function createCronJob(
  deps: SchedulingDeps,
  principal: Principal,
  scope: JobScope,
  input: CronJobInput,
) {
  await authorize(deps.store, principal, scope.projectId, 'manage_cron_jobs');
  await requireEnvironment(deps.store, scope.projectId, scope.environmentId);
  const now = deps.clock.now().toISOString();
  const checked = await checkInput(deps, principal, scope, input, undefined);
  const { timeLimitMs, ...rest } = checked;
  const job: CronJob = {
    id: deps.ids.next('cron'),
    projectId: scope.projectId,
    environmentId: scope.environmentId,
    ...rest,
    ...(timeLimitMs !== undefined ? { timeLimitMs } : {}),
    setBy: { id: principal.id, email: principal.email },
    state: input.state ?? 'running',
    overlap: input.overlap ?? 'allow',
    ...(input.state === 'stopped' ? { stoppedAt: now } : {}),
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  if (!(await deps.schedules.saveCronJob(job, 0)))
    throw new DoguError('state_conflict', 'The cron job exists.');
  await deps.scheduler.putCronJob(job);
  return viewOf(job, deps.clock.now());
}

/** Name, schedule, action, parameters and executor are editable (spec 2.8); the state changes by stop/resume. */
export async function updateCronJob(
  deps: SchedulingDeps,
  principal: Principal,
  scope: JobScope,
  jobId: string,
  input: CronJobInput,
) {
  await authorize(deps.store, principal, scope.projectId, 'manage_cron_jobs');
  const current = await loadJob(deps, scope, jobId);
  if (input.version !== undefined && input.version !== current.version) {
    throw staleVersion(current, input.version);
  }
  const { timeLimitMs, ...checked } = await checkInput(deps, principal, scope, input, current);
  const { timeLimitMs: _previous, ...unlimited } = current;
  const job: CronJob = {
    ...unlimited,
    ...checked,
    ...(timeLimitMs !== undefined ? { timeLimitMs } : {}),
    overlap: input.overlap ?? current.overlap,
    setBy: { id: principal.id, email: principal.email },
    updatedAt: deps.clock.now().toISOString(),
    version: current.version + 1,
  };
  if (input.state && input.state !== current.state) {
    throw new DoguError('invalid_definition', 'Change the operating state with stop or resume.', {
      errors: [
        {
          pointer: '/state',
          detail: `use POST …/cron-jobs/${jobId}/${input.state === 'stopped' ? 'stop' : 'resume'}`,
        },
      ],
    });
  }
  return saveAndArm(deps, job, current);
}

export async function deleteCronJob(
  deps: SchedulingDeps,
  principal: Principal,
  scope: JobScope,
  jobId: string,
) {
  await authorize(deps.store, principal, scope.projectId, 'manage_cron_jobs');
  const job = await loadJob(deps, scope, jobId);
  // Triggers first: a trigger left behind would deliver into a deleted job (harmless, but noisy).
  await deps.scheduler.deleteCronJob(job);
  await deps.schedules.deleteCronJob(scope.projectId, jobId);
}

/** Spec 3: running → stopped; scheduled runs cease until resumed. */
export async function stopCronJob(
  deps: SchedulingDeps,
  principal: Principal,
  scope: JobScope,
  jobId: string,
) {
  await authorize(deps.store, principal, scope.projectId, 'manage_cron_jobs');
  const current = await loadJob(deps, scope, jobId);
  if (current.state === 'stopped') return viewOf(current, deps.clock.now());
  const now = deps.clock.now().toISOString();
  const job: CronJob = {
    ...current,
    state: 'stopped',
    stoppedAt: now,
    updatedAt: now,
    version: current.version + 1,
  };
  return saveAndArm(deps, job, current);
}

/** Spec 3: stopped → running. The scheduled times passed while stopped are recorded as cancelled. */
export async function resumeCronJob(
  deps: SchedulingDeps,
  principal: Principal,
  scope: JobScope,
  jobId: string,
) {
  await authorize(deps.store, principal, scope.projectId, 'manage_cron_jobs');
  const current = await loadJob(deps, scope, jobId);
  if (current.state === 'running') return viewOf(current, deps.clock.now());
  const now = deps.clock.now();
  const { stoppedAt: _stoppedAt, ...rest } = current;
  const job: CronJob = {
    ...rest,
    state: 'running',
    updatedAt: now.toISOString(),
    version: current.version + 1,
  };
  const stoppedAt = current.stoppedAt;
  return saveAndArm(deps, job, current, async () => {
    if (stoppedAt) {
      await recordMissedRuns(
        deps,
        job,
        new Date(stoppedAt),
        now,
        'The job was stopped at its scheduled time.',
      );
    }
  });
}

async function checkInput(
  deps: SchedulingDeps,
  principal: Principal,
  scope: JobScope,
  input: CronJobInput,
  current: CronJob | undefined,
) {
  const timeZone = input.timeZone ?? current?.timeZone ?? defaultTimeZone;
  assertTimeZone(timeZone);
  eventBridgeExpressions(input.schedule); // throws with the precise message
  const action = await deps.store.getAction(scope.projectId, input.actionId);
  if (!action) {
    throw new DoguError('invalid_definition', `Action '${input.actionId}' does not exist.`, {
      errors: [{ pointer: '/actionId', detail: 'no such action in this project' }],
    });
  }
  const { executor, action: runnable } = await chooseExecutor(
    deps,
    principal,
    { ...scope, actionId: input.actionId },
    input.executor,
    current?.executor,
  );
  if (runnable.review?.required) {
    throw new DoguError(
      'invalid_definition',
      `Action '${input.actionId}' requires a review before each run; a cron job cannot wait for approval.`,
      { errors: [{ pointer: '/actionId', detail: 'the action requires review' }] },
    );
  }
  try {
    bindArguments(runnable.parameters, input.arguments, {
      system: {},
      masterData: await masterDataOf(deps, runnable),
    });
  } catch (error) {
    if (error instanceof DoguError && error.errors) {
      throw new DoguError('invalid_definition', error.message, { errors: error.errors });
    }
    throw error;
  }
  return {
    name: input.name,
    schedule: input.schedule,
    timeZone,
    actionId: input.actionId,
    arguments: input.arguments,
    executor,
    // A replace without it clears it (the runtime's job limit again).
    timeLimitMs: input.timeLimitSeconds !== undefined ? input.timeLimitSeconds * 1000 : undefined,
  };
}

/** Saves over `current` (refused when someone saved first), then (re)arms its triggers. */
async function saveAndArm(
  deps: SchedulingDeps,
  job: CronJob,
  current: CronJob,
  beforeArming?: () => Promise<unknown>,
): Promise<CronJobView> {
  if (!(await deps.schedules.saveCronJob(job, current.version))) throw staleVersion(current, current.version);
  await beforeArming?.();
  await deps.scheduler.putCronJob(job);
  return viewOf(job, deps.clock.now());
}

const staleVersion = (job: CronJob, version: number) =>
  new DoguError(
    'state_conflict',
    `Cron job '${job.id}' changed since version ${version}; it is at version ${job.version}. Reload and retry.`,
    { extra: { currentVersion: job.version } },
  );
