/**
 * A long job on AWS (decision 0075): the async-execution state machine starts a CodeBuild build for
 * a job whose limit is above Lambda's budget; the build runs this module (bundled like a Lambda
 * handler, `node index.mjs`) with the job in environment variables the state machine sets. It runs
 * the same domain code as run-job, with the build's limit (DOGU_MAX_JOB_EXECUTION_MS, 30 minutes).
 */
import { pathToFileURL } from 'node:url';
import { logger } from '../shared/commons/logger.ts';
import { type RunJobEvent, runJobInput } from '../shared/domain/scheduling/job-input.ts';
import type { HandedOffCronRun } from '../shared/domain/scheduling/ports.ts';
import { actionEngines } from '../shared/runtime/groups/action-engines.ts';
import { executionPayloads } from '../shared/runtime/groups/execution-payloads.ts';
import { fileStorage } from '../shared/runtime/groups/file-storage.ts';
import { notifications as notificationCenter } from '../shared/runtime/groups/notifications.ts';
import { ownIdp } from '../shared/runtime/groups/own-idp.ts';
import { scheduling } from '../shared/runtime/groups/scheduling.ts';
import { scriptSandbox } from '../shared/runtime/groups/script-sandbox.ts';
import { secretValues } from '../shared/runtime/groups/secret-values.ts';
import { compose, getServices, schedulingDeps } from '../shared/runtime/services.ts';

/** The same groups as run-job, so both get the same role (infra/function-needs.ts reads these imports). */
const composition = compose(
  secretValues,
  actionEngines,
  ownIdp,
  scriptSandbox,
  scheduling,
  notificationCenter,
  fileStorage,
  executionPayloads,
);

/** The variables the state machine overrides per build (infra/scheduling.ts). */
export const longJobEnv = {
  projectId: 'DOGU_JOB_PROJECT_ID',
  environmentId: 'DOGU_JOB_ENVIRONMENT_ID',
  executionId: 'DOGU_JOB_EXECUTION_ID',
  /** The machine's whole input as JSON: it names a handed-off cron run (decision 0101). */
  input: 'DOGU_JOB_INPUT',
} as const;

const idPattern = /^[A-Za-z0-9_-]{1,100}$/;

/** The job a build runs, from its environment; a missing or malformed value fails the build. */
export function longJobFrom(env: NodeJS.ProcessEnv): RunJobEvent {
  const value = (name: string) => {
    const text = env[name];
    if (!text || !idPattern.test(text))
      throw new Error(`${name} must name the job (letters, digits, '-', '_').`);
    return text;
  };
  const job = {
    projectId: value(longJobEnv.projectId),
    environmentId: env[longJobEnv.environmentId] ?? '',
    executionId: value(longJobEnv.executionId),
  };
  const cronRun = cronRunOf(env[longJobEnv.input]);
  return cronRun ? { ...job, cronRun } : job;
}

/** The cron run named in the machine's input, checked field by field; none for other jobs. */
function cronRunOf(input: string | undefined): HandedOffCronRun | undefined {
  if (!input) return undefined;
  const parsed = JSON.parse(input) as { cronRun?: { jobId?: unknown; scheduledAt?: unknown } };
  const run = parsed.cronRun;
  if (run === undefined) return undefined;
  if (typeof run.jobId !== 'string' || !idPattern.test(run.jobId) || typeof run.scheduledAt !== 'string')
    throw new Error(`${longJobEnv.input} names a cron run without its job id and scheduled time.`);
  return { jobId: run.jobId, scheduledAt: run.scheduledAt };
}

/** The services a job needs (as run-job composes them; a test passes the embedded runtime's). */
type JobServices = Parameters<typeof schedulingDeps>[0];

export async function runLongJob(env: NodeJS.ProcessEnv, services?: Promise<JobServices>): Promise<void> {
  const job = longJobFrom(env);
  logger.appendKeys({ projectId: job.projectId, executionId: job.executionId });
  // The outcome (succeeded, failed, timed_out) is recorded by the domain; only a crash fails the
  // build, which the state machine's Catch then records.
  await runJobInput(schedulingDeps(await (services ?? getServices(composition))), job);
}

// Run when the build starts the bundle (`node index.mjs`), not when a test imports the module.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runLongJob(process.env).then(
    () => process.exit(0),
    (error: unknown) => {
      logger.error('The long job failed', error as Error);
      process.exit(1);
    },
  );
}
