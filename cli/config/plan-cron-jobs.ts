/**
 * Plans the `cronJobs` key. A job is named by (environment, name): its `cron_…` id differs between
 * installations. A new job is created with POST; a changed one is replaced with PUT carrying the
 * version read for the plan (the service answers 409 if someone saved it since); a changed `state`
 * goes through the stop and resume endpoints, which the service keeps apart from PUT (resuming
 * records the runs missed while stopped). Nothing is ever deleted.
 *
 * `executor` and `state` left out of the file are not compared: a stored job keeps its executor (a
 * new one runs as whoever applies) and its state (a new one runs), so an operator who stops a job in
 * the console is not overruled by the next apply of a file that does not manage it.
 */
import { defaultTimeZone, scheduleSchema } from '../../shared/domain/scheduling/schedule.ts';
import { fieldChanges } from './diff.ts';
import { cronJobPath, cronJobsPath, type StoredCronJob } from './management-api.ts';
import { type Path, pathOfPointer } from './path.ts';
import { serviceAccountEmail } from './plan-service-accounts.ts';
import type { PlanInput, PlannedWrites, PlannerResult, PlanProblem, WriteStep } from './plan-types.ts';
import type { ProjectState } from './project-state.ts';
import type { CronJobInFile } from './schema.ts';

type Step = Omit<WriteStep, 'resource'>;

export const cronJobId = (environmentId: string, name: string) => `${environmentId}.${name}`;

/** `<environment>.<name>` → id of the project's cron jobs (the first, where two share a name). */
export function cronJobIds(state: ProjectState): Map<string, string> {
  const ids = new Map<string, string>();
  for (const [environmentId, jobs] of state.cronJobs)
    for (const job of jobs)
      if (!ids.has(cronJobId(environmentId, job.name))) ids.set(cronJobId(environmentId, job.name), job.id);
  return ids;
}

/** Service account id → name: executors are stored by id and named in the file by name. */
export const serviceAccountNamesById = (state: ProjectState) =>
  new Map([...state.serviceAccounts.values()].map((a) => [a.id, a.name]));

/** A stored executor as the file names it: a service account by name; a user cannot be named (undefined). */
export function executorInFile(
  executor: StoredCronJob['executor'],
  accountNames: ReadonlyMap<string, string>,
): CronJobInFile['executor'] {
  if (executor.kind !== 'service_account') return undefined;
  const name = accountNames.get(executor.id);
  return name === undefined ? undefined : { serviceAccount: name };
}

/** Parsed with the API's schema (unknown fields dropped) and through JSON (no `undefined`). */
const normalised = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;
const normalisedSchedule = (schedule: unknown) => {
  const parsed = scheduleSchema.safeParse(schedule);
  return normalised(parsed.success ? parsed.data : schedule);
};

/** The file's job with the defaults the service applies on creation filled in. */
function comparableInFile(job: CronJobInFile): Record<string, unknown> {
  return normalised({
    name: job.name,
    schedule: normalisedSchedule(job.schedule),
    timeZone: job.timeZone ?? defaultTimeZone,
    action: job.action,
    arguments: job.arguments,
    overlap: job.overlap ?? 'allow',
    ...(job.executor ? { executor: job.executor } : {}),
    ...(job.state ? { state: job.state } : {}),
  }) as Record<string, unknown>;
}

/** The stored job in the file's terms; `executor` and `state` only when the file states them. */
function comparableStored(
  stored: StoredCronJob,
  job: CronJobInFile,
  accountNames: ReadonlyMap<string, string>,
): Record<string, unknown> {
  const executor =
    executorInFile(stored.executor, accountNames) ??
    (stored.executor.kind === 'user'
      ? { user: stored.executor.email }
      : { serviceAccount: stored.executor.email });
  return normalised({
    name: stored.name,
    schedule: normalisedSchedule(stored.schedule),
    timeZone: stored.timeZone,
    action: stored.actionId,
    arguments: stored.arguments ?? {},
    overlap: stored.overlap,
    ...(job.executor ? { executor } : {}),
    ...(job.state ? { state: stored.state } : {}),
  }) as Record<string, unknown>;
}

/** The API's body: every field the file manages, defaults written out (PUT keeps what it is not sent). */
function apiBody(job: CronJobInFile, executorId: string | undefined): Record<string, unknown> {
  return {
    name: job.name,
    schedule: job.schedule,
    timeZone: job.timeZone ?? defaultTimeZone,
    actionId: job.action,
    arguments: job.arguments,
    overlap: job.overlap ?? 'allow',
    ...(executorId === undefined ? {} : { executor: { kind: 'service_account', id: executorId } }),
  };
}

/** The API names the action `actionId` and the executor by id; the file, `action` and a name. */
const filePathOfPointer =
  (job: CronJobInFile) =>
  (pointer: string): Path => {
    const [field, ...rest] = pathOfPointer(pointer);
    if (field === 'actionId') return ['action', ...rest];
    if (field === 'executor') return job.executor ? ['executor', 'serviceAccount'] : [];
    return field === undefined ? [] : [field, ...rest];
  };

export function planCronJobs({ config, state, projectId }: PlanInput): PlannerResult {
  const problems: PlanProblem[] = [];
  const actionIds = new Set([...state.actions.keys(), ...config.actions.map((a) => a.id)]);
  const accountNames = new Set([
    ...state.serviceAccounts.keys(),
    ...config.serviceAccounts.map((a) => a.name),
  ]);
  const namesById = serviceAccountNamesById(state);

  const planned = config.cronJobs.map((job, index): PlannedWrites => {
    const filePath = ['cronJobs', index];
    if (!actionIds.has(job.action))
      problems.push({
        path: [...filePath, 'action'],
        message: `no action '${job.action}' in the file or in the project`,
      });
    if (job.executor && !accountNames.has(job.executor.serviceAccount))
      problems.push({
        path: [...filePath, 'executor', 'serviceAccount'],
        message: `no service account '${job.executor.serviceAccount}' in the file or in project '${projectId}'`,
      });
    const namesakes = (state.cronJobs.get(job.environment) ?? []).filter((j) => j.name === job.name);
    if (namesakes.length > 1)
      problems.push({
        path: [...filePath, 'name'],
        message: `environment '${job.environment}' of project '${projectId}' has ${namesakes.length} cron jobs named '${job.name}' (${namesakes.map((j) => j.id).join(', ')}), so apply cannot tell which one this is: rename or delete all but one through the API`,
      });
    const stored = namesakes[0];
    const fields = stored
      ? fieldChanges(comparableStored(stored, job, namesById), comparableInFile(job))
      : [];

    // The account may be created by this same apply: its id is known only when the step runs.
    const accountEmail = job.executor
      ? serviceAccountEmail(job.executor.serviceAccount, projectId).toLowerCase()
      : undefined;
    const storedAccountId = job.executor
      ? state.serviceAccounts.get(job.executor.serviceAccount)?.id
      : undefined;
    const withBody = (extra: Record<string, unknown>): Pick<Step, 'body' | 'bodyFor'> => ({
      body: { ...apiBody(job, storedAccountId), ...extra },
      ...(accountEmail === undefined
        ? {}
        : {
            bodyFor: (ids) => ({
              ...apiBody(job, ids.principals.get(accountEmail) ?? accountEmail),
              ...extra,
            }),
          }),
    });
    const pointers = { filePathOfPointer: filePathOfPointer(job) };

    const writes: PlannedWrites['writes'] = [];
    if (!stored) {
      writes.push({
        phase: 'cronJobs',
        step: {
          path: cronJobsPath(job.environment),
          method: 'POST',
          // Notification rules saved later name the new job by environment and name.
          identifies: { map: 'cronJobs', key: cronJobId(job.environment, job.name), field: 'id' },
          ...withBody(job.state ? { state: job.state } : {}),
          ...pointers,
        },
      });
    } else {
      if (fields.some((f) => f.path[0] !== 'state'))
        writes.push({
          phase: 'cronJobs',
          step: {
            path: cronJobPath(job.environment, stored.id),
            // The service refuses the save if the job changed since this version was read.
            ...withBody({ version: stored.version }),
            ...pointers,
          },
        });
      if (job.state && job.state !== stored.state) {
        const stopping = job.state === 'stopped';
        writes.push({
          phase: 'cronJobs',
          step: {
            path: `${cronJobPath(job.environment, stored.id)}/${stopping ? 'stop' : 'resume'}`,
            method: 'POST',
            body: {},
            note: stopping ? 'stopped' : 'resumed',
            ...pointers,
          },
        });
      }
    }
    return {
      resource: {
        kind: 'cronJob',
        id: cronJobId(job.environment, job.name),
        filePath,
        change: !stored ? 'create' : fields.length > 0 ? 'update' : 'unchanged',
        fields,
        writeOnly: [],
        ...(stored && job.state === 'running' && stored.state === 'stopped'
          ? { warnings: ['resuming records the scheduled times passed while it was stopped as cancelled'] }
          : {}),
      },
      writes,
    };
  });
  return { planned, problems };
}

/** A stored job as exported: named as the file names things, defaults and a user executor left out. */
export function exportedCronJob(
  stored: StoredCronJob,
  accountNames: ReadonlyMap<string, string>,
): Record<string, unknown> {
  const executor = executorInFile(stored.executor, accountNames);
  const args = stored.arguments ?? {};
  return {
    name: stored.name,
    environment: stored.environmentId,
    schedule: normalisedSchedule(stored.schedule),
    ...(stored.timeZone === defaultTimeZone ? {} : { timeZone: stored.timeZone }),
    action: stored.actionId,
    ...(Object.keys(args).length === 0 ? {} : { arguments: args }),
    ...(executor ? { executor } : {}),
    ...(stored.state === 'stopped' ? { state: 'stopped' } : {}),
    ...(stored.overlap === 'skip' ? { overlap: 'skip' } : {}),
  };
}
